import Foundation
import OrderedCollections

/// An object another context saved since this one read it. Core Data's `NSMergeConflict`.
/// Snapshots hold attributes and to-ones (as object IDs; `NSNull()` for `nil`), not to-manys,
/// as Core Data's do.
public struct MergeConflict: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: the object and snapshot values are used on the saving context's queue, where
    // the error carrying the conflict is thrown, as in Core Data.
    /// The object this context tried to save.
    public let sourceObject: ManagedObject
    /// The object's values in this context (optional, as Core Data declares it; always given).
    public let objectSnapshot: [String: Any]?
    /// The values this context read (Core Data's coordinator-level cached snapshot).
    public let cachedSnapshot: [String: Any]?
    /// The values in the store now; `nil` when another context deleted the object.
    public let persistedSnapshot: [String: Any]?
    /// The version in the store now (0 when deleted).
    public let newVersionNumber: Int
    /// The version this context read.
    public let oldVersionNumber: Int

    public var description: String {
        "MergeConflict(\(sourceObject.objectID): read version \(oldVersionNumber), store has "
            + (persistedSnapshot == nil ? "deleted it)" : "version \(newVersionNumber))")
    }
}
