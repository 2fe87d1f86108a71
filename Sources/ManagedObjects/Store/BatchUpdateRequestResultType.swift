import Foundation

/// Core Data's `NSBatchUpdateRequestResultType`.
public enum BatchUpdateRequestResultType: Sendable, Hashable {
    /// `result` is `true` once the store is updated.
    case statusOnlyResultType
    /// `result` is the updated objects' IDs (`[ManagedObjectID]`).
    case updatedObjectIDsResultType
    /// `result` is how many objects were updated (`Int`).
    case updatedObjectsCountResultType
}
