import Foundation
import GRDB
import ManagedObjects
import PostgresNIO

/// Batch delete in the store, as the SQLite store does it (`SQLiteStore+Batch.swift`): the
/// matching rows go, the delete rules apply in SQL (cascade deletes, nullify clears the related
/// rows' keys and increases their `Z_OPT`, deny throws 1600, an emptied mandatory to-one of an
/// object that stays throws 134030), join-table rows go, all in one transaction.
extension PostgreSQLStore {
    public func batchDelete(_ request: StoreBatchDelete) throws -> StoreBatchOutcome {
        try refuseWritesToPinnedView()
        var targets: [ManagedObjectID]
        if let objectIDs = request.objectIDs {
            // Only those still stored, with the entity their row has.
            targets = try objectIDs.compactMap { try snapshot(for: $0)?.objectID }
        } else {
            let matching = StoreRequest(
                entity: request.entity, includesSubentities: request.includesSubentities, predicate: request.predicate, resultType: .objectIDs)
            guard case .objectIDs(let ids) = try execute(matching) else { return StoreBatchOutcome(count: 0, objectIDs: nil) }
            targets = ids
        }
        do {
            return try pool.inRetriedTransaction { connection in try delete(targets, request: request, connection: connection) }
        } catch let error as ManagedObjectError {
            throw error
        } catch {
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot batch delete in the PostgreSQL database \(pool.location): \(pool.describe(error))",
                entityName: request.entity.name, underlying: error)
        }
    }

    /// Deletes the objects and what their delete rules reach; the rows the rules delete too are
    /// counted and listed, related rows nullified are listed as updated. With persistent history,
    /// records them as one transaction: deletions with their tombstones, the nullified objects as
    /// updates of their inverse relationships.
    private func delete(_ targets: [ManagedObjectID], request: StoreBatchDelete, connection: PostgresConnection) throws -> StoreBatchOutcome {
        let targetSet = Set(targets)
        var deleted: [ManagedObjectID] = []
        var deletedSet = Set<ManagedObjectID>()
        var updated = Set<ManagedObjectID>()
        var emptiedMandatory: [(objectID: ManagedObjectID, error: ManagedObjectError)] = []
        var tombstones: [ManagedObjectID: [DatabaseValue]] = [:]
        var nullified: [ManagedObjectID: [Int]] = [:]
        var pending = targets
        while !pending.isEmpty {
            // One round per entity of what is pending: each statement covers all its keys.
            let round = Dictionary(grouping: pending.filter { !deletedSet.contains($0) }, by: { ObjectIdentifier($0.entity) })
            pending = []
            for ids in round.values {
                let unique = Array(Set(ids))
                guard let entity = unique.first?.entity else { continue }
                deleted += unique
                deletedSet.formUnion(unique)
                let table = schema.table(of: entity).name
                let keys = unique.compactMap(\.storeNumber)
                for relationship in entity.relationships where !relationship.isTransient {
                    let storage = schema.storage[entity.name]?[relationship.index]
                    let related = try relatedRows(of: relationship, storage: storage, table: table, keys: keys, connection: connection)
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
                            _ = try pool.query(
                                "UPDATE \(schema.table(of: destination).name) SET \(set.joined(separator: ", ")) WHERE \(column) = ANY(?)",
                                bindings: Self.keyArray(keys), on: connection)
                            if !inverse.isOptional {
                                emptiedMandatory += related.map { ($0, StoreBatchDelete.mandatoryInverseError(relationship, inverse: inverse)) }
                            }
                        }
                        updated.formUnion(related)
                        if recordsHistory { for id in related { nullified[id, default: []].append(inverse.index) } }
                    case .noAction:
                        break
                    }
                    if case .toManyByJoin(let join, let side)? = storage {
                        _ = try pool.query(
                            "DELETE FROM \(join.name) WHERE \(join.column(side)) = ANY(?)", bindings: Self.keyArray(keys), on: connection)
                    }
                }
                tombstones.merge(try historyTombstones(of: unique, connection: connection)) { first, _ in first }
                _ = try pool.query("DELETE FROM \(table) WHERE Z_PK = ANY(?)", bindings: Self.keyArray(keys), on: connection)
            }
        }
        // A mandatory to-one emptied is an error only for an object that stays.
        if let failure = emptiedMandatory.first(where: { !deletedSet.contains($0.objectID) }) { throw failure.error }
        let relatedUpdated = Array(updated.subtracting(deletedSet))
        if recordsHistory && !deleted.isEmpty {
            let columns = historyRows.columns
            let records = deleted.map { PersistentHistoryRows.Record(type: .delete, objectID: $0, tombstone: tombstones[$0] ?? []) }
                + relatedUpdated.map { id in
                    PersistentHistoryRows.Record(type: .update, objectID: id, columns: columns.bitmap(of: nullified[id] ?? [], in: id.entity))
                }
            try recordHistory(records, author: request.transactionAuthor, contextName: request.contextName, connection: connection)
        }
        try pool.waitForAll(notifications(inserted: [], updated: relatedUpdated, deleted: deleted, connection: connection))
        return StoreBatchOutcome(count: deleted.count, objectIDs: deleted, relatedUpdatedObjectIDs: relatedUpdated)
    }

    /// Keys as one array parameter (`= ANY(?)`), however many there are.
    private static func keyArray(_ keys: [Int64]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(keys)
        return bindings
    }

    /// The objects related through `relationship` to the rows of `table` with these keys.
    private func relatedRows(
        of relationship: RelationshipDescription, storage: CoreDataSchema.Storage?, table: String, keys: [Int64], connection: PostgresConnection
    ) throws -> [ManagedObjectID] {
        guard let destination = relationship.destinationEntity else { return [] }
        let destinationTable = schema.table(of: destination).name
        let sql: String
        switch storage {
        case .toOne(let column, _)?:
            sql = "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(column) FROM \(table) WHERE Z_PK = ANY(?))"
        case .toManyByInverse(let inverseTable, let foreignKey, _)?:
            sql = "SELECT Z_PK, Z_ENT FROM \(inverseTable) WHERE \(foreignKey) = ANY(?)"
        case .toManyByJoin(let join, let side)?:
            sql = "SELECT Z_PK, Z_ENT FROM \(destinationTable) WHERE Z_PK IN (SELECT \(join.otherColumn(side)) FROM \(join.name) WHERE \(join.column(side)) = ANY(?))"
        default:
            return []
        }
        return try pool.query(sql, bindings: Self.keyArray(keys), on: connection).compactMap { row in
            guard let (key, entityNumber) = try? row.decode((Int64, Int64).self),
                  let entity = schema.entitiesByNumber[entityNumber] else { return nil }
            return permanentID(entity: entity, number: key)
        }
    }
}
