/// A format string that does not parse: what is wrong and where, as a 1-based column in the
/// string (counted in characters). Callers that know where the string came from turn it into
/// a ``Diagnostic`` with ``diagnostic(file:line:firstColumn:)``.
public struct PredicateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// 1-based column in the format string.
    public var column: Int

    public init(_ message: String, column: Int) {
        self.message = message
        self.column = column
    }

    /// `column 7: expected …`
    public var description: String { "column \(column): \(message)" }

    /// An error diagnostic at `file:line`, with the column shifted by where the format string
    /// starts on that line (`firstColumn` is the column of its first character; 0 leaves the
    /// column out).
    public func diagnostic(file: String, line: Int, firstColumn: Int = 0) -> Diagnostic {
        let location = SourceLocation(
            file: file, line: line, column: firstColumn > 0 ? firstColumn + column - 1 : 0)
        let where_ = firstColumn > 0 ? "" : " (column \(column) of the predicate)"
        return .error("invalid predicate: \(message)\(where_)", at: location)
    }
}
