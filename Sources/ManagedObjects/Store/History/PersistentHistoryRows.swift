import Foundation

/// Persistent history's rows as every SQL store reads and writes them (``PersistentHistorySchema``'s
/// tables): the statements, the conditions of a point in history, rows into transactions and
/// changes, and a save's changes into rows. The SQLite and PostgreSQL stores run the same SQL
/// (`?` parameters; PostgreSQL numbers them) on their own connections, and hand rows over as
/// cells (``SQLValue``) through a column accessor, as ``SQLRowReader`` takes them.
package struct PersistentHistoryRows: Sendable {
    let schema: CoreDataSchema
    package let columns: PersistentHistoryColumns
    let storeIdentifier: String
    /// The store's file or database, for messages.
    let location: String

    package init(schema: CoreDataSchema, columns: PersistentHistoryColumns, storeIdentifier: String, location: String) {
        self.schema = schema
        self.columns = columns
        self.storeIdentifier = storeIdentifier
        self.location = location
    }

    // MARK: Reading

    /// The transactions matching `condition` (on `ATRANSACTION t`), in order, with their names:
    /// `Z_PK, ZTIMESTAMP`, author, context name, process, bundle. The names live once each in
    /// `ATRANSACTIONSTRING`, referred to by the `…TS` columns (the VARCHAR columns `ZAUTHOR`,
    /// `ZBUNDLEID`, … are NULL in Core Data's real files).
    package static func transactionsQuery(where condition: String) -> String {
        """
        SELECT t.Z_PK, t.ZTIMESTAMP, a.ZNAME, c.ZNAME, p.ZNAME, b.ZNAME FROM ATRANSACTION t
        LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS
        LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS
        LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
        LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS
        WHERE \(condition) ORDER BY t.Z_PK
        """
    }

    /// The changes of the transactions from the one numbered by its parameter on, in order:
    /// `Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS`, then `tombstoneColumns`.
    package static func changesQuery(tombstoneColumns: [String]) -> String {
        """
        SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS\(tombstoneColumns.map { ", \($0)" }.joined())
        FROM ACHANGE WHERE ZTRANSACTIONID >= ? ORDER BY Z_PK
        """
    }

    /// The newest transaction's number (0 without any).
    package static let currentTransactionQuery = "SELECT COALESCE(MAX(Z_PK), 0) FROM ATRANSACTION"

    /// The statements removing the transactions matching `condition` (on `ATRANSACTION t`) and
    /// their changes, in the order to run them, each with the condition's arguments.
    package static func deletionStatements(where condition: String) -> [String] {
        [
            "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))",
            "DELETE FROM ATRANSACTION WHERE Z_PK IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))",
        ]
    }

    /// The SQL condition on `ATRANSACTION t` of the transactions after `start` (`after`), or
    /// of those before it (up to and including a token's transaction; saved before a date). A
    /// token of another store throws `persistentHistoryTokenExpired` (134301) naming both stores.
    package func condition(_ start: PersistentHistoryChangeRequest.Start, after: Bool) throws -> (String, [SQLValue]) {
        switch start {
        case .beginning:
            return ("1 = 1", [])
        case .afterToken(let token):
            guard token.storeIdentifier == storeIdentifier else {
                throw ManagedObjectError(
                    .persistentHistoryTokenExpired,
                    "the history token \(token) is of the store \(token.storeIdentifier), not of \(location) (\(storeIdentifier))")
            }
            return (after ? "t.Z_PK > ?" : "t.Z_PK <= ?", [.integer(token.transactionNumber)])
        case .afterDate(let date):
            return (after ? "t.ZTIMESTAMP > ?" : "t.ZTIMESTAMP < ?", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }

    /// A row of ``transactionsQuery(where:)`` as a transaction with `changes`.
    package func transaction(
        _ cell: (Int) -> SQLValue, changes changesByTransaction: [Int64: [PersistentHistoryChange]]
    ) throws -> PersistentHistoryTransaction {
        guard let number = cell(0).int64Value, let timestamp = cell(1).doubleValue else {
            throw ManagedObjectError(
                .persistentStoreOperation, "ATRANSACTION row \(cell(0)) in \(location) has no Z_PK or ZTIMESTAMP")
        }
        return PersistentHistoryTransaction(
            transactionNumber: number, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
            author: cell(2).stringValue, contextName: cell(3).stringValue,
            processID: cell(4).stringValue, bundleID: cell(5).stringValue, storeID: storeIdentifier,
            changes: changesByTransaction[number] ?? [])
    }

    /// A row of ``changesQuery(tombstoneColumns:)`` (`count` cells) as a change; a row naming no
    /// entity of the store, a change type Core Data does not have, or a `ZCOLUMNS` naming more
    /// properties than the entity has, throws naming the table and row, never traps.
    /// `tombstoneCell` reads a tombstone cell as its store wrote it.
    package func change(
        _ cell: (Int) -> SQLValue, count: Int, tombstoneCell: (SQLValue) -> SQLValue = { $0 }
    ) throws -> PersistentHistoryChange {
        let place = "ACHANGE row \(cell(0).int64Value ?? 0) in \(location)"
        guard let number = cell(0).int64Value, let transaction = cell(1).int64Value,
              let typeNumber = cell(2).intValue, let entityNumber = cell(3).int64Value,
              let key = cell(4).int64Value else {
            throw ManagedObjectError(.persistentStoreOperation, "\(place) has a NULL column")
        }
        guard let type = PersistentHistoryChangeType(rawValue: typeNumber) else {
            throw ManagedObjectError(.persistentStoreOperation, "\(place) has the unknown change type \(typeNumber)")
        }
        guard let entity = schema.entitiesByNumber[entityNumber] else {
            throw ManagedObjectError(
                .persistentStoreOperation, "\(place) names the entity number \(entityNumber), which is not the store's")
        }
        var updated: Set<PropertyDescription>?
        if type == .update, let bitmap = cell(5).dataValue {
            guard let properties = columns.properties(in: bitmap, of: entity) else {
                throw ManagedObjectError(
                    .persistentStoreOperation,
                    "\(place): ZCOLUMNS (\(bitmap.map { String($0, radix: 16) }.joined(separator: " "))) names more properties than \(entity.name) has",
                    entityName: entity.name)
            }
            updated = properties
        }
        var tombstone: [String: Any]?
        if type == .delete, let attributes = columns.columns(of: entity)?.tombstoneAttributes, !attributes.isEmpty {
            var values: [String: Any] = [:]
            for (position, attribute) in attributes.enumerated() where 6 + position < count {
                if let value = CoreDataValues.attributeValue(tombstoneCell(cell(6 + position)), type: attribute.type, resolveObjectID: { _ in nil }) {
                    values[attribute.name] = value
                }
            }
            tombstone = values
        }
        return PersistentHistoryChange(
            changeID: number, changeType: type,
            changedObjectID: ManagedObjectID.permanent(entity: entity, storeIdentifier: storeIdentifier, number: key),
            transactionNumber: transaction, updatedProperties: updated, tombstone: tombstone)
    }

    // MARK: Recording

    /// One change to record: its type, the object, and for an update the properties it changed
    /// (`ZCOLUMNS`), for a deletion the preserved values (the tombstone columns' cells).
    package struct Record {
        package var type: PersistentHistoryChangeType
        package var objectID: ManagedObjectID
        package var columns: Data? = nil
        package var tombstone: [SQLValue] = []

        package init(type: PersistentHistoryChangeType, objectID: ManagedObjectID, columns: Data? = nil, tombstone: [SQLValue] = []) {
            self.type = type
            self.objectID = objectID
            self.columns = columns
            self.tombstone = tombstone
        }
    }

    /// A save's changes as records: deletions (with their tombstones, read before the rows went),
    /// updates (with the properties the saving context changed), insertions.
    package func records(of changes: StoreChangeSet, tombstones: [ManagedObjectID: [SQLValue]]) -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(changes.inserted.count + changes.updated.count + changes.deleted.count)
        records += changes.deleted.map { Record(type: .delete, objectID: $0.objectID, tombstone: tombstones[$0.objectID] ?? []) }
        records += changes.updated.map { object in
            Record(
                type: .update, objectID: object.objectID,
                columns: changes.updatedPropertyIndexes?[object.objectID].flatMap { columns.bitmap(of: $0, in: object.objectID.entity) })
        }
        records += changes.inserted.map { Record(type: .insert, objectID: $0.objectID) }
        return records
    }

    /// The query of the preserved attributes' columns of a row of `entity`'s table (its key the
    /// parameter); `nil` when the entity preserves none.
    package func tombstoneQuery(of entity: EntityDescription, dialect: SQLDialect) -> String? {
        guard let entityColumns = columns.columns(of: entity), !entityColumns.tombstoneSourceColumns.isEmpty else { return nil }
        let selected = zip(entityColumns.tombstoneSourceColumns, entityColumns.tombstoneAttributes).map { column, attribute in
            // PostgreSQL's NUMERIC is read as text, the form the SQLite store reads too.
            dialect == .postgreSQL && attribute.type == .decimal ? "\(column)::text" : column
        }
        return "SELECT \(selected.joined(separator: ", ")) FROM \(schema.table(of: entity).name) WHERE Z_PK = ?"
    }

    /// `ATRANSACTION`'s row: key, author, bundle, context name and process keys, timestamp.
    package static let transactionInsert = """
        INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
        VALUES (?, 16002, NULL, ?, ?, ?, ?, ?)
        """

    /// The process and bundle names a transaction records.
    package static var processNames: (process: String, bundle: String) {
        let process = ProcessInfo.processInfo.processName
        return (process, Bundle.main.bundleIdentifier ?? process)
    }

    /// `ATRANSACTIONSTRING`'s key of a name, and its row.
    package static let stringQuery = "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?"
    package static let stringInsert = "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 16003, NULL, ?)"

    /// The `INSERT` of `rows` `ACHANGE` rows at once, each of ``changeValues(_:key:transaction:)``,
    /// in `dialect`. SQLite's is `OR FAIL`, as ``SQLRowLayout/sqliteInsertSQL(rows:)`` is: a
    /// statement that may stop halfway otherwise keeps a statement journal (a temporary file
    /// as large as the rows), and the save's transaction is rolled back on any error anyway.
    package func changeInsert(rows: Int, dialect: SQLDialect) -> String {
        let tombstoneCount = columns.tombstoneColumnCount
        let tombstoneNames = (0..<tombstoneCount).map { ", \(PersistentHistoryColumns.tombstoneColumn($0))" }.joined()
        let row = "(?, 16001, NULL, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: tombstoneCount)))"
        return "INSERT \(dialect == .sqlite ? "OR FAIL " : "")INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneNames)) VALUES "
            + repeatElement(row, count: rows).joined(separator: ", ")
    }

    /// SQLite's `INSERT` copying the insertions of the rows of `table` with keys from its fourth
    /// parameter to its fifth into `ACHANGE`, in key order: each change keyed by the row's key
    /// plus the first parameter, of the entity numbered by the second, in the transaction
    /// numbered by the third; `ZCOLUMNS` and the tombstone columns NULL, as for any insertion.
    /// `OR FAIL`, as ``changeInsert(rows:dialect:)``.
    package static func insertionsCopy(from table: String) -> String {
        """
        INSERT OR FAIL INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
        SELECT Z_PK + ?, 16001, NULL, \(PersistentHistoryChangeType.insert.rawValue), ?, Z_PK, ?, NULL
        FROM \(table) WHERE Z_PK BETWEEN ? AND ? ORDER BY Z_PK
        """
    }

    /// The parameters per row of ``changeInsert(rows:dialect:)``.
    package var changeParameterCount: Int { 6 + columns.tombstoneColumnCount }

    /// How many rows one `INSERT` of SQLite's takes: as many as keep its parameters within 999,
    /// SQLite's smallest limit, up to 100 (as ``SQLRowLayout/rowsPerInsert``).
    package var changeRowsPerSQLiteInsert: Int { max(1, min(100, 999 / changeParameterCount)) }

    /// `record`'s object as `ACHANGE` names it: its entity's number and its key. Throws for an
    /// object without a key in the store.
    package func changedObject(_ record: Record) throws -> (entity: Int64, key: Int64) {
        guard let number = record.objectID.storeNumber, let entity = schema.entityNumbers[record.objectID.entity.name] else {
            throw ManagedObjectError(
                .persistentStoreSave, "\(record.objectID) has no key in \(location) to record in its history",
                entityName: record.objectID.entity.name, objectID: record.objectID)
        }
        return (entity, number)
    }

    /// The cells of `record`'s `ACHANGE` row, numbered `key`, in `transaction`; `tombstoneCell`
    /// makes a tombstone cell as the store keeps it. Throws for an object without a key in the store.
    package func changeValues(
        _ record: Record, key: Int64, transaction: Int64, tombstoneCell: (SQLValue) -> SQLValue = { $0 }
    ) throws -> [SQLValue] {
        let (entity, number) = try changedObject(record)
        var values: [SQLValue] = [
            .integer(key), .integer(Int64(record.type.rawValue)), .integer(entity), .integer(number),
            .integer(transaction), record.columns.map(SQLValue.blob) ?? .null,
        ]
        values += (0..<columns.tombstoneColumnCount).map { $0 < record.tombstone.count ? tombstoneCell(record.tombstone[$0]) : .null }
        return values
    }
}
