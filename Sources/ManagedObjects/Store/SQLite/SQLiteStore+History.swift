import Foundation
import GRDB

extension SQLiteStore {
    // MARK: Reading persistent history

    /// The transactions after `start`, with their changes, read from Core Data's history tables
    /// (``PersistentHistorySchema``); none when the store has no history tables. A token of
    /// another store throws `persistentHistoryTokenExpired` (134301) naming both stores; a row
    /// naming no entity of the store, a change type Core Data does not have, or a `ZCOLUMNS`
    /// naming more properties than the entity has, throws naming the table and row, never traps.
    package func fetchHistory(after start: PersistentHistoryChangeRequest.Start) throws -> [PersistentHistoryTransaction] {
        let rows = historyRows
        let (condition, arguments) = try rows.condition(start, after: true)
        return try readHistory { db in
            guard try PersistentHistorySchema.isPresent(in: db) else { return [] }
            let transactions = try Row.fetchAll(
                db, sql: PersistentHistoryRows.transactionsQuery(where: condition), arguments: StatementArguments(arguments))
            guard let first = transactions.first, let firstNumber = first[0] as Int64? else { return [] }
            let tombstoneColumns = try PersistentHistorySchema.tombstoneColumns(in: db)
            var changesByTransaction: [Int64: [PersistentHistoryChange]] = [:]
            let changes = try Row.fetchCursor(
                db, sql: PersistentHistoryRows.changesQuery(tombstoneColumns: tombstoneColumns), arguments: [firstNumber])
            while let row = try changes.next() {
                let change = try rows.change(row.sqlValue, count: row.count)
                changesByTransaction[change.transactionNumber, default: []].append(change)
            }
            return try transactions.map { row in try rows.transaction(row.sqlValue, changes: changesByTransaction) }
        }
    }

    /// The token of the newest transaction (`nil` without the history tables).
    package func currentHistoryToken() throws -> PersistentHistoryToken? {
        try readHistory { db in
            guard try PersistentHistorySchema.isPresent(in: db) else { return nil }
            let number = try Int64.fetchOne(db, sql: PersistentHistoryRows.currentTransactionQuery) ?? 0
            return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
        }
    }

    /// Reading and writing history rows in this store.
    var historyRows: PersistentHistoryRows {
        PersistentHistoryRows(schema: schema, columns: historyColumns, storeIdentifier: identifier, location: url?.path ?? identifier)
    }

    /// A read of the history tables; SQLite's own errors (a damaged page) name the file.
    private func readHistory<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as DatabaseError {
            throw ManagedObjectError(.sqlite, "cannot read the persistent history of \(url?.path ?? identifier): \(error)", underlying: error)
        }
    }

    // MARK: Deleting persistent history

    /// Removes the transactions before `start` (all of them at `.beginning`; up to and including
    /// a token's transaction; saved before a date) and their changes, in one transaction.
    /// Newer transactions, the names in `ATRANSACTIONSTRING` and the key counters stay.
    package func deleteHistory(before start: PersistentHistoryChangeRequest.Start) throws {
        let (condition, arguments) = try historyRows.condition(start, after: false)
        do {
            try pool.write { db in
                guard try PersistentHistorySchema.isPresent(in: db) else { return }
                for statement in PersistentHistoryRows.deletionStatements(where: condition) {
                    try db.execute(sql: statement, arguments: StatementArguments(arguments))
                }
            }
        } catch let error as DatabaseError {
            throw ManagedObjectError(.sqlite, "cannot delete the persistent history of \(url?.path ?? identifier): \(error)", underlying: error)
        }
    }
}

extension SQLiteStore {
    // MARK: Recording persistent history

    typealias HistoryRecord = PersistentHistoryRows.Record

    /// Records a save in the history tables, in the save's own SQLite transaction: deletions
    /// (with their tombstones, read by ``historyTombstones(of:db:)`` before the rows went),
    /// updates (with the properties the saving context changed), insertions.
    func recordHistory(of changes: StoreChangeSet, tombstones: [ManagedObjectID: [SQLValue]], db: Database) throws {
        // The insertions go by the rows the save has just written (``recordInsertions``), not
        // as records: a record per new object cost more than its row.
        var changed = changes
        changed.inserted = []
        try recordHistory(
            historyRows.records(of: changed, tombstones: tombstones), inserted: changes.inserted,
            author: changes.transactionAuthor, contextName: changes.contextName, db: db)
    }

    /// The values of the preserved attributes (``PersistentHistoryColumns``) of the stored
    /// objects `objectIDs`, as their columns hold them, for the tombstones of their deletion.
    func historyTombstones(of objectIDs: some Sequence<ManagedObjectID>, db: Database) throws -> [ManagedObjectID: [SQLValue]] {
        try engine.historyTombstones(of: objectIDs, rows: historyRows, on: SQLiteExecutor(db: db))
    }

