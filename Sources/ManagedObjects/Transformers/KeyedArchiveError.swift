/// What is wrong with a keyed archive read or written by ``SecureUnarchiveFromDataTransformer``.
public struct KeyedArchiveError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
