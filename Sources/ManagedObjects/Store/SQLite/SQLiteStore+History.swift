import Foundation
import GRDB

extension SQLiteStore {
    // MARK: Reading persistent history

    /// The transactions after `start`, with their changes, read from Core Data's history tables
    /// (``PersistentHistorySchema``); none when the store has no history tables. A token of
    /// another store throws `persistentHistoryTokenExpired` (134301) naming both stores; a row
    /// naming no entity of the store, a change type Core Data does not have, or a `ZCOLUMNS`
    /// naming more properties than the entity has, throws naming the table and row, never traps.
    func fetchHistory(after start: PersistentHistoryChangeRequest.Start) throws -> [PersistentHistoryTransaction] {
        let (condition, arguments) = try historyCondition(start, after: true)
        return try readHistory { db in
            guard try PersistentHistorySchema.isPresent(in: db) else { return [] }
            // The names live once each in ATRANSACTIONSTRING, referred to by the …TS columns
            // (the VARCHAR columns ZAUTHOR, ZBUNDLEID, … are NULL in Core Data's real files).
            let transactions = try Row.fetchAll(db, sql: """
                SELECT t.Z_PK, t.ZTIMESTAMP, a.ZNAME, c.ZNAME, p.ZNAME, b.ZNAME FROM ATRANSACTION t
                LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS
                LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS
                LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
                LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS
                WHERE \(condition) ORDER BY t.Z_PK
                """, arguments: arguments)
            guard let first = transactions.first, let firstNumber = first[0] as Int64? else { return [] }
            let tombstoneColumns = try PersistentHistorySchema.tombstoneColumns(in: db)
            var changesByTransaction: [Int64: [PersistentHistoryChange]] = [:]
            let changes = try Row.fetchCursor(db, sql: """
                SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS\(tombstoneColumns.map { ", \($0)" }.joined())
                FROM ACHANGE WHERE ZTRANSACTIONID >= ? ORDER BY Z_PK
                """, arguments: [firstNumber])
            while let row = try changes.next() {
                let change = try historyChange(row)
                changesByTransaction[change.transactionNumber, default: []].append(change)
            }
            return try transactions.map { row in
                guard let number = row[0] as Int64?, let timestamp = row[1] as Double? else {
                    throw ManagedObjectError(
                        .persistentStoreOperation, "ATRANSACTION row \(row) in \(url?.path ?? identifier) has no Z_PK or ZTIMESTAMP")
                }
                return PersistentHistoryTransaction(
                    transactionNumber: number, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
                    author: row[2], contextName: row[3], processID: row[4], bundleID: row[5], storeID: identifier,
                    changes: changesByTransaction[number] ?? [])
            }
        }
    }