    /// Records one transaction with `records`, then the insertions of `inserted` (rows of this
    /// transaction), as its changes: one `ATRANSACTION` row, one `ACHANGE` row per change, the
    /// names in `ATRANSACTIONSTRING`, and the three entities' `Z_PRIMARYKEY.Z_MAX` raised, as
    /// the real SampleModel2 stores show Core Data doing it: `Z_OPT` NULL in all three tables,
    /// the names only through the `…TS` columns, `ZCOLUMNS` NULL for an insertion. `ZCOLUMNS`
    /// of an update and the tombstone columns of a deletion are inferred (``PersistentHistoryColumns``).
    func recordHistory(
        _ records: [HistoryRecord], inserted: [StoredObject] = [], author: String?, contextName: String?, db: Database
    ) throws {
        let transaction = try reserveKeys(1, table: "ATRANSACTION", entityNumber: 16002, db: db).lowerBound
        let authorKey = try historyString(author, db: db)
        let contextNameKey = try historyString(contextName, db: db)
        let names = PersistentHistoryRows.processNames
        let processID = try historyString(names.process, db: db)
        let bundleID = try historyString(names.bundle, db: db)
        try db.execute(
            sql: PersistentHistoryRows.transactionInsert,
            arguments: [transaction, authorKey, bundleID, contextNameKey, processID, Date().timeIntervalSinceReferenceDate])
        guard !records.isEmpty || !inserted.isEmpty else { return }
        var key = try reserveKeys(records.count + inserted.count, table: "ACHANGE", entityNumber: 16001, db: db).lowerBound
        let rows = historyRows
        try insertChanges(records, from: &key, transaction: transaction, rows: rows, db: db)
        try recordInsertions(of: inserted, from: &key, transaction: transaction, rows: rows, db: db)
    }

    /// The `ACHANGE` rows of the new objects `objects`, numbered from `key` on in their order.
    /// A run of one entity whose keys follow each other, as a save's new objects' do, is copied
    /// from the rows the save has just written, by one `INSERT … SELECT` in SQLite: those keys
    /// are the run's alone, so the key range selects its rows and no other, in the run's order
    /// (a count that differs throws). Any other run goes as records.
    private func recordInsertions(
        of objects: [StoredObject], from key: inout Int64, transaction: Int64, rows: PersistentHistoryRows, db: Database
    ) throws {
        var runStart = objects.startIndex
        while runStart < objects.endIndex {
            let entity = objects[runStart].objectID.entity
            let first = objects[runStart].objectID.storeNumber
            var runEnd = runStart + 1
            var isRange = first != nil
            while runEnd < objects.endIndex, objects[runEnd].objectID.entity === entity {
                if let first, objects[runEnd].objectID.storeNumber != first &+ Int64(runEnd - runStart) { isRange = false }
                runEnd += 1
            }
            let count = runEnd - runStart
            if isRange, let first, let layout = engine.layout(of: entity) {
                try db.cachedStatement(sql: PersistentHistoryRows.insertionsCopy(from: layout.table.name))
                    .execute(arguments: [key - first, layout.number, transaction, first, first &+ Int64(count - 1)])
                guard db.changesCount == count else {
                    throw ManagedObjectError(
                        .persistentStoreSave, "\(url?.path ?? identifier): \(db.changesCount) of \(count) new \(entity.name) rows to record in the history",
                        entityName: entity.name)
                }
                key += Int64(count)
            } else {
                let records = objects[runStart..<runEnd].map { HistoryRecord(type: .insert, objectID: $0.objectID) }
                try insertChanges(records, from: &key, transaction: transaction, rows: rows, db: db)
            }
            runStart = runEnd
        }
    }

    /// The `ACHANGE` rows of `records`, numbered from `key` on, many rows per `INSERT`, bound
    /// through SQLite's C API as a save's object rows are (a `StatementArguments` per row cost
    /// more than the row's insert). The statement of a full chunk is made once.
    private func insertChanges(
        _ records: [HistoryRecord], from key: inout Int64, transaction: Int64, rows: PersistentHistoryRows, db: Database
    ) throws {
        guard !records.isEmpty else { return }
        let perStatement = rows.changeRowsPerSQLiteInsert
        let tombstoneCount = rows.columns.tombstoneColumnCount
        let full = records.count >= perStatement ? try rowStatement(sql: rows.changeInsert(rows: perStatement, dialect: .sqlite), db: db) : nil
        for start in stride(from: 0, to: records.count, by: perStatement) {
            let chunk = records[start..<min(start + perStatement, records.count)]
            let statement = try chunk.count == perStatement ? full! : rowStatement(sql: rows.changeInsert(rows: chunk.count, dialect: .sqlite), db: db)
            let binder = RowBinder(statement.sqliteStatement)
            binder.start()
            var parameter: Int32 = 1
            func bind(_ value: SQLValue) {
                binder.bind(value, at: parameter)
                parameter += 1
            }
            for record in chunk {
                let object = try rows.changedObject(record)
                bind(.integer(key))
                bind(.integer(Int64(record.type.rawValue)))
                bind(.integer(object.entity))
                bind(.integer(object.key))
                bind(.integer(transaction))
                bind(record.columns.map { .blob($0) } ?? .null)
                for position in 0..<tombstoneCount {
                    bind(position < record.tombstone.count ? record.tombstone[position] : .null)
                }
                key += 1
            }
            try statement.execute()
        }
    }

    /// The `ATRANSACTIONSTRING` key of `name`, added when the table does not have it yet.
    private func historyString(_ name: String?, db: Database) throws -> Int64? {
        guard let name else { return nil }
        if let key = try Int64.fetchOne(db, sql: PersistentHistoryRows.stringQuery, arguments: [name]) {
            return key
        }
        let key = try reserveKeys(1, table: "ATRANSACTIONSTRING", entityNumber: 16003, db: db).lowerBound
        try db.execute(sql: PersistentHistoryRows.stringInsert, arguments: [key, name])
        return key
    }
}

extension SQLiteStore: PersistentHistoryStore {}

extension SQLiteStore: RemoteChangeSource {
    /// Polls SQLite's `data_version` on the store's writer connection (``SQLiteDataVersionWatcher``).
    package func watchRemoteChanges(_ onChange: @escaping @Sendable () -> Void) throws -> any RemoteChangeWatch {
        try SQLiteDataVersionWatcher(pool: pool, interval: Self.remoteChangePollingInterval, onChange: onChange)
    }

    /// How often the file is polled: a change is seen within this much.
    static let remoteChangePollingInterval = DispatchTimeInterval.milliseconds(150)
}
