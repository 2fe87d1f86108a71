import GRDB

/// The tables in which Core Data keeps persistent history (`NSPersistentHistoryTrackingKey`), as
/// it writes them: learnt from the stores CoreDataPlus's tests wrote with history on
/// (`shared/stores/alemar11__CoreDataPlus/SampleModel2`, framework 1344), whose `sqlite_master`
/// these statements repeat. Three entities of Core Data's own, numbered from 16001 in
/// `Z_PRIMARYKEY` (`CHANGE`, `TRANSACTION`, `TRANSACTIONSTRING`), each in a table named with an
/// `A` prefix; a transaction's author, bundle, context and process names are kept once each in
/// `ATRANSACTIONSTRING` and referred to by key (the `…TS` columns).
///
/// Not learnt from a real file (no store here has an attribute that preserves its value in
/// history on deletion): the tombstone columns `ZTOMBSTONE0`, `ZTOMBSTONE1`, … that `ACHANGE`
/// has for such attributes, made as BLOB columns after `ZCOLUMNS` as the public notes on
/// Core Data's history tables show them (``PersistentHistoryColumns``).
package enum PersistentHistorySchema {
    /// The history tables' names; a store that has `ATRANSACTION` has history.
    package static let tableNames = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]

    /// `Z_PRIMARYKEY`'s rows for the history entities: number, name (no superentity).
    package static let entities: [(number: Int64, name: String)] = [(16001, "CHANGE"), (16002, "TRANSACTION"), (16003, "TRANSACTIONSTRING")]

    /// The tables (columns grouped by type, as Core Data orders them; with `count` tombstone columns) and indexes in `dialect`: Core Data's own
    /// statements for SQLite; for PostgreSQL the same tables in the types that hold the same
    /// values (``CoreDataSchema/columnType(_:dialect:)``; a tombstone cell is then a tagged
    /// BYTEA, see `PostgreSQLStore+History.swift`), without SQLite's collations.
    package static func creationStatements(dialect: SQLDialect, tombstoneColumns count: Int) -> [String] {
        let tables: [(name: String, columns: [(String, String)])] = [
            ("ACHANGE", [("ZCHANGETYPE", "INTEGER"), ("ZENTITY", "INTEGER"), ("ZENTITYPK", "INTEGER"), ("ZTRANSACTIONID", "INTEGER"), ("ZCOLUMNS", "BLOB")]
                + (0..<count).map { (PersistentHistoryColumns.tombstoneColumn($0), "BLOB") }),
            ("ATRANSACTION", [
                ("ZAUTHORTS", "INTEGER"), ("ZBUNDLEIDTS", "INTEGER"), ("ZCONTEXTNAMETS", "INTEGER"), ("ZPROCESSIDTS", "INTEGER"),
                ("ZTIMESTAMP", "FLOAT"), ("ZAUTHOR", "VARCHAR"), ("ZBUNDLEID", "VARCHAR"), ("ZCONTEXTNAME", "VARCHAR"),
                ("ZPROCESSID", "VARCHAR"), ("ZQUERYGEN", "BLOB"),
            ]),
            ("ATRANSACTIONSTRING", [("ZNAME", "VARCHAR")]),
        ]
        let integer = CoreDataSchema.columnType("INTEGER", dialect: dialect)
        var statements = tables.map { table in
            let columns = ["Z_PK \(integer) PRIMARY KEY", "Z_ENT \(integer)", "Z_OPT \(integer)"]
                + table.columns.map { "\($0.0) \(CoreDataSchema.columnType($0.1, dialect: dialect))" }
            return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
        }
        let binary = dialect == .sqlite ? " COLLATE BINARY ASC" : ""
        statements += [
            "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
            "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
            "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
            "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
            "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
            "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR\(binary))",
            "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP\(binary))",
            "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME\(binary))",
        ]
        return statements
    }

    /// Whether the store open on `db` has the history tables.
    static func isPresent(in db: Database) throws -> Bool {
        try db.tableExists("ATRANSACTION")
    }

    /// The `ZTOMBSTONE<n>` columns `ACHANGE` has, in order (stopping at the first missing).
    static func tombstoneColumns(in db: Database) throws -> [String] {
        let names = Set(try db.columns(in: "ACHANGE").map { $0.name.uppercased() })
        var columns: [String] = []
        while names.contains(PersistentHistoryColumns.tombstoneColumn(columns.count)) {
            columns.append(PersistentHistoryColumns.tombstoneColumn(columns.count))
        }
        return columns
    }

    /// Whether `create(in:tombstoneColumns:)` has anything to do.
    static func needsChange(in db: Database, tombstoneColumns count: Int) throws -> Bool {
        guard try isPresent(in: db) else { return true }
        return try tombstoneColumns(in: db).count < count
    }

    /// Makes the history tables and their `Z_PRIMARYKEY` rows in the store open on `db`, when
    /// it does not have them yet, with `count` tombstone columns. A store Core Data or this
    /// runtime made with history keeps its tables and rows as they are, and gets the tombstone
    /// columns it lacks (added at the end of `ACHANGE`, as BLOB).
    static func create(in db: Database, tombstoneColumns count: Int) throws {
        guard try !isPresent(in: db) else {
            let existing = try tombstoneColumns(in: db).count
            for position in existing..<max(count, existing) {
                try db.execute(sql: "ALTER TABLE ACHANGE ADD COLUMN \(PersistentHistoryColumns.tombstoneColumn(position)) BLOB")
            }
            return
        }
        for statement in creationStatements(dialect: .sqlite, tombstoneColumns: count) {
            try db.execute(sql: statement)
        }
        for entity in entities {
            try db.execute(
                sql: "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                arguments: [entity.number, entity.name])
        }
    }
}
