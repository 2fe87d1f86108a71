import Foundation

/// One object's change in a transaction: Core Data's `NSPersistentHistoryChange`, read from an
/// `ACHANGE` row.
public struct PersistentHistoryChange: Sendable, Hashable {
    /// The change's number in the store (`ACHANGE.Z_PK`).
    public let changeID: Int64
    public let changeType: PersistentHistoryChangeType
    /// The changed object: its entity is `ACHANGE.ZENTITY` (the object's own entity, a
    /// sub-entity's number for an object of a sub-entity), its key `ACHANGE.ZENTITYPK`.
    public let changedObjectID: ManagedObjectID
    /// The number of the transaction the change belongs to (`ACHANGE.ZTRANSACTIONID`).
    public let transactionNumber: Int64
    /// The names of the properties an update changed. Always `nil` here: Core Data keeps them
    /// in `ACHANGE.ZCOLUMNS` in an encoding no real store here shows (their changes are all
    /// inserts, whose `ZCOLUMNS` is NULL); see Docs/RuntimeDifferences.md.
    public let updatedProperties: Set<String>?
    /// The values of attributes that preserve their value in history on deletion. Always `nil`
    /// here (Core Data's tombstone columns are not learnt from a real file).
    public var tombstone: [String: String]? { nil }
}
