/// The name a value transformer is registered under (a model's `valueTransformerName`).
/// Foundation's `NSValueTransformerName`.
public struct ValueTransformerName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral rawValue: String) { self.rawValue = rawValue }

    /// `NSSecureUnarchiveFromData`: the transformer Core Data uses for a Transformable attribute
    /// whose model names none.
    public static let secureUnarchiveFromDataTransformerName = ValueTransformerName("NSSecureUnarchiveFromData")
}
