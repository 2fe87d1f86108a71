import Foundation

/// What one context's save asks a store to do, all or nothing.
public struct StoreChangeSet: Sendable {
    /// New objects, with permanent IDs already obtained from the store, at version 1.
    public var inserted: [StoredObject] = []
    /// Changed objects: `version` is the one the context read; the store checks that it is
    /// still current and stores the values at `version + 1`.
    public var updated: [StoredObject] = []
    /// Deleted objects with the version the context read.
    public var deleted: [(objectID: ManagedObjectID, version: Int)] = []
    /// The saving context's `transactionAuthor` and `name`, which persistent history records.
    public var transactionAuthor: String?
    public var contextName: String?
    /// For a store that records persistent history (``PersistentStore/recordsPersistentHistory``):
    /// the property indexes each updated object changed since it was read, by object; `nil`
    /// when the saving context did not say (history then does not name them).
    public var updatedPropertyIndexes: [ManagedObjectID: [Int]]?

    public init() {}

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
