import DataModel
import Foundation
import GRDB

/// Batch requests in SQL, each one write transaction (all or nothing): a batch insert is one
/// prepared INSERT run per row, with its keys reserved from `Z_PRIMARYKEY.Z_MAX` in the same
/// transaction; a batch update is one `UPDATE … WHERE <predicate>` (`Z_OPT` increased) when the
/// predicate translates to SQL and the values are constants; a batch delete is one
/// `DELETE … WHERE <predicate>` when the deleted objects' relationships need nothing done.
/// Otherwise the rows are read in the transaction, the rest of the predicate and the
/// expressions are evaluated in memory, and the statements run per key set.
extension SQLiteStore {
    public func batchInsert(_ request: StoreBatchInsert) throws -> StoreBatchOutcome {
        let entity = request.entity
        guard let storage = schema.storage[entity.name], let entityNumber = schema.entityNumbers[entity.name],
              schema.entityNumbers[entity.rootEntity.name] != nil else {
            throw ManagedObjectError(.invalidFetchRequest, "batch insert: the store has no table for \(entity.name)", entityName: entity.name)
        }
        guard request.rowCount > 0 else { return StoreBatchOutcome(count: 0, objectIDs: request.returnsObjectIDs ? [] : nil) }
        var columns: [(position: Int, name: String, type: AttributeType, attribute: AttributeDescription)] = []
        for (position, attribute) in request.attributes.enumerated() {
            guard case .attribute(let column, let type) = storage[attribute.index] else { continue }
            columns.append((position, column, type, attribute))
        }
        let table = schema.table(of: entity).name
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.name)
        var sql = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
        let upserting = request.updatesObjectsOnConstraintConflict && schema.uniqueIndexes.contains { $0.table == table }
        if upserting {
            // Any uniqueness violation updates the row that has the values (its key stays).
            sql += " ON CONFLICT DO UPDATE SET \((columns.map { "\($0.name) = excluded.\($0.name)" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", "))"
        }
        // Persistent history needs the rows' keys, as returning IDs does.
        let returning = upserting || request.returnsObjectIDs || recordsHistory
        if returning { sql += " RETURNING Z_PK" }
        // Binary attributes that allow external storage get Core Data's cells (a row an upsert
        // replaces leaves its file behind, unnamed).
        let external = ExternalBinaryDataSave(externalData)
        let externalColumns = Set(columns.indices.filter { columns[$0].type == .binary && columns[$0].attribute.attribute.allowsExternalBinaryDataStorage })
        return try external.run { try pool.write { db in
            let first = try reserveKeys(request.rowCount, for: request.entity, db: db).lowerBound
            let statement = try db.makeStatement(sql: sql)
            // The rows are bound straight to GRDB's statement with SQLite's C API: building a
            // `StatementArguments` per row costs more than SQLite's insert of the row.
            statement.setUncheckedArguments(StatementArguments())
            let binder = RowBinder(statement.sqliteStatement)
            var keys: [Int64] = []
            if returning { keys.reserveCapacity(request.rowCount) }
            for row in 0..<request.rowCount {
                binder.start()
                binder.bind(.integer(first + Int64(row)), at: 1)
                binder.bind(.integer(entityNumber), at: 2)
                binder.bind(.integer(1), at: 3)
                for (index, column) in columns.enumerated() {
                    if externalColumns.contains(index) {
                        binder.bind(try external.cell(forBatchValue: request.value(row: row, column: column.position), attribute: column.attribute, objectID: nil),
                                    at: Int32(4 + index))
                        continue
                    }
                    let value = try request.value(row: row, column: column.position).map {
                        try CoreDataValues.cell(of: $0, property: column.attribute, type: column.type, objectID: nil)
                    }
                    binder.bind(value ?? .null, at: Int32(4 + index))
                }
                do {
                    if returning {
                        if let key = try Int64.fetchOne(statement) { keys.append(key) }
                    } else {
                        try statement.execute()
                    }
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    throw constraintConflict(error, entity: entity, objectID: nil, detail: "batch insert, row \(row + 1): ")
                }
            }
            guard returning else { return StoreBatchOutcome(count: request.rowCount, objectIDs: nil) }
            // Upserted rows keep their own entity (a sibling may hold the constrained values).
            let ids = try storedObjectIDs(forKeys: keys, in: entity, knownEntity: upserting ? nil : entity, db: db)
            if recordsHistory {
                // A key below the ones reserved is a row an upsert updated.
                let written = columns.map(\.attribute.index)
                try recordHistory(
                    ids.map { id in
                        (id.storeNumber ?? first) >= first ? HistoryRecord(type: .insert, objectID: id)
                            : HistoryRecord(type: .update, objectID: id, columns: historyColumns.bitmap(of: written, in: id.entity))
                    },
                    author: request.transactionAuthor, contextName: request.contextName, db: db)
            }
            return StoreBatchOutcome(count: ids.count, objectIDs: upserting || request.returnsObjectIDs ? ids : nil)
        } }
    }

    public func batchUpdate(_ request: StoreBatchUpdate) throws -> StoreBatchOutcome {
        let entity = request.entity
        let table = schema.table(of: entity).name
        var assignments: [(column: String, type: AttributeType, attribute: AttributeDescription, value: StoreBatchValue)] = []
        for (attribute, value) in request.values {
            guard case .attribute(let column, let type)? = schema.storage[entity.name]?[attribute.index] else { continue }
            assignments.append((column, type, attribute, value))
        }
        let plan = fetchPlan(for: request.matching)
        let constants = assignments.allSatisfy { if case .constant = $0.value { true } else { false } }
        // Binary attributes that allow external storage: row by row, each row its own cell (and
        // file), the files of the cells replaced removed once the update commits.
        let external = ExternalBinaryDataSave(externalData)
        let externalAssignments = Set(assignments.indices.filter {
            assignments[$0].type == .binary && assignments[$0].attribute.attribute.allowsExternalBinaryDataStorage
        })
        let written = assignments.map(\.attribute.index)
        /// Records the updated objects in persistent history, when the store keeps it.
        func record(_ ids: [ManagedObjectID], db: Database) throws {
            guard recordsHistory else { return }
            try recordHistory(
                ids.map { HistoryRecord(type: .update, objectID: $0, columns: historyColumns.bitmap(of: written, in: $0.entity)) },
                author: request.transactionAuthor, contextName: request.contextName, db: db)
        }
        return try external.run { try pool.write { db in
            do {
                if plan.rest.predicate == nil, constants, externalAssignments.isEmpty {
                    // One statement: the store's own WHERE, every value a bound parameter.
                    var arguments: [SQLValue] = []
                    var set = ["Z_OPT = Z_OPT + 1"]
                    for assignment in assignments {
                        guard case .constant(let value) = assignment.value else { continue }
                        set.append("\(assignment.column) = ?")
                        arguments.append(try value.map {
                            try CoreDataValues.cell(of: $0, property: assignment.attribute, type: assignment.type, objectID: nil)
                        } ?? .null)
                    }
                    let sql = "UPDATE \(plan.table) AS \(SQLPredicateTranslator.tableAlias) SET \(set.joined(separator: ", "))\(plan.conditions)"
                    if request.returnsObjectIDs || recordsHistory {
                        let rows = try Row.fetchAll(db, sql: sql + " RETURNING Z_PK, Z_ENT", arguments: StatementArguments(arguments + plan.arguments))
                        let ids = rows.compactMap(storedID)
                        try record(ids, db: db)
                        return StoreBatchOutcome(count: ids.count, objectIDs: request.returnsObjectIDs ? ids : nil)
                    }
                    try db.execute(sql: sql, arguments: StatementArguments(arguments + plan.arguments))
                    return StoreBatchOutcome(count: db.changesCount, objectIDs: nil)
                }
                // Row by row: the predicate or an expression is evaluated in memory.
                let graph = graph(in: db)
                var probe: SnapshotSubject?
                let set = (["Z_OPT = Z_OPT + 1"] + assignments.map { "\($0.column) = ?" }).joined(separator: ", ")
                let statement = try db.makeStatement(sql: "UPDATE \(table) SET \(set) WHERE Z_PK = ?")
                var ids: [ManagedObjectID] = []
                for object in try matchingRows(plan, db: db, graph: graph) {
                    var arguments: [(any DatabaseValueConvertible)?] = []
                    if !externalAssignments.isEmpty, let layout = engine.layout(of: object.objectID.entity) {
                        try external.readPreviousCells(of: CollectionOfOne(object.objectID), layout: layout, db: db)
                    }
                    for (position, assignment) in assignments.enumerated() {
                        let value = try assignment.value.value(
                            for: assignment.attribute, of: object, subject: SnapshotSubject.point(&probe, at: object, graph: graph))
                        if externalAssignments.contains(position) {
                            arguments.append(try external.cell(forBatchValue: value, attribute: assignment.attribute, objectID: object.objectID))
                            continue
                        }
                        arguments.append(try value.map {
                            try CoreDataValues.cell(
                                of: $0, property: assignment.attribute, type: assignment.type, objectID: object.objectID)
                        } ?? .null)
                    }
                    arguments.append(object.objectID.storeNumber.databaseValue)
                    try statement.execute(arguments: StatementArguments(arguments))
                    ids.append(object.objectID)
                }
                try record(ids, db: db)
                return StoreBatchOutcome(count: ids.count, objectIDs: ids)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw constraintConflict(error, entity: entity, objectID: nil, detail: "batch update: ")
            }
        } }
    }

    public func batchDelete(_ request: StoreBatchDelete) throws -> StoreBatchOutcome {
        let plan = fetchPlan(for: request.matching)
        let hasConsequences = request.matching.entities.contains { entity in
            entity.relationships.contains { engine.relationshipNeedsWork($0, of: entity) }
        }
        // Rows with external binary data: deleted by key, their files removed once the delete
        // commits.
        let external = ExternalBinaryDataSave(externalData)
        let hasExternalData = request.matching.entities.contains { !(engine.layout(of: $0)?.externalBinaryColumns.isEmpty ?? true) }
        return try external.run { try pool.write { db in
            let alias = SQLPredicateTranslator.tableAlias
            // Persistent history names each deleted object (and keeps its tombstone): by key.
            if request.objectIDs == nil, plan.rest.predicate == nil, !hasConsequences, !hasExternalData, !recordsHistory {
                // One statement.
                let sql = "DELETE FROM \(plan.table) AS \(alias)\(plan.conditions)"
                if request.returnsObjectIDs {
                    let ids = try Row.fetchAll(db, sql: sql + " RETURNING Z_PK, Z_ENT", arguments: StatementArguments(plan.arguments))
                        .compactMap(storedID)
                    return StoreBatchOutcome(count: ids.count, objectIDs: ids)
                }
                try db.execute(sql: sql, arguments: StatementArguments(plan.arguments))
                return StoreBatchOutcome(count: db.changesCount, objectIDs: nil)
            }
            var targets: [ManagedObjectID]
            if let objectIDs = request.objectIDs {
                // Only those still stored, with the entity their row has.
                targets = try storedObjectIDs(
                    forKeys: objectIDs.compactMap(\.storeNumber), in: request.entity, knownEntity: nil, db: db)
            } else if plan.rest.predicate == nil {
                targets = try Row.fetchAll(db, sql: "SELECT \(alias).Z_PK, \(alias).Z_ENT FROM \(plan.table) AS \(alias)\(plan.conditions)", arguments: StatementArguments(plan.arguments))
                    .compactMap(storedID)
            } else {
                targets = try matchingRows(plan, db: db, graph: graph(in: db)).map(\.objectID)
            }
            return try delete(targets, db: db, external: external, request: request)
        } }
    }

    // MARK: Helpers

    /// The rows `plan` reads, narrowed in memory by what is left of its predicate.
    private func matchingRows(_ plan: FetchPlan, db: Database, graph: SnapshotSubject.Graph) throws -> [StoredObject] {
        let rows = try storedObjects(plan.statement, arguments: StatementArguments(plan.arguments), db: db)
        var rest = plan.rest
        rest.resultType = .snapshots
        guard case .snapshots(let matching) = try rest.evaluate(over: rows, graph: graph) else { return [] }
        return matching
    }

    /// The IDs of the stored rows with these keys in `entity`'s table, in key order; the entity
    /// read from `Z_ENT` unless known.
    private func storedObjectIDs(forKeys keys: [Int64], in entity: EntityDescription, knownEntity: EntityDescription?, db: Database) throws -> [ManagedObjectID] {
        if let knownEntity { return keys.map { permanentID(entity: knownEntity, number: $0) } }
        let table = schema.table(of: entity).name
        var idsByKey: [Int64: ManagedObjectID] = [:]
        let sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(SQLDialect.sqlite.isOneOfKeys("Z_PK"))"
        for row in try Row.fetchAll(db, sql: sql, arguments: [SQLDialect.sqlite.keySet(keys)]) {
            if let id = storedID(row), let key = id.storeNumber { idsByKey[key] = id }
        }
        return keys.compactMap { idsByKey[$0] }
    }

    /// Deletes the objects and what their delete rules reach (``RelationalStoreEngine/batchDelete(_:on:beforeDeletingRows:)``),
    /// and returns the outcome: the rows the rules delete too are counted and listed; related
    /// rows nullified have their `Z_OPT` increased and are listed as updated. With persistent
    /// history, records them as one transaction: deletions with their tombstones, nullified
    /// objects as updates of the inverse relationship.
    private func delete(_ targets: [ManagedObjectID], db: Database, external: ExternalBinaryDataSave, request: StoreBatchDelete) throws -> StoreBatchOutcome {
        let executor = SQLiteExecutor(db: db)
        var tombstones: [ManagedObjectID: [SQLValue]] = [:]
        let deletion = try engine.batchDelete(targets, on: executor) { objectIDs, entity in
            if let layout = engine.layout(of: entity), !layout.externalBinaryColumns.isEmpty {
                try external.readPreviousCells(of: objectIDs, layout: layout, db: db)
                for objectID in objectIDs { external.releaseAll(of: objectID) }
            }
            if recordsHistory {
                tombstones.merge(try engine.historyTombstones(of: objectIDs, rows: historyRows, on: executor)) { first, _ in first }
            }
        }
        if recordsHistory {
            try recordHistory(
                deletion.historyRecords(tombstones: tombstones, columns: historyColumns),
                author: request.transactionAuthor, contextName: request.contextName, db: db)
        }
        return StoreBatchOutcome(count: deletion.deleted.count, objectIDs: deletion.deleted, relatedUpdatedObjectIDs: deletion.relatedUpdated)
    }
}
