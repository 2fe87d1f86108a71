import ManagedObjects
import PostgresNIO

/// The engine's statements (``RelationalStoreEngine``) on a connection of the store's pool, in
/// the transaction it is in.
struct PostgreSQLExecutor: SQLExecutor {
    let pool: PostgreSQLConnectionPool
    let connection: PostgresConnection

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try pool.execute(sql, arguments, on: connection)
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        try pool.query(sql, arguments, on: connection).map { row in
            let cells = PostgresRandomAccessRow(row)
            return (0..<cells.count).map { PostgreSQLConnectionPool.value(cells[$0]) }
        }
    }

    /// Sends `statements` without waiting for them (``PostgreSQLConnectionPool/send(_:bindings:on:)``).
    func send(_ statements: [SQLStatement]) -> [EventLoopFuture<PostgresQueryResult>] {
        statements.map { pool.send($0.sql, bindings: PostgreSQLConnectionPool.bindings($0.arguments), on: connection) }
    }
}
