import Foundation

/// Core Data's `NSBatchDeleteRequestResultType`.
public enum BatchDeleteRequestResultType: Sendable, Hashable {
    /// `result` is `true` once the objects are deleted.
    case resultTypeStatusOnly
    /// `result` is the deleted objects' IDs (`[ManagedObjectID]`).
    case resultTypeObjectIDs
    /// `result` is how many objects were deleted (`Int`).
    case resultTypeCount
}
