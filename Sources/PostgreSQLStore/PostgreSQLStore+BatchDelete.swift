import Foundation
import ManagedObjects
import PostgresNIO

/// Batch delete in the store, by the walk the SQLite store's is too
/// (``RelationalStoreEngine/batchDelete(_:on:beforeDeletingRows:)``): the matching rows go, the
/// delete rules apply in SQL (cascade deletes, nullify clears the related rows' keys and
/// increases their `Z_OPT`, deny throws 1600, an emptied mandatory to-one of an object that
/// stays throws 134030), join-table rows go, all in one transaction.
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

    /// Deletes the objects and what their delete rules reach
    /// (``RelationalStoreEngine/batchDelete(_:on:beforeDeletingRows:)``); the rows the rules
    /// delete too are counted and listed, related rows nullified are listed as updated. With
    /// persistent history, records them as one transaction: deletions with their tombstones, the
    /// nullified objects as updates of their inverse relationships.
    private func delete(_ targets: [ManagedObjectID], request: StoreBatchDelete, connection: PostgresConnection) throws -> StoreBatchOutcome {
        var tombstones: [ManagedObjectID: [SQLValue]] = [:]
        let deletion = try engine.batchDelete(targets, on: PostgreSQLExecutor(pool: pool, connection: connection)) { objectIDs, _ in
            tombstones.merge(try historyTombstones(of: objectIDs, connection: connection)) { first, _ in first }
        }
        if recordsHistory && !deletion.deleted.isEmpty {
            try recordHistory(
                deletion.historyRecords(tombstones: tombstones, columns: historyRows.columns),
                author: request.transactionAuthor, contextName: request.contextName, connection: connection)
        }
        try pool.waitForAll(notifications(inserted: [], updated: deletion.relatedUpdated, deleted: deletion.deleted, connection: connection))
        return StoreBatchOutcome(count: deletion.deleted.count, objectIDs: deletion.deleted, relatedUpdatedObjectIDs: deletion.relatedUpdated)
    }
}
