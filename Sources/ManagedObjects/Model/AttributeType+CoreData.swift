import DataModel

extension AttributeType {
    /// Core Data's `NSAttributeType` raw value of the type, which Core Data also hashes into
    /// an attribute's version hash (`ModelVersionHash`, checked against real stores).
    public var coreDataRawValue: UInt {
        switch self {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .composite: 2100
        }
    }

    /// The type of a Core Data `NSAttributeType` raw value, or `nil` for one no type has.
    public init?(coreDataRawValue: UInt) {
        guard let type = Self.allCases.first(where: { $0.coreDataRawValue == coreDataRawValue }) else { return nil }
        self = type
    }
}
