/// A literal value in a format string.
public enum PredicateLiteral: Hashable, Sendable {
    /// `NULL`, `NIL`.
    case null
    /// `TRUE`, `YES`, `FALSE`, `NO`.
    case bool(Bool)
    /// `42`, `-7`, `0x1F`, `0o17`, `0b101`.
    case integer(Int)
    /// `2.5`, `1e3`, `-0.5`; also an integer literal too large for `Int`.
    case double(Double)
    /// `"text"` or `'text'`, escapes resolved.
    case string(String)
}
