import Foundation

/// Deletes the objects a fetch request matches (or the objects with the given IDs) straight in
/// the store: Core Data's `NSBatchDeleteRequest`.
///
/// The deleted objects' delete rules are applied by the store, as Core Data applies them:
/// Cascade deletes related objects too (they are counted and listed with the others), Nullify
/// removes the deleted objects from related ones (134030 when that would empty a mandatory
/// to-one), Deny throws 1600 when a deleted object has related objects. Validation rules are
/// not checked. The fetch request's entity, predicate and `includesSubentities` are used; a
/// fetch limit or offset throws `invalidFetchRequest`. Object IDs must all be of one entity's
/// table (Core Data: one entity), else the request throws.
public final class BatchDeleteRequest: PersistentStoreRequest {
    public let fetchRequest: FetchRequest<Any>
    /// The IDs given to `init(objectIDs:)`.
    public let objectIDs: [ManagedObjectID]?
    public var resultType: BatchDeleteRequestResultType = .resultTypeStatusOnly

    public init<Result>(fetchRequest: FetchRequest<Result>) {
        let copy = FetchRequest<Any>(
            entityName: fetchRequest.entityName, predicate: fetchRequest.predicate,
            sortDescriptors: fetchRequest.sortDescriptors)
        copy.includesSubentities = fetchRequest.includesSubentities
        copy.fetchLimit = fetchRequest.fetchLimit
        copy.fetchOffset = fetchRequest.fetchOffset
        self.fetchRequest = copy
        self.objectIDs = nil
    }

    public init(objectIDs: [ManagedObjectID]) {
        self.fetchRequest = FetchRequest<Any>(entityName: objectIDs.first?.entity.name ?? "")
        self.objectIDs = objectIDs
    }
}
