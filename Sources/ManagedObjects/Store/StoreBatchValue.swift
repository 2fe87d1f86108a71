import Foundation

/// A new value of a batch update: a constant (of the attribute's storage type) or an
/// expression evaluated for each object (`ObjectExpression("count + 1")`).
public enum StoreBatchValue: @unchecked Sendable {
    // Unchecked: constants are attribute values of their storage types (see `StoredValue`).
    case constant(Any?)
    case expression(ObjectExpression)
}

extension StoreBatchValue {
    /// The new value for one object: the constant, or the expression's value for the object
    /// (`subject`) in the attribute's storage type (1550 naming object and attribute when it
    /// cannot be).
    package func value(for attribute: AttributeDescription, of object: StoredObject, subject: @autoclosure () -> SnapshotSubject) throws -> Any? {
        switch self {
        case .constant(let constant):
            return constant
        case .expression(let expression):
            guard let result = PredicateValues.normalized(expression.value(with: subject())) else { return nil }
            if AttributeValues.hasStorageType(result, attribute.type) { return result }
            guard let converted = AttributeValues.coerce(result, to: attribute.type) else {
                throw ManagedObjectError(
                    .validation, "batch update: \(expression) gives a \(type(of: result)), which \(attribute.name) (\(attribute.type.rawValue)) cannot hold",
                    entityName: object.objectID.entity.name, objectID: object.objectID, key: attribute.name, value: "\(result)")
            }
            return converted
        }
    }
}
