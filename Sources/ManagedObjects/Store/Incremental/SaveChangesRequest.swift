import Foundation

/// The changes of one save as a store that an app writes receives them
/// (``IncrementalStore/execute(_:with:)``): Core Data's `NSSaveChangesRequest`.
///
/// The objects are registered in a context of the store's coordinator, with their permanent IDs
/// (``IncrementalStore/obtainPermanentIDs(for:)`` gave them before the save) and the values
/// being saved: inserted and updated objects are loaded, deleted ones are faults that read
/// their last saved values from the store when used. Related objects come from the same
/// context, so `referenceObject(for: object.objectID)` names what a store keeps.
public final class SaveChangesRequest: PersistentStoreRequest {
    public let insertedObjects: Set<ManagedObject>?
    public let updatedObjects: Set<ManagedObject>?
    public let deletedObjects: Set<ManagedObject>?
    /// Objects a save checks without changing (Core Data's optimistic locking); the runtime's
    /// contexts name none, so this is `nil` in the requests they make.
    public let lockedObjects: Set<ManagedObject>?

    public init(
        inserted insertedObjects: Set<ManagedObject>?, updated updatedObjects: Set<ManagedObject>?,
        deleted deletedObjects: Set<ManagedObject>?, locked lockedObjects: Set<ManagedObject>?
    ) {
        self.insertedObjects = insertedObjects
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.lockedObjects = lockedObjects
    }
}
