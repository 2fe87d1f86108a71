import GRDB

/// The engine's statements (``RelationalStoreEngine``) on a GRDB connection, in its transaction,
/// each statement prepared once per connection.
struct SQLiteExecutor: SQLExecutor {
    let db: Database

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments))
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)).map { row in
            (0..<row.count).map(row.sqlValue)
        }
    }

    func run(_ statements: [SQLStatement]) throws {
        for statement in statements { try execute(statement.sql, statement.arguments) }
    }
}
