import Foundation

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
