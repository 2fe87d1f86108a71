import DataModel
import Foundation

/// The batch-delete walk of every SQL store: the matching rows go and the delete rules apply in
/// SQL, a round of statements per entity covering all its keys (cascade deletes, nullify clears
/// the related rows' keys and increases their `Z_OPT`, deny throws 1600, an emptied mandatory
/// to-one of an object that stays throws), and the deleted rows' join-table rows go.
extension RelationalStoreEngine {
    /// What a batch delete did.
    package struct BatchDeletion {
        /// The objects deleted, those the request named or matched and those the rules reached.
        package var deleted: [ManagedObjectID] = []
        /// The related objects that stay and whose inverse relationship was cleared, in key order.
        package var relatedUpdated: [ManagedObjectID] = []
        /// Of each of `relatedUpdated`, the property indexes cleared.
        package var nullified: [ManagedObjectID: [Int]] = [:]

        /// The persistent history of the deletion, as one transaction: deletions with their
        /// tombstones, the nullified objects as updates of their inverse relationships.
        package func historyRecords(
            tombstones: [ManagedObjectID: [SQLValue]], columns: PersistentHistoryColumns
        ) -> [PersistentHistoryRows.Record] {
            deleted.map { PersistentHistoryRows.Record(type: .delete, objectID: $0, tombstone: tombstones[$0] ?? []) }
                + relatedUpdated.map { id in
                    PersistentHistoryRows.Record(type: .update, objectID: id, columns: columns.bitmap(of: nullified[id] ?? [], in: id.entity))
                }
        }
    }

    /// Whether deleting an object of `entity` needs more than removing its row for this
    /// relationship: join-table rows to remove, related objects to delete, check or change.
    /// No-action relationships and nullify ones without inverse (outside a join table) need
    /// nothing: the walk reads no related rows for them.
    package func relationshipNeedsWork(_ relationship: RelationshipDescription, of entity: EntityDescription) -> Bool {
        guard !relationship.isTransient else { return false }
        if case .toManyByJoin? = schema.storage[entity.name]?[relationship.index] { return true }
        switch relationship.deleteRule {
        case .cascade, .deny: return true
        case .nullify: return relationship.inverseRelationship != nil
        case .noAction: return false
        }
    }

    /// Deletes the stored objects `targets` and what their delete rules reach through
    /// `executor`, inside the store's transaction. `beforeDeletingRows(objects, entity)` is
    /// called for each round's objects of one entity before their rows go (to read their
    /// tombstones, or the files of their external binary data).
    package func batchDelete(
        _ targets: [ManagedObjectID], on executor: some SQLExecutor,
        beforeDeletingRows: ([ManagedObjectID], EntityDescription) throws -> Void
    ) throws -> BatchDeletion {
        let targetSet = Set(targets)
        var deletion = BatchDeletion()
        var deletedSet = Set<ManagedObjectID>()
        var updated = Set<ManagedObjectID>()
        var emptiedMandatory: [(objectID: ManagedObjectID, error: ManagedObjectError)] = []
        var pending = targets
        while !pending.isEmpty {
            // One round per entity of what is pending: each statement covers all its keys.
            let round = Dictionary(grouping: pending.filter { !deletedSet.contains($0) }, by: { ObjectIdentifier($0.entity) })
            pending = []
            for ids in round.values {
                let unique = Array(Set(ids))
                guard let entity = unique.first?.entity else { continue }
                deletion.deleted += unique
                deletedSet.formUnion(unique)
                let table = schema.table(of: entity).name
                let keys = dialect.keySet(unique.compactMap(\.storeNumber))
                for relationship in entity.relationships where relationshipNeedsWork(relationship, of: entity) {
                    let storage = schema.storage[entity.name]?[relationship.index]
                    let related = try relatedRows(of: relationship, storage: storage, table: table, keys: keys, on: executor)
                    switch relationship.deleteRule {
                    case .deny:
                        if related.contains(where: { !targetSet.contains($0) }) {
                            throw StoreBatchDelete.denyError(relationship, of: unique[0])
                        }
                    case .cascade:
                        pending += related
                    case .nullify:
                        guard let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity else { break }
                        if case .toOne(let column, let entityColumn)? = schema.storage[destination.name]?[inverse.index] {
                            // The related rows hold this object's key: clear it.
                            let set = ([column] + (entityColumn.map { [$0] } ?? [])).map { "\($0) = NULL" } + ["Z_OPT = Z_OPT + 1"]
                            try executor.execute(
                                "UPDATE \(schema.table(of: destination).name) SET \(set.joined(separator: ", ")) WHERE \(dialect.isOneOfKeys(column))",
                                [keys])
                            if !inverse.isOptional {
                                emptiedMandatory += related.map { ($0, StoreBatchDelete.mandatoryInverseError(relationship, inverse: inverse)) }
                            }
                        }
                        updated.formUnion(related)
                        for id in related { deletion.nullified[id, default: []].append(inverse.index) }
                    case .noAction:
                        break
                    }
                    if case .toManyByJoin(let join, let side)? = storage {
                        try executor.execute("DELETE FROM \(join.name) WHERE \(dialect.isOneOfKeys(join.column(side)))", [keys])
                    }
                }
                try beforeDeletingRows(unique, entity)
                try executor.execute("DELETE FROM \(table) WHERE \(dialect.isOneOfKeys("Z_PK"))", [keys])
            }
        }
        // A mandatory to-one emptied is an error only for an object that stays.
        if let failure = emptiedMandatory.first(where: { !deletedSet.contains($0.objectID) }) { throw failure.error }
        deletion.relatedUpdated = updated.subtracting(deletedSet).sorted { ($0.storeNumber ?? 0) < ($1.storeNumber ?? 0) }
        deletion.nullified = deletion.nullified.filter { !deletedSet.contains($0.key) }
        return deletion
    }

    /// The objects related through `relationship` to the rows of `table` with the keys `keys`
    /// (one parameter, ``SQLDialect/keySet(_:)``).
    private func relatedRows(
        of relationship: RelationshipDescription, storage: CoreDataSchema.Storage?, table: String, keys: SQLValue,
        on executor: some SQLExecutor
    ) throws -> [ManagedObjectID] {
        guard let destination = relationship.destinationEntity else { return [] }
        let destinationTable = schema.table(of: destination).name
        let sql: String
        switch storage {
        case .toOne(let column, _)?:
            sql = "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(column) FROM \(table) WHERE \(dialect.isOneOfKeys("Z_PK")))"
        case .toManyByInverse(let inverseTable, let foreignKey, _)?:
            sql = "SELECT Z_PK, Z_ENT FROM \(inverseTable) WHERE \(dialect.isOneOfKeys(foreignKey))"
        case .toManyByJoin(let join, let side)?:
            sql = "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(join.otherColumn(side)) FROM \(join.name) WHERE \(dialect.isOneOfKeys(join.column(side))))"
        default:
            return []
        }
        return try executor.rows(sql, [keys]).compactMap(objectID(ofRow:))
    }
}
