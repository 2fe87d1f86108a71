/// The attribute types Xcode writes as `attributeType`.
public enum AttributeType: String, Hashable, Sendable, Codable, CaseIterable {
    /// No `attributeType` in the file (Xcode's "Undefined"); legal only on transient attributes.
    case undefined = "Undefined"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "Object ID"
    case composite = "Composite"

    /// The integer, floating-point, decimal and Boolean types: the ones Xcode can store as scalars.
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: true
        default: false
        }
    }
}
