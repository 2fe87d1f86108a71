import DataModel
import Foundation

/// The storage type of each attribute type, defaults read from the model, and conversion of
/// loosely typed values (`setValue(_:forKey:)`, `NSNumber`) to the storage type.
///
/// Storage types: Integer 16/32/64 → `Int16`/`Int32`/`Int64`, Decimal → `Decimal`,
/// Double → `Double`, Float → `Float`, String → `String`, Boolean → `Bool`, Date → `Date`,
/// Binary → `Data`, UUID → `UUID`, URI → `URL`, Object ID → `ManagedObjectID`;
/// Transformable, Composite and Undefined hold whatever value is set.
enum AttributeValues {
    /// The model's default for an attribute as its storage type: `Attribute.parsedDefault`
    /// (the reading the generator's literals use too), in the attribute's width.
    static func defaultValue(of attribute: Attribute) -> (any Sendable)? {
        switch attribute.parsedDefault {
        case nil: return nil
        case .integer(let value):
            switch attribute.type {
            case .integer16: return Int16(exactly: value)
            case .integer32: return Int32(exactly: value)
            default: return value
            }
        case .decimal(let value): return value
        case .double(let value): return attribute.type == .float ? Float(value) : value
        case .boolean(let value): return value
        case .string(let value): return value
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .uuid(let value): return value
        case .uri(let value): return value
        }
    }

    /// `value` converted to the storage type of `type`, or `nil` when it cannot be.
    /// Values of other types stay as they are for Transformable, Composite and Undefined.
    static func coerce(_ value: Any, to type: AttributeType) -> Any? {
        switch type {
        case .integer16: return integerValue(value).flatMap { Int16(exactly: $0) }
        case .integer32: return integerValue(value).flatMap { Int32(exactly: $0) }
        case .integer64: return integerValue(value)
        case .decimal:
            if let decimal = value as? Decimal { return decimal }
            if let integer = integerValue(value) { return Decimal(integer) }
            return doubleValue(value).map { Decimal($0) }
        case .double: return doubleValue(value)
        case .float: return doubleValue(value).map { Float($0) }
        case .boolean:
            if let flag = value as? Bool { return flag }
            return integerValue(value).map { $0 != 0 }
        case .string: return value as? String ?? (value as? NSString).map(String.init)
        case .date: return value as? Date
        case .binary: return value as? Data
        case .uuid: return value as? UUID ?? (value as? String).flatMap(UUID.init(uuidString:))
        case .uri: return value as? URL ?? (value as? String).flatMap(URL.init(string:))
        case .objectID: return value as? ManagedObjectID
        case .transformable, .composite, .undefined: return value
        }
    }

    /// The exact storage type of `type`; `Any.self` for the types that hold whatever is set.
    static func storageType(of type: AttributeType) -> Any.Type {
        switch type {
        case .integer16: Int16.self
        case .integer32: Int32.self
        case .integer64: Int64.self
        case .decimal: Decimal.self
        case .double: Double.self
        case .float: Float.self
        case .string: String.self
        case .boolean: Bool.self
        case .date: Date.self
        case .binary: Data.self
        case .uuid: UUID.self
        case .uri: URL.self
        case .objectID: ManagedObjectID.self
        case .transformable, .composite, .undefined: Any.self
        }
    }

    /// Whether `value` already has the storage type of `type`.
    static func hasStorageType(_ value: Any, _ type: AttributeType) -> Bool {
        // A value stored as exactly the storage type (every value the typed accessors set) is
        // a metadata comparison; `is` from `Any` is a dynamic cast, paid for each value of
        // every saved object, and only the other values need it.
        let storage = storageType(of: type)
        if Swift.type(of: value) == storage || storage == Any.self { return true }
        func holds<Stored>(_: Stored.Type) -> Bool { value is Stored }
        return _openExistential(storage, do: holds)
    }

    /// A whole number held by any numeric type (`Bool` counts as 0 or 1).
    static func integerValue(_ value: Any) -> Int64? {
        ScalarValue.from(value)?.wholeNumber
    }

    /// Any numeric value as a `Double` (`Bool` counts as 0 or 1).
    static func doubleValue(_ value: Any) -> Double? {
        guard let scalar = ScalarValue.from(value), scalar.isNumber else { return nil }
        return scalar.doubleValue
    }
}
