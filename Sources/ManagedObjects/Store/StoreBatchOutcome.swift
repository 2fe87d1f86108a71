import Foundation

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
