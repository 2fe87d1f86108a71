import Foundation

/// A batch insert as a store receives it: rows of attribute values, written straight to the
/// store without contexts (Core Data's `NSBatchInsertRequest` as a store executes it).
public struct StoreBatchInsert: @unchecked Sendable {
    // Unchecked: values are attribute values of their storage types (see `StoredValue`).
    public var entity: EntityDescription
    /// The stored attributes every row gives a value for, in column order.
    public var attributes: [AttributeDescription]
    /// Row after row, one value per attribute, each of the attribute's storage type (`nil`:
    /// no value): `values[row * attributes.count + column]`.
    public var values: [Any?]
    public var rowCount: Int
    /// What a row whose constrained values another object already has does: `false` fails the
    /// batch (133021, nothing written), as under Core Data's default error merge policy; `true`
    /// updates that object instead (Core Data's upsert under an object-trump merge policy).
    public var updatesObjectsOnConstraintConflict = false
    /// Whether the outcome lists the inserted (or, upserting, updated) objects' IDs.
    public var returnsObjectIDs = false
    /// The running context's `transactionAuthor` and `name`, which persistent history records.
    public var transactionAuthor: String?
    public var contextName: String?

    public init(entity: EntityDescription, attributes: [AttributeDescription], values: [Any?], rowCount: Int) {
        self.entity = entity
        self.attributes = attributes
        self.values = values
        self.rowCount = rowCount
    }

    /// The value of `column` in `row`.
    package func value(row: Int, column: Int) -> Any? {
        values[row * attributes.count + column]
    }
}

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

/// A batch update as a store receives it: new attribute values for every object of the entity
/// the predicate matches (Core Data's `NSBatchUpdateRequest`). Updated rows' versions increase.
public struct StoreBatchUpdate: Sendable {
    public var entity: EntityDescription
    public var includesSubentities = true
    public var predicate: ObjectPredicate?
    public var values: [(attribute: AttributeDescription, value: StoreBatchValue)]
    public var returnsObjectIDs = false
    /// The running context's `transactionAuthor` and `name`, which persistent history records.
    public var transactionAuthor: String?
    public var contextName: String?

    public init(entity: EntityDescription, predicate: ObjectPredicate?, values: [(attribute: AttributeDescription, value: StoreBatchValue)]) {
        self.entity = entity
        self.predicate = predicate
        self.values = values
    }

    /// The objects it updates, as a fetch request describes them.
    var matching: StoreRequest {
        StoreRequest(entity: entity, includesSubentities: includesSubentities, predicate: predicate)
    }
}

/// A batch delete as a store receives it: the objects a predicate matches, or the objects with
/// the given IDs (Core Data's `NSBatchDeleteRequest`). As Core Data does, the store applies the
/// delete rules of the deleted objects' relationships itself: Cascade deletes the related
/// objects too, Nullify removes the deleted objects from the related ones (failing with 134030
/// when that would empty a mandatory to-one), Deny fails (1600) when there are related objects.
public struct StoreBatchDelete: Sendable {
    public var entity: EntityDescription
    public var includesSubentities = true
    public var predicate: ObjectPredicate?
    /// When set, these objects are deleted and `predicate` is not used.
    public var objectIDs: [ManagedObjectID]?
    public var returnsObjectIDs = false
    /// The running context's `transactionAuthor` and `name`, which persistent history records.
    public var transactionAuthor: String?
    public var contextName: String?

    public init(entity: EntityDescription, predicate: ObjectPredicate?) {
        self.entity = entity
        self.predicate = predicate
    }

    public init(objectIDs: [ManagedObjectID], entity: EntityDescription) {
        self.entity = entity
        self.objectIDs = objectIDs
    }

    /// The objects it deletes, as a fetch request describes them (without `objectIDs`).
    var matching: StoreRequest {
        StoreRequest(entity: entity, includesSubentities: includesSubentities, predicate: predicate)
    }
}

/// What a batch request did in a store.
public struct StoreBatchOutcome: Sendable {
    /// How many objects the request inserted, updated or deleted (a batch delete: with those its
    /// Cascade rules deleted).
    public var count: Int
    /// Those objects' IDs, when the request asked for them (`returnsObjectIDs`) or the store
    /// had them anyway.
    public var objectIDs: [ManagedObjectID]?
    /// Objects the request changed beside those: a batch delete's nullified related objects.
    public var relatedUpdatedObjectIDs: [ManagedObjectID] = []

    public init(count: Int, objectIDs: [ManagedObjectID]?, relatedUpdatedObjectIDs: [ManagedObjectID] = []) {
        self.count = count
        self.objectIDs = objectIDs
        self.relatedUpdatedObjectIDs = relatedUpdatedObjectIDs
    }
}

extension ManagedObjectError.Code {
    /// NSPersistentStoreSaveError: a store could not write a change (here: a batch delete whose
    /// Nullify rule would empty a mandatory to-one of a remaining object).
    public static let persistentStoreSave = ManagedObjectError.Code(rawValue: 134030)
}

extension StoreBatchDelete {
    /// The error a Nullify rule throws when the related objects' inverse to-one is mandatory,
    /// in Core Data's words.
    package static func mandatoryInverseError(_ relationship: RelationshipDescription, inverse: RelationshipDescription) -> ManagedObjectError {
        ManagedObjectError(
            .persistentStoreSave,
            "Batch delete failed due to mandatory OTO nullify inverse on \(inverse.entity.name)/\(inverse.name)",
            entityName: inverse.entity.name, key: inverse.name)
    }

    /// The error a Deny rule throws when a deleted object has related objects.
    package static func denyError(_ relationship: RelationshipDescription, of objectID: ManagedObjectID) -> ManagedObjectError {
        ManagedObjectError(
            .relationshipDeniedDelete,
            "batch delete of \(objectID.entity.name) denied: its relationship '\(relationship.name)' (delete rule Deny) is not empty",
            entityName: objectID.entity.name, objectID: objectID, key: relationship.name)
    }
}
