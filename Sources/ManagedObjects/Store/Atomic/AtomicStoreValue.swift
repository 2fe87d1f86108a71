import DataModel
import Foundation

/// An attribute value as an atomic store file keeps it: one of five plain kinds, which the
/// binary format writes as property-list values and the XML format as text. The attribute's
/// type (from the model, which the file's version hashes match) says which kind to expect.
enum AtomicStoreValue: Equatable {
    case integer(Int64)
    case boolean(Bool)
    /// Doubles, floats (exactly, through a double) and dates (seconds since 2001-01-01 UTC,
    /// as Core Data's SQLite store keeps them).
    case real(Double)
    /// Strings, decimals (every digit), UUIDs, URIs and object IDs (their URI).
    case text(String)
    /// Binary data, and Transformable values as their value transformer archived them.
    case data(Data)

    enum Kind { case integer, boolean, real, text, data }

    /// The kind an attribute type is kept as; `nil` for the types no store keeps (Composite,
    /// Undefined).
    static func kind(of type: AttributeType) -> Kind? {
        switch type {
        case .integer16, .integer32, .integer64: .integer
        case .boolean: .boolean
        case .double, .float, .date: .real
        case .decimal, .string, .uuid, .uri, .objectID: .text
        case .binary, .transformable: .data
        case .composite, .undefined: nil
        }
    }

    /// The file value of an attribute value of the attribute's storage type (a Transformable
    /// one through its value transformer). Throws a validation error naming attribute and
    /// object for a value of another type.
    init(_ value: Any, attribute: AttributeDescription, objectID: ManagedObjectID) throws {
        let type = attribute.type
        func unexpected() -> ManagedObjectError {
            ManagedObjectError(
                .validation, "an atomic store cannot keep \(Swift.type(of: value)) in the \(type.rawValue) attribute \(attribute.name)",
                entityName: objectID.entity.name, objectID: objectID, key: attribute.name, value: "\(value)")
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let integer = AttributeValues.integerValue(value) else { throw unexpected() }
            self = .integer(integer)
        case .boolean:
            guard let integer = AttributeValues.integerValue(value) else { throw unexpected() }
            self = .boolean(integer != 0)
        case .double, .float:
            guard let double = AttributeValues.doubleValue(value) else { throw unexpected() }
            self = .real(double)
        case .date:
            guard let date = value as? Date else { throw unexpected() }
            self = .real(date.timeIntervalSinceReferenceDate)
        case .decimal:
            guard let decimal = value as? Decimal else { throw unexpected() }
            self = .text(decimal.description)
        case .string:
            guard let string = value as? String else { throw unexpected() }
            self = .text(string)
        case .uuid:
            guard let uuid = value as? UUID else { throw unexpected() }
            self = .text(uuid.uuidString)
        case .uri:
            guard let url = value as? URL else { throw unexpected() }
            self = .text(url.absoluteString)
        case .objectID:
            guard let objectID = value as? ManagedObjectID else { throw unexpected() }
            self = .text(objectID.uriRepresentation.absoluteString)
        case .binary:
            guard let data = value as? Data else { throw unexpected() }
            self = .data(data)
        case .transformable:
            self = .data(try TransformableValues.storedData(value, attribute: attribute, objectID: objectID))
        case .composite, .undefined:
            throw unexpected()
        }
    }

    /// The attribute value (of the storage type) this file value stands for; `nil` when it does
    /// not read as the attribute's type. `resolveObjectID` turns a URI into an object ID.
    func attributeValue(
        for attribute: AttributeDescription, objectID: ManagedObjectID, resolveObjectID: (URL) -> ManagedObjectID?
    ) throws -> Any? {
        switch (attribute.type, self) {
        case (.integer16, .integer(let integer)): return Int16(exactly: integer)
        case (.integer32, .integer(let integer)): return Int32(exactly: integer)
        case (.integer64, .integer(let integer)): return integer
        case (.boolean, .boolean(let flag)): return flag
        case (.double, .real(let double)): return double
        case (.float, .real(let double)): return Float(double)
        case (.date, .real(let seconds)): return Date(timeIntervalSinceReferenceDate: seconds)
        case (.decimal, .text(let text)): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case (.string, .text(let text)): return text
        case (.uuid, .text(let text)): return UUID(uuidString: text)
        case (.uri, .text(let text)): return URL(string: text)
        case (.objectID, .text(let text)): return URL(string: text).flatMap(resolveObjectID)
        case (.binary, .data(let data)): return data
        case (.transformable, .data(let data)): return try TransformableValues.value(of: data, attribute: attribute, objectID: objectID)
        default: return nil
        }
    }
}
