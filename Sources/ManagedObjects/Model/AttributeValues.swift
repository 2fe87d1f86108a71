import Foundation

/// The storage type of each attribute type, defaults read from the model, and conversion of
/// loosely typed values (`setValue(_:forKey:)`, `NSNumber`) to the storage type.
///
/// Storage types: Integer 16/32/64 → `Int16`/`Int32`/`Int64`, Decimal → `Decimal`,
/// Double → `Double`, Float → `Float`, String → `String`, Boolean → `Bool`, Date → `Date`,
/// Binary → `Data`, UUID → `UUID`, URI → `URL`, Object ID → `ManagedObjectID`;
/// Transformable, Composite and Undefined hold whatever value is set.
enum AttributeValues {
    /// The model's default for an attribute, parsed as its type. Tolerates what real models
    /// hold: `NO`/`YES` on numbers, `0`/`1` on Booleans; anything unreadable gives no default.
    static func defaultValue(of attribute: Attribute) -> (any Sendable)? {
        if attribute.type == .date {
            if let interval = attribute.defaultDateTimeInterval {
                return Date(timeIntervalSinceReferenceDate: interval)
            }
            return attribute.defaultValueString.flatMap(Double.init).map(Date.init(timeIntervalSinceReferenceDate:))
        }
        guard let text = attribute.defaultValueString else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch attribute.type {
        case .integer16: return integer(trimmed).flatMap { Int16(exactly: $0) }
        case .integer32: return integer(trimmed).flatMap { Int32(exactly: $0) }
        case .integer64: return integer(trimmed)
        case .decimal:
            if let flag = boolean(trimmed) { return Decimal(flag ? 1 : 0) }
            return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        case .double: return floating(trimmed)
        case .float: return floating(trimmed).map { Float($0) }
        case .boolean:
            if let flag = boolean(trimmed) { return flag }
            return floating(trimmed).map { $0 != 0 }
        case .string: return text
        case .uuid: return UUID(uuidString: trimmed)
        case .uri: return trimmed.isEmpty ? nil : URL(string: trimmed)
        case .date, .binary, .transformable, .objectID, .composite, .undefined: return nil
        }
    }

    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": true
        case "no", "false": false
        default: nil
        }
    }

    private static func integer(_ text: String) -> Int64? {
        if let flag = boolean(text) { return flag ? 1 : 0 }
        if let value = Int64(text) { return value }
        // "0.0" on an integer attribute: accept a whole number written as a decimal.
        if let value = Double(text), value.rounded() == value { return Int64(exactly: value) }
        return nil
    }

    private static func floating(_ text: String) -> Double? {
        if let flag = boolean(text) { return flag ? 1 : 0 }
        return Double(text)
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

    /// Whether `value` already has the storage type of `type`.
    static func hasStorageType(_ value: Any, _ type: AttributeType) -> Bool {
        switch type {
        case .integer16: value is Int16
        case .integer32: value is Int32
        case .integer64: value is Int64
        case .decimal: value is Decimal
        case .double: value is Double
        case .float: value is Float
        case .string: value is String
        case .boolean: value is Bool
        case .date: value is Date
        case .binary: value is Data
        case .uuid: value is UUID
        case .uri: value is URL
        case .objectID: value is ManagedObjectID
        case .transformable, .composite, .undefined: true
        }
    }

    /// A whole number held by any numeric type (`Bool` counts as 0 or 1).
    static func integerValue(_ value: Any) -> Int64? {
        switch value {
        case let number as Int: Int64(number)
        case let number as Int8: Int64(number)
        case let number as Int16: Int64(number)
        case let number as Int32: Int64(number)
        case let number as Int64: number
        case let number as UInt: Int64(exactly: number)
        case let number as UInt8: Int64(number)
        case let number as UInt16: Int64(number)
        case let number as UInt32: Int64(number)
        case let number as UInt64: Int64(exactly: number)
        case let flag as Bool: flag ? 1 : 0
        case let number as Double: number.rounded() == number ? Int64(exactly: number) : nil
        case let number as Float: number.rounded() == number ? Int64(exactly: number) : nil
        case let number as Decimal: wholeNumber(NSDecimalNumber(decimal: number))
        case let number as NSNumber: number.int64Value
        default: nil
        }
    }

    private static func wholeNumber(_ number: NSDecimalNumber) -> Int64? {
        number.doubleValue.rounded() == number.doubleValue ? number.int64Value : nil
    }

    /// Any numeric value as a `Double` (`Bool` counts as 0 or 1).
    static func doubleValue(_ value: Any) -> Double? {
        switch value {
        case let number as Double: number
        case let number as Float: Double(number)
        case let number as Decimal: NSDecimalNumber(decimal: number).doubleValue
        case let number as NSNumber: number.doubleValue
        default: integerValue(value).map(Double.init)
        }
    }

    /// Whether two stored values are the same: equal values of the same storage type, or both nil.
    static func isEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (left?, right?):
            if let left = left as? AnyHashable, let right = right as? AnyHashable { return left == right }
            if type(of: left) is AnyClass, type(of: right) is AnyClass { return (left as AnyObject) === (right as AnyObject) }
            return false
        }
    }
}
