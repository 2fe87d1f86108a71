import Foundation

/// Core Data's `NSBatchInsertRequestResultType`.
public enum BatchInsertRequestResultType: Sendable, Hashable {
    /// `result` is `true` once the rows are in the store.
    case statusOnly
    /// `result` is the new objects' IDs (`[ManagedObjectID]`).
    case objectIDs
    /// `result` is how many objects were inserted (`Int`).
    case count
}
