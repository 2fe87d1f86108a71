/// What a format argument is expected to hold, from its conversion (`%@`, `%K`, `%d` …).
public enum PredicateArgumentKind: String, Hashable, Sendable, CaseIterable {
    /// `%@`: an object (string, number, date, managed object, collection …).
    case object = "@"
    /// `%K`: a key path, substituted as a key path rather than a value.
    case keyPath = "K"
    /// `%d`, `%i`, `%ld`, `%lld`, `%hd`, `%qi` …
    case signedInteger = "d"
    /// `%u`, `%lu`, `%llu`, `%x`, `%o` …
    case unsignedInteger = "u"
    /// `%f`, `%e`, `%g`, `%lf` …
    case floatingPoint = "f"
    /// `%c`, `%C`.
    case character = "c"
    /// `%s`, `%S`: a C string (pass a Swift `String`).
    case cString = "s"

    /// The specifier the printer writes, `%` included.
    public var specifier: String { "%" + rawValue }
}