    /// The token of the newest transaction (`nil` without the history tables).
    func currentHistoryToken() throws -> PersistentHistoryToken? {
        try readHistory { db in
            guard try PersistentHistorySchema.isPresent(in: db) else { return nil }
            let number = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(Z_PK), 0) FROM ATRANSACTION") ?? 0
            return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
        }
    }

    /// The SQL condition on `ATRANSACTION t` of the transactions after `start` (`after`), or
    /// of those before it (up to and including a token's transaction; saved before a date).
    private func historyCondition(_ start: PersistentHistoryChangeRequest.Start, after: Bool) throws -> (String, StatementArguments) {
        switch start {
        case .beginning:
            return ("1", [])
        case .afterToken(let token):
            guard token.storeIdentifier == identifier else {
                throw ManagedObjectError(
                    .persistentHistoryTokenExpired,
                    "the history token \(token) is of the store \(token.storeIdentifier), not of \(url?.path ?? identifier) (\(identifier))")
            }
            return (after ? "t.Z_PK > ?" : "t.Z_PK <= ?", [token.transactionNumber])
        case .afterDate(let date):
            return (after ? "t.ZTIMESTAMP > ?" : "t.ZTIMESTAMP < ?", [date.timeIntervalSinceReferenceDate])
        }
    }

    /// An `ACHANGE` row (`Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS`,
    /// then the tombstone columns) as a change.
    private func historyChange(_ row: Row) throws -> PersistentHistoryChange {
        let place = "ACHANGE row \(row[0] as Int64? ?? 0) in \(url?.path ?? identifier)"
        guard let number = row[0] as Int64?, let transaction = row[1] as Int64?, let typeNumber = row[2] as Int?,
              let entityNumber = row[3] as Int64?, let key = row[4] as Int64? else {
            throw ManagedObjectError(.persistentStoreOperation, "ACHANGE row \(row) in \(url?.path ?? identifier) has a NULL column")
        }
        guard let type = PersistentHistoryChangeType(rawValue: typeNumber) else {
            throw ManagedObjectError(.persistentStoreOperation, "\(place) has the unknown change type \(typeNumber)")
        }
        guard let entity = schema.entitiesByNumber[entityNumber] else {
            throw ManagedObjectError(
                .persistentStoreOperation, "\(place) names the entity number \(entityNumber), which is not the store's")
        }
        var updated: Set<PropertyDescription>?
        if type == .update, let bitmap = row[5] as Data? {
            guard let properties = historyColumns.properties(in: bitmap, of: entity) else {
                throw ManagedObjectError(
                    .persistentStoreOperation,
                    "\(place): ZCOLUMNS (\(bitmap.map { String($0, radix: 16) }.joined(separator: " "))) names more properties than \(entity.name) has",
                    entityName: entity.name)
            }
            updated = properties
        }
        var tombstone: [String: Any]?
        if type == .delete, let attributes = historyColumns.columns(of: entity)?.tombstoneAttributes, !attributes.isEmpty {
            var values: [String: Any] = [:]
            for (position, attribute) in attributes.enumerated() where 6 + position < row.count {
                let cell: DatabaseValue = row[6 + position]
                if let value = SQLiteValues.attributeValue(cell, type: attribute.type, resolveObjectID: { _ in nil }) {
                    values[attribute.name] = value
                }
            }
            tombstone = values
        }
        return PersistentHistoryChange(
            changeID: number, changeType: type, changedObjectID: permanentID(entity: entity, number: key),
            transactionNumber: transaction, updatedProperties: updated, tombstone: tombstone)
    }

    /// A read of the history tables; SQLite's own errors (a damaged page) name the file.
    private func readHistory<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as DatabaseError {
            throw ManagedObjectError(.sqlite, "cannot read the persistent history of \(url?.path ?? identifier): \(error)")
        }
    }

    // MARK: Deleting persistent history

    /// Removes the transactions before `start` (all of them at `.beginning`; up to and including
    /// a token's transaction; saved before a date) and their changes, in one transaction.
    /// Newer transactions, the names in `ATRANSACTIONSTRING` and the key counters stay.
    func deleteHistory(before start: PersistentHistoryChangeRequest.Start) throws {
        let (condition, arguments) = try historyCondition(start, after: false)
        do {
            try pool.write { db in
                guard try PersistentHistorySchema.isPresent(in: db) else { return }
                try db.execute(
                    sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))",
                    arguments: arguments)
                try db.execute(sql: "DELETE FROM ATRANSACTION WHERE Z_PK IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))", arguments: arguments)
            }
        } catch let error as DatabaseError {
            throw ManagedObjectError(.sqlite, "cannot delete the persistent history of \(url?.path ?? identifier): \(error)")
        }
    }
}

extension SQLiteStore {
    // MARK: Recording persistent history

    /// One change to record: its type, the object, and for an update the properties it changed
    /// (`ZCOLUMNS`), for a deletion the preserved values (the tombstone columns' cells).
    struct HistoryRecord {
        var type: PersistentHistoryChangeType
        var objectID: ManagedObjectID
        var columns: Data? = nil
        var tombstone: [DatabaseValue] = []
    }

    /// Records a save in the history tables, in the save's own SQLite transaction: deletions
    /// (with their tombstones, read by ``historyTombstones(of:db:)`` before the rows went),
    /// updates (with the properties the saving context changed), insertions.
    func recordHistory(of changes: StoreChangeSet, tombstones: [ManagedObjectID: [DatabaseValue]], db: Database) throws {
        var records: [HistoryRecord] = []
        records.reserveCapacity(changes.inserted.count + changes.updated.count + changes.deleted.count)
        records += changes.deleted.map { HistoryRecord(type: .delete, objectID: $0.objectID, tombstone: tombstones[$0.objectID] ?? []) }
        records += changes.updated.map { object in
            HistoryRecord(
                type: .update, objectID: object.objectID,
                columns: changes.updatedPropertyIndexes?[object.objectID].flatMap { historyColumns.bitmap(of: $0, in: object.objectID.entity) })
        }
        records += changes.inserted.map { HistoryRecord(type: .insert, objectID: $0.objectID) }
        try recordHistory(records, author: changes.transactionAuthor, contextName: changes.contextName, db: db)
    }

