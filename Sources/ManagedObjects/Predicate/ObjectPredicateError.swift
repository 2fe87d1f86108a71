import Foundation

/// A format string that cannot become a predicate: a syntax error (with its column) or
/// arguments that do not fit the format.
public struct ObjectPredicateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The format string.
    public var format: String
    public var message: String
    /// The 1-based column of a syntax error in `format`; `nil` for other errors.
    public var column: Int?

    public init(format: String, message: String, column: Int?) {
        self.format = format
        self.message = message
        self.column = column
    }

    public var description: String {
        let position = column.map { " at column \($0)" } ?? ""
        return "invalid predicate \"\(format)\"\(position): \(message)"
    }
}
