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

extension ValueTransformerName {
    /// The name a ``CodableValueTransformer`` is registered under for the Transformable
    /// attributes whose `customClassName` is `className`: `CodableValueTransformer<className>`.
    public static func codable(className: String) -> ValueTransformerName {
        ValueTransformerName("CodableValueTransformer<\(className)>")
    }

    /// `NSSecureUnarchiveFromDataTransformer`: the default transformer's class name, which
    /// models name too (Xcode's editor offers it); Foundation finds a transformer by its class
    /// name when none is registered under it.
    static let secureUnarchiveFromDataTransformerClassName = ValueTransformerName("NSSecureUnarchiveFromDataTransformer")
}
