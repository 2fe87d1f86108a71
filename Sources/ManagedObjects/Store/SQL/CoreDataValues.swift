import DataModel
import Foundation

/// Attribute values to and from Core Data's column encodings: numbers and Booleans as
/// INTEGER/FLOAT, Decimal as DECIMAL, dates as TIMESTAMP (seconds since 2001-01-01 UTC), UUIDs as
/// 16-byte BLOBs, URIs and object IDs as their URI text, Transformable values as the BLOB they
/// were archived to.
package enum CoreDataValues {
    /// The column value of an attribute value of the attribute's storage type.
    package static func cell(
        _ value: Any?, type: AttributeType, attribute: @autoclosure () -> String
    ) throws -> SQLValue {
        guard let value else { return .null }
        return try cell(of: value, type: type, attribute: attribute())
    }

    /// The column value of an attribute value (not `nil`) of the attribute's storage type: for
    /// a caller that has unwrapped it already, as a save does for every value of every row (a
    /// second unwrapping here copied each value once more).
    package static func cell(
        of value: Any, type: AttributeType, attribute: @autoclosure () -> String
    ) throws -> SQLValue {
        // A number stored as the attribute's own storage type (every value the typed accessors
        // set) by a metadata comparison, before the conversions any numeric value goes through.
        switch type {
        case .integer64: if let integer = ManagedObject.exactly(value, Int64.self) { return .integer(integer) }
        case .integer32: if let integer = ManagedObject.exactly(value, Int32.self) { return .integer(Int64(integer)) }
        case .integer16: if let integer = ManagedObject.exactly(value, Int16.self) { return .integer(Int64(integer)) }
        case .double: if let double = ManagedObject.exactly(value, Double.self) { return .real(double) }
        default: break
        }
        switch type {
        case .integer16, .integer32, .integer64, .boolean:
            if let integer = AttributeValues.integerValue(value) { return .integer(integer) }
        case .double, .float:
            if let double = AttributeValues.doubleValue(value) { return .real(double) }
        case .decimal:
            // As text: SQLite's NUMERIC affinity keeps it a number when it fits a REAL exactly
            // enough, and the text keeps every digit when it does not.
            if let decimal = value as? Decimal { return .text(decimal.description) }
        case .string:
            // `ManagedObject.cast`: a metadata comparison for a value stored as its type.
            if let string: String = ManagedObject.cast(value) { return .text(string) }
        case .date:
            if let date: Date = ManagedObject.cast(value) { return .real(date.timeIntervalSinceReferenceDate) }
        case .binary:
            if let data = value as? Data { return .blob(data) }
        case .uuid:
            if let uuid = value as? UUID { return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }) }
        case .uri:
            if let url = value as? URL { return .text(url.absoluteString) }
        case .objectID:
            if let objectID = value as? ManagedObjectID { return .text(objectID.uriRepresentation.absoluteString) }
        case .transformable:
            // What the attribute's value transformer produced (`cell(of:property:type:objectID:)`
            // transforms the object's value first).
            if let data = value as? Data { return .blob(data) }
        case .composite, .undefined:
            break
        }
        throw ManagedObjectError(
            .validation, "the SQLite store cannot store \(Swift.type(of: value)) in a \(type.rawValue) attribute",
            key: attribute(), value: "\(value)")
    }

    /// The column value of a property's value (not `nil`): a Transformable attribute's value
    /// through its value transformer, naming attribute and object when that fails.
    package static func cell(
        of value: Any, property: PropertyDescription, type: AttributeType, objectID: ManagedObjectID?
    ) throws -> SQLValue {
        if type == .transformable, case .attribute(let attribute) = property.kind {
            return .blob(try TransformableValues.storedData(value, attribute: attribute, objectID: objectID))
        }
        return try cell(of: value, type: type, attribute: property.name)
    }

    /// The attribute value (of the storage type) a column holds; `nil` for NULL or a value that
    /// does not read as the type.
    package static func attributeValue(_ value: SQLValue, type: AttributeType, resolveObjectID: (URL) -> ManagedObjectID?) -> Any? {
        switch value {
        case .null:
            return nil
        case .integer(let integer):
            return number(Double(integer), integer: integer, type: type)
        case .real(let double):
            return number(double, integer: Int64(exactly: double), type: type)
        case .text(let string):
            switch type {
            case .string: return string
            case .decimal: return Decimal(string: string, locale: Locale(identifier: "en_US_POSIX"))
            case .uri: return URL(string: string)
            case .objectID: return URL(string: string).flatMap(resolveObjectID)
            case .uuid: return UUID(uuidString: string)
            case .date: return Double(string).map(Date.init(timeIntervalSinceReferenceDate:))
            default: return Double(string).flatMap { number($0, integer: Int64(exactly: $0), type: type) }
            }
        case .blob(let data):
            switch type {
            case .uuid:
                guard data.count == 16 else { return nil }
                let bytes = [UInt8](data)
                return UUID(uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            case .string: return String(data: data, encoding: .utf8)
            default: return data
            }
        }
    }

    private static func number(_ double: Double, integer: Int64?, type: AttributeType) -> Any? {
        switch type {
        case .integer16: integer.flatMap { Int16(exactly: $0) }
        case .integer32: integer.flatMap { Int32(exactly: $0) }
        case .integer64: integer
        case .boolean: integer.map { $0 != 0 }
        case .double: double
        case .float: Float(double)
        // Through the shortest text of the double, so 0.1 reads back as 0.1, not 0.1000…0055.
        case .decimal: integer.map { Decimal($0) } ?? Decimal(string: "\(double)", locale: Locale(identifier: "en_US_POSIX"))
        case .date: Date(timeIntervalSinceReferenceDate: double)
        case .string: integer.map { String($0) } ?? String(double)
        default: nil
        }
    }
}
