
/// How ``RelationalStoreEngine`` reaches a database: a store's connection, inside the store's
/// transaction. Parameters are `?` in both dialects (PostgreSQL's executor numbers them).
package protocol SQLExecutor {
    /// Runs `sql`, a statement that returns no rows, its `?` parameters bound to `arguments`.
    func execute(_ sql: String, _ arguments: [SQLValue]) throws
    /// The rows `sql` returns, each as its cells in column order.
    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]]
}
