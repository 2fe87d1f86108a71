import Foundation

/// What a fetch returns. Core Data's `NSFetchRequestResultType`.
public enum FetchRequestResultType: Sendable, Hashable {
    /// Objects: `Result` is the entity's class (or `ManagedObject`).
    case managedObject
    /// Object IDs: `Result` is `ManagedObjectID`.
    case managedObjectID
    /// The number of matching objects, as the single element of the result: `Result` is `Int`.
    case count
    /// Dictionaries of `propertiesToFetch` (all attributes and to-ones when `nil`), one per
    /// object or per group of `propertiesToGroupBy`: `Result` is `[String: Any]`. As in Core
    /// Data, the answer is the store's: unsaved changes are not included.
    case dictionary
}
