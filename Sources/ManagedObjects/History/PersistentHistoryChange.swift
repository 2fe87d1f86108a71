import Foundation

/// One object's change in a transaction: Core Data's `NSPersistentHistoryChange`, read from an
/// `ACHANGE` row.
public struct PersistentHistoryChange: @unchecked Sendable, Hashable {
    // Unchecked: the tombstone's values are attribute values of their storage types (see
    // `StoredValue`), never mutated.

    /// The change's number in the store (`ACHANGE.Z_PK`).
    public let changeID: Int64
    public let changeType: PersistentHistoryChangeType
    /// The changed object: its entity is `ACHANGE.ZENTITY` (the object's own entity, a
    /// sub-entity's number for an object of a sub-entity), its key `ACHANGE.ZENTITYPK`.
    public let changedObjectID: ManagedObjectID
    /// The number of the transaction the change belongs to (`ACHANGE.ZTRANSACTIONID`).
    public let transactionNumber: Int64
    /// The properties an update changed (`ACHANGE.ZCOLUMNS`, see `PersistentHistoryColumns`);
    /// `nil` for an insert or a delete, and for an update that does not name them.
    public let updatedProperties: Set<PropertyDescription>?
    /// For a delete, the values the deleted object had of its attributes marked
    /// `preservesValueInHistoryOnDeletion`, by attribute name (`ACHANGE.ZTOMBSTONE<n>`); an
    /// attribute without a value is left out. `nil` for an insert or an update, and for a
    /// deleted object whose entity preserves no attribute.
    public var tombstone: [String: Any]? { tombstoneValues?.values }

    let tombstoneValues: Tombstone?

    /// The values of a tombstone, compared by their descriptions (they are attribute values).
    struct Tombstone: Hashable {
        let values: [String: Any]

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.values.keys.sorted() == rhs.values.keys.sorted()
                && lhs.values.allSatisfy { key, value in ValueComparison.equal(value, rhs.values[key] ?? nil) }
        }

        func hash(into hasher: inout Hasher) { hasher.combine(values.keys.sorted()) }
    }

    init(
        changeID: Int64, changeType: PersistentHistoryChangeType, changedObjectID: ManagedObjectID, transactionNumber: Int64,
        updatedProperties: Set<PropertyDescription>? = nil, tombstone: [String: Any]? = nil
    ) {
        self.changeID = changeID
        self.changeType = changeType
        self.changedObjectID = changedObjectID
        self.transactionNumber = transactionNumber
        self.updatedProperties = updatedProperties
        tombstoneValues = tombstone.map(Tombstone.init)
    }

    /// The names of `updatedProperties`.
    public var updatedPropertyNames: Set<String>? { updatedProperties.map { Set($0.map(\.name)) } }

    /// The change as a predicate of a change fetch request reads it (Core Data's key names).
    func keyValues(in transaction: PersistentHistoryTransaction) -> [String: Any] {
        var values: [String: Any] = [
            "changeID": changeID, "changeType": changeType.rawValue, "changedObjectID": changedObjectID,
            "changedEntity": changedObjectID.entity, "transaction": transaction.keyValues,
        ]
        if let names = updatedPropertyNames { values["updatedProperties"] = Array(names) }
        if let tombstone { values["tombstone"] = tombstone }
        return values
    }

    /// A fetch request on history changes: Core Data's `NSPersistentHistoryChange.fetchRequest`.
    /// Give it a predicate on the change's keys (`changeType`, `changedObjectID`,
    /// `changedEntity` (compared with an entity description: `changedEntity == %@`), `changeID`,
    /// `transaction.author`, …) and pass it to
    /// ``PersistentHistoryChangeRequest/fetchHistory(withFetch:)``: the transactions come back
    /// with only their matching changes.
    public static var fetchRequest: FetchRequest<PersistentHistoryChange>? {
        FetchRequest(entityName: PersistentHistoryChangeRequest.changeEntityName)
    }
}
