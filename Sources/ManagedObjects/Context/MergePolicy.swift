import Foundation

/// How a context's save resolves conflicts with the store: Core Data's `NSMergePolicy`
/// (`context.mergePolicy = .mergeByPropertyObjectTrump`). Two kinds of conflict:
///
/// - an object conflict: another context (or process) saved an object since this context read
///   it (its version in the store is no longer the one read);
/// - a constraint conflict: objects saved would share the values of a uniqueness constraint
///   with each other or with a stored object.
public enum MergePolicy: Sendable, Hashable, CustomStringConvertible {
    /// The save fails: 133020 with ``MergeConflict`` values, or 133021 with
    /// ``ConstraintConflict`` values, in the error's `conflictList`. Nothing is written.
    /// Core Data's `NSErrorMergePolicy`, the default.
    case error
    /// Property by property, the store's changes win: a property another context changed takes
    /// the stored value; this context's changes to other properties are saved. In a constraint
    /// conflict the stored object stays as it is and the new duplicates are discarded.
    case mergeByPropertyStoreTrump
    /// Property by property, this context's changes win: they are saved over the stored
    /// values; properties only another context changed keep the stored value. In a constraint
    /// conflict the stored object takes the values of the new duplicate, which is discarded
    /// (an upsert).
    case mergeByPropertyObjectTrump
    /// The whole object as this context has it is saved over the stored one. Constraint
    /// conflicts as with `mergeByPropertyObjectTrump`, every property copied.
    case overwrite
    /// This context's unsaved changes to conflicting objects, deletes included, are discarded:
    /// they take the stored values; the rest of the save goes through. Constraint conflicts as
    /// with `mergeByPropertyStoreTrump`.
    case rollback

    public var description: String {
        switch self {
        case .error: "error"
        case .mergeByPropertyStoreTrump: "mergeByPropertyStoreTrump"
        case .mergeByPropertyObjectTrump: "mergeByPropertyObjectTrump"
        case .overwrite: "overwrite"
        case .rollback: "rollback"
        }
    }

    /// Whether this context's values win a conflict.
    var objectWins: Bool { self == .mergeByPropertyObjectTrump || self == .overwrite }
}
