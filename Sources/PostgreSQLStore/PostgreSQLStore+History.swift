import Foundation
import ManagedObjects
import PostgresNIO

/// Persistent history in the database: Core Data's `ATRANSACTION`, `ACHANGE` and
/// `ATRANSACTIONSTRING` tables in PostgreSQL's types, read and written with the SQLite store's
/// statements (``PersistentHistoryRows``), so server processes learn what the others saved.
///
/// Keys come from `Z_PRIMARYKEY.Z_MAX` as in Core Data's files, not from sequences: a save
/// raises the transaction entity's row (`UPDATE … RETURNING`) last, just before it commits, and
/// that row stays locked until the commit, so transactions commit in the order of their numbers
/// and a reader that has seen transaction *n* never finds a smaller number appearing later.
/// Saves that record history wait for one another at that point only.
extension PostgreSQLStore: PersistentHistoryStore {
    /// Makes the history tables and their `Z_PRIMARYKEY` rows when the database lacks them, and
    /// the tombstone columns it lacks (in the opening transaction).
    static func createPersistentHistory(
        tombstoneColumns count: Int, pool: PostgreSQLConnectionPool, connection: PostgresConnection
    ) throws {
        let present = try pool.query("SELECT to_regclass('atransaction') IS NOT NULL", on: connection)
        guard let row = present.first, (try? row.decode(Bool.self)) == true else {
            for statement in PersistentHistorySchema.creationStatements(dialect: .postgreSQL, tombstoneColumns: count) {
                try pool.execute(statement, on: connection)
            }
            for entity in PersistentHistorySchema.entities {
                try pool.execute(
                    "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0) ON CONFLICT (Z_ENT) DO NOTHING",
                    [.integer(entity.number), .text(entity.name)], on: connection)
            }
            return
        }
        let existing = try tombstoneColumns(pool: pool, connection: connection).count
        for position in existing..<max(count, existing) {
            try pool.execute("ALTER TABLE ACHANGE ADD COLUMN \(PersistentHistoryColumns.tombstoneColumn(position)) BYTEA", on: connection)
        }
    }

