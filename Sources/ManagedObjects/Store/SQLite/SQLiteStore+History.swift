import Foundation
import GRDB

extension SQLiteStore {
    // MARK: Reading persistent history

    /// The transactions after `start`, with their changes, read from Core Data's history tables
    /// (``PersistentHistorySchema``); none when the store has no history tables. A token of
    /// another store throws `persistentHistoryTokenExpired` (134301) naming both stores; a row
    /// naming no entity of the store, or a change type Core Data does not have, throws naming
    /// the table and row, never traps.
    func fetchHistory(after start: PersistentHistoryChangeRequest.Start) throws -> [PersistentHistoryTransaction] {
        var condition = "1"
        var arguments: StatementArguments = []
        switch start {
        case .beginning: break
        case .afterToken(let token):
            guard token.storeIdentifier == identifier else {
                throw ManagedObjectError(
                    .persistentHistoryTokenExpired,
                    "the history token \(token) is of the store \(token.storeIdentifier), not of \(url?.path ?? identifier) (\(identifier))")
            }
            condition = "t.Z_PK > ?"
            arguments = [token.transactionNumber]
        case .afterDate(let date):
            condition = "t.ZTIMESTAMP > ?"
            arguments = [date.timeIntervalSinceReferenceDate]
        }
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
            var changesByTransaction: [Int64: [PersistentHistoryChange]] = [:]
            let changes = try Row.fetchCursor(db, sql: """
                SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK FROM ACHANGE
                WHERE ZTRANSACTIONID >= ? ORDER BY Z_PK
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

    /// An `ACHANGE` row (`Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK`) as a change.
    private func historyChange(_ row: Row) throws -> PersistentHistoryChange {
        guard let number = row[0] as Int64?, let transaction = row[1] as Int64?, let typeNumber = row[2] as Int?,
              let entityNumber = row[3] as Int64?, let key = row[4] as Int64? else {
            throw ManagedObjectError(.persistentStoreOperation, "ACHANGE row \(row) in \(url?.path ?? identifier) has a NULL column")
        }
        guard let type = PersistentHistoryChangeType(rawValue: typeNumber) else {
            throw ManagedObjectError(
                .persistentStoreOperation, "ACHANGE row \(number) in \(url?.path ?? identifier) has the unknown change type \(typeNumber)")
        }
        guard let entity = schema.entitiesByNumber[entityNumber] else {
            throw ManagedObjectError(
                .persistentStoreOperation, "ACHANGE row \(number) in \(url?.path ?? identifier) names the entity number \(entityNumber), which is not the store's")
        }
        return PersistentHistoryChange(
            changeID: number, changeType: type, changedObjectID: permanentID(entity: entity, number: key),
            transactionNumber: transaction, updatedProperties: nil)
    }

    /// A read of the history tables; SQLite's own errors (a damaged page) name the file.
    private func readHistory<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as DatabaseError {
            throw ManagedObjectError(.sqlite, "cannot read the persistent history of \(url?.path ?? identifier): \(error)")
        }
    }
}

extension SQLiteStore {
    // MARK: Recording persistent history

    /// Records a save in the history tables, in the save's own SQLite transaction: one
    /// `ATRANSACTION` row, one `ACHANGE` row per object (deletions, updates, insertions), the
    /// names in `ATRANSACTIONSTRING`, and the three entities' `Z_PRIMARYKEY.Z_MAX` raised, as
    /// the real SampleModel2 stores show Core Data doing it: `Z_OPT` NULL in all three tables,
    /// the names only through the `…TS` columns, `ZCOLUMNS` NULL for an insertion.
    ///
    /// Inferred, not seen in a real file: an update's `ZCOLUMNS` (Core Data's encoding of the
    /// changed properties) is left NULL; a deletion's tombstone columns are not made.
    func recordHistory(of changes: StoreChangeSet, db: Database) throws {
        var rows: [(type: PersistentHistoryChangeType, objectID: ManagedObjectID)] = []
        rows.reserveCapacity(changes.inserted.count + changes.updated.count + changes.deleted.count)
        rows += changes.deleted.map { (.delete, $0.objectID) }
        rows += changes.updated.map { (.update, $0.objectID) }
        rows += changes.inserted.map { (.insert, $0.objectID) }
        let transaction = try reserveKeys(1, table: "ATRANSACTION", entityNumber: 16002, db: db).lowerBound
        let author = try historyString(changes.transactionAuthor, db: db)
        let contextName = try historyString(changes.contextName, db: db)
        let processName = ProcessInfo.processInfo.processName
        let processID = try historyString(processName, db: db)
        let bundleID = try historyString(Bundle.main.bundleIdentifier ?? processName, db: db)
        try db.execute(
            sql: """
                INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
                VALUES (?, 16002, NULL, ?, ?, ?, ?, ?)
                """,
            arguments: [transaction, author, bundleID, contextName, processID, Date().timeIntervalSinceReferenceDate])
        guard !rows.isEmpty else { return }
        var key = try reserveKeys(rows.count, table: "ACHANGE", entityNumber: 16001, db: db).lowerBound
        let insert = try db.cachedStatement(sql: """
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
            VALUES (?, 16001, NULL, ?, ?, ?, ?, NULL)
            """)
        for row in rows {
            guard let number = row.objectID.storeNumber, let entity = schema.entityNumbers[row.objectID.entity.name] else {
                throw ManagedObjectError(
                    .persistentStoreSave, "\(row.objectID) has no key in \(url?.path ?? identifier) to record in its history",
                    entityName: row.objectID.entity.name, objectID: row.objectID)
            }
            try insert.execute(arguments: [key, row.type.rawValue, entity, number, transaction])
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