    /// The values of the preserved attributes (``PersistentHistoryColumns``) of the stored
    /// objects `objectIDs`, as their columns hold them, for the tombstones of their deletion.
    func historyTombstones(of objectIDs: some Sequence<ManagedObjectID>, db: Database) throws -> [ManagedObjectID: [DatabaseValue]] {
        var tombstones: [ManagedObjectID: [DatabaseValue]] = [:]
        for objectID in objectIDs {
            guard let columns = historyColumns.columns(of: objectID.entity), !columns.tombstoneSourceColumns.isEmpty,
                  let key = objectID.storeNumber else { continue }
            let statement = try db.cachedStatement(
                sql: "SELECT \(columns.tombstoneSourceColumns.joined(separator: ", ")) FROM \(schema.table(of: objectID.entity).name) WHERE Z_PK = ?")
            if let row = try Row.fetchOne(statement, arguments: [key]) {
                tombstones[objectID] = (0..<row.count).map { row[$0] as DatabaseValue }
            }
        }
        return tombstones
    }

    /// Records one transaction with `records` as its changes: one `ATRANSACTION` row, one
    /// `ACHANGE` row per record, the names in `ATRANSACTIONSTRING`, and the three entities'
    /// `Z_PRIMARYKEY.Z_MAX` raised, as the real SampleModel2 stores show Core Data doing it:
    /// `Z_OPT` NULL in all three tables, the names only through the `…TS` columns, `ZCOLUMNS`
    /// NULL for an insertion. `ZCOLUMNS` of an update and the tombstone columns of a deletion
    /// are inferred (``PersistentHistoryColumns``).
    func recordHistory(_ records: [HistoryRecord], author: String?, contextName: String?, db: Database) throws {
        let transaction = try reserveKeys(1, table: "ATRANSACTION", entityNumber: 16002, db: db).lowerBound
        let authorKey = try historyString(author, db: db)
        let contextNameKey = try historyString(contextName, db: db)
        let processName = ProcessInfo.processInfo.processName
        let processID = try historyString(processName, db: db)
        let bundleID = try historyString(Bundle.main.bundleIdentifier ?? processName, db: db)
        try db.execute(
            sql: """
                INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
                VALUES (?, 16002, NULL, ?, ?, ?, ?, ?)
                """,
            arguments: [transaction, authorKey, bundleID, contextNameKey, processID, Date().timeIntervalSinceReferenceDate])
        guard !records.isEmpty else { return }
        var key = try reserveKeys(records.count, table: "ACHANGE", entityNumber: 16001, db: db).lowerBound
        let tombstoneCount = historyColumns.tombstoneColumnCount
        let tombstoneNames = (0..<tombstoneCount).map { ", \(PersistentHistoryColumns.tombstoneColumn($0))" }.joined()
        let insert = try db.cachedStatement(sql: """
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneNames))
            VALUES (?, 16001, NULL, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: tombstoneCount)))
            """)
        for record in records {
            guard let number = record.objectID.storeNumber, let entity = schema.entityNumbers[record.objectID.entity.name] else {
                throw ManagedObjectError(
                    .persistentStoreSave, "\(record.objectID) has no key in \(url?.path ?? identifier) to record in its history",
                    entityName: record.objectID.entity.name, objectID: record.objectID)
            }
            var arguments: [DatabaseValue] = [
                key.databaseValue, record.type.rawValue.databaseValue, entity.databaseValue, number.databaseValue,
                transaction.databaseValue, record.columns.databaseValue,
            ]
            arguments += (0..<tombstoneCount).map { $0 < record.tombstone.count ? record.tombstone[$0] : .null }
            try insert.execute(arguments: StatementArguments(arguments))
            key += 1
        }
    }

    /// The `ATRANSACTIONSTRING` key of `name`, added when the table does not have it yet.
    private func historyString(_ name: String?, db: Database) throws -> Int64? {
        guard let name else { return nil }
        if let key = try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", arguments: [name]) {
            return key
        }
        let key = try reserveKeys(1, table: "ATRANSACTIONSTRING", entityNumber: 16003, db: db).lowerBound
        try db.execute(sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 16003, NULL, ?)", arguments: [key, name])
        return key
    }
}