    /// The `ZTOMBSTONE<n>` columns `ACHANGE` has, in order (stopping at the first missing).
    private static func tombstoneColumns(pool: PostgreSQLConnectionPool, connection: PostgresConnection) throws -> [String] {
        var names = Set<String>()
        for row in try pool.query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'achange'",
            on: connection) {
            if let name = try? row.decode(String.self) { names.insert(name.uppercased()) }
        }
        var columns: [String] = []
        while names.contains(PersistentHistoryColumns.tombstoneColumn(columns.count)) {
            columns.append(PersistentHistoryColumns.tombstoneColumn(columns.count))
        }
        return columns
    }

    private static func hasHistoryTables(pool: PostgreSQLConnectionPool, connection: PostgresConnection) throws -> Bool {
        try pool.query("SELECT to_regclass('atransaction') IS NOT NULL", on: connection).first.flatMap { try? $0.decode(Bool.self) } ?? false
    }

    // MARK: Reading

    package func fetchHistory(after start: PersistentHistoryChangeRequest.Start) throws -> [PersistentHistoryTransaction] {
        let rows = historyRows
        let (condition, arguments) = try rows.condition(start, after: true)
        return try readHistory { connection in
            guard try Self.hasHistoryTables(pool: pool, connection: connection) else { return [] }
            let transactions = try pool.query(PersistentHistoryRows.transactionsQuery(where: condition), arguments, on: connection)
                .map { PostgresRandomAccessRow($0) }
            guard let first = transactions.first, let firstNumber = PostgreSQLConnectionPool.value(first[0]).int64Value else {
                return []
            }
            let tombstoneColumns = try Self.tombstoneColumns(pool: pool, connection: connection)
            var changesByTransaction: [Int64: [PersistentHistoryChange]] = [:]
            for row in try pool.query(
                PersistentHistoryRows.changesQuery(tombstoneColumns: tombstoneColumns), [.integer(firstNumber)], on: connection) {
                let cells = PostgresRandomAccessRow(row)
                let change = try rows.change(
                    { PostgreSQLConnectionPool.value(cells[$0]) }, count: cells.count, tombstoneCell: Self.tombstoneValue)
                changesByTransaction[change.transactionNumber, default: []].append(change)
            }
            return try transactions.map { cells in
                try rows.transaction({ PostgreSQLConnectionPool.value(cells[$0]) }, changes: changesByTransaction)
            }
        }
    }

    package func currentHistoryToken() throws -> PersistentHistoryToken? {
        try readHistory { connection in
            guard try Self.hasHistoryTables(pool: pool, connection: connection) else { return nil }
            let number = try pool.query(PersistentHistoryRows.currentTransactionQuery, on: connection).first
                .flatMap { try? $0.decode(Int64.self) } ?? 0
            return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
        }
    }

    package func deleteHistory(before start: PersistentHistoryChangeRequest.Start) throws {
        try refuseWritesToPinnedView()
        let (condition, arguments) = try historyRows.condition(start, after: false)
        do {
            try pool.inRetriedTransaction { connection in
                guard try Self.hasHistoryTables(pool: pool, connection: connection) else { return }
                for statement in PersistentHistoryRows.deletionStatements(where: condition) {
                    try pool.execute(statement, arguments, on: connection)
                }
            }
        } catch let error as ManagedObjectError {
            throw error
        } catch {
            throw ManagedObjectError(
                .persistentStoreOperation,
                "cannot delete the persistent history of the PostgreSQL database \(pool.location): \(pool.describe(error))", underlying: error)
        }
    }

    /// A read of the history tables; the server's errors name the database.
    private func readHistory<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as ManagedObjectError {
            throw error
        } catch {
            throw ManagedObjectError(
                .persistentStoreOperation,
                "cannot read the persistent history of the PostgreSQL database \(pool.location): \(pool.describe(error))", underlying: error)
        }
    }

    /// Reading and writing history rows in this store.
    var historyRows: PersistentHistoryRows {
        PersistentHistoryRows(schema: schema, columns: historyColumns, storeIdentifier: identifier, location: pool.location)
    }

    // MARK: Recording

    /// The values of the preserved attributes of the stored objects `objectIDs`, read before
    /// their rows go, for the tombstones of their deletion.
    func historyTombstones(of objectIDs: some Sequence<ManagedObjectID>, connection: PostgresConnection) throws -> [ManagedObjectID: [SQLValue]] {
        guard recordsHistory else { return [:] }
        return try engine.historyTombstones(of: objectIDs, rows: historyRows, on: PostgreSQLExecutor(pool: pool, connection: connection))
    }

    /// The most rows one `INSERT` into `ACHANGE` writes (PostgreSQL takes 65,535 parameters).
    private static let changeRowsPerStatement = 1_000

    /// Records one transaction with `records` as its changes, in the save's transaction on
    /// `connection`: the `ACHANGE` rows in statements of many rows each, sent without waiting,
    /// then the `ATRANSACTION` row, numbered last (see the type's comment).
    func recordHistory(_ records: [PersistentHistoryRows.Record], author: String?, contextName: String?, connection: PostgresConnection) throws {
        let rows = historyRows
        // The transaction's number first: its Z_PRIMARYKEY row, locked until the commit, orders
        // the saves that record history (and the names and change keys under it).
        let transaction = try reserveHistoryKeys(1, entity: 16002, connection: connection)
        let names = PersistentHistoryRows.processNames
        let authorKey = try historyString(author, connection: connection)
        let contextNameKey = try historyString(contextName, connection: connection)
        let processKey = try historyString(names.process, connection: connection)
        let bundleKey = try historyString(names.bundle, connection: connection)
        var writes = [pool.send(
            PersistentHistoryRows.transactionInsert,
            bindings: PostgreSQLConnectionPool.bindings([
                .integer(transaction), .integer(orNull: authorKey), .integer(orNull: bundleKey), .integer(orNull: contextNameKey),
                .integer(orNull: processKey), .real(Date().timeIntervalSinceReferenceDate),
            ]),
            on: connection)]
        if !records.isEmpty {
            var key = try reserveHistoryKeys(records.count, entity: 16001, connection: connection) - Int64(records.count) + 1
            let perStatement = Self.changeRowsPerStatement
            let fullStatement = SQLDialect.numberingParameters(rows.changeInsert(rows: perStatement, dialect: .postgreSQL))
            for start in stride(from: 0, to: records.count, by: perStatement) {
                let chunk = records[start..<min(start + perStatement, records.count)]
                var bindings = PostgresBindings(capacity: chunk.count * rows.changeParameterCount)
                for record in chunk {
                    for value in try rows.changeValues(record, key: key, transaction: transaction, tombstoneCell: Self.tombstoneCell) {
                        PostgreSQLConnectionPool.append(value, to: &bindings)
                    }
                    key += 1
                }
                let sql = chunk.count == perStatement ? fullStatement : SQLDialect.numberingParameters(rows.changeInsert(rows: chunk.count, dialect: .postgreSQL))
                writes.append(pool.send(numbered: sql, bindings: bindings, on: connection))
            }
        }
        try pool.waitForAll(writes)
    }

    /// Raises the history entity's `Z_PRIMARYKEY.Z_MAX` by `count` (locking its row until the
    /// transaction ends) and gives the new value, the last key reserved.
    private func reserveHistoryKeys(_ count: Int, entity: Int64, connection: PostgresConnection) throws -> Int64 {
        let row = try pool.query(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = COALESCE(Z_MAX, 0) + ? WHERE Z_ENT = ? RETURNING Z_MAX",
            [.integer(Int64(count)), .integer(entity)], on: connection).first
        guard let last = row.flatMap({ try? $0.decode(Int64.self) }) else {
            throw ManagedObjectError(
                .persistentStoreSave, "the PostgreSQL database \(pool.location) has no Z_PRIMARYKEY row for the history entity \(entity)")
        }
        return last
    }

    /// The `ATRANSACTIONSTRING` key of `name`, added when the table does not have it yet.
    private func historyString(_ name: String?, connection: PostgresConnection) throws -> Int64? {
        guard let name else { return nil }
        if let key = try pool.query(PersistentHistoryRows.stringQuery, [.text(name)], on: connection).first
            .flatMap({ try? $0.decode(Int64.self) }) {
            return key
        }
        let key = try reserveHistoryKeys(1, entity: 16003, connection: connection)
        try pool.execute(PersistentHistoryRows.stringInsert, [.integer(key), .text(name)], on: connection)
        return key
    }

    // MARK: Tombstone cells

    /// A tombstone cell as `ACHANGE` keeps it here: SQLite's BLOB column holds any kind of value,
    /// PostgreSQL's BYTEA bytes only, so the cell is tagged with its kind (`i` 8-byte integer,
    /// `f` 8-byte double, `s` UTF-8 text, `b` bytes; big-endian).
    static func tombstoneCell(_ value: SQLValue) -> SQLValue {
        var bytes: [UInt8]
        switch value {
        case .null: return .null
        case .integer(let integer): bytes = [UInt8(ascii: "i")] + withUnsafeBytes(of: integer.bigEndian, Array.init)
        case .real(let double): bytes = [UInt8(ascii: "f")] + withUnsafeBytes(of: double.bitPattern.bigEndian, Array.init)
        case .text(let string): bytes = [UInt8(ascii: "s")] + Array(string.utf8)
        case .blob(let data): bytes = [UInt8(ascii: "b")] + Array(data)
        }
        return .blob(Data(bytes))
    }

    /// ``tombstoneCell(_:)`` read back; a cell of another form reads as no value.
    static func tombstoneValue(_ cell: SQLValue) -> SQLValue {
        guard let data = cell.dataValue, let tag = data.first else { return .null }
        let payload = Array(data.dropFirst())
        func number() -> UInt64? {
            payload.count == 8 ? payload.reduce(0) { $0 << 8 | UInt64($1) } : nil
        }
        switch tag {
        case UInt8(ascii: "i"): return number().map { .integer(Int64(bitPattern: $0)) } ?? .null
        case UInt8(ascii: "f"): return number().map { .real(Double(bitPattern: $0)) } ?? .null
        case UInt8(ascii: "s"): return String(bytes: payload, encoding: .utf8).map(SQLValue.text) ?? .null
        case UInt8(ascii: "b"): return .blob(Data(payload))
        default: return .null
        }
    }
}
