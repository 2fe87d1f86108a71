
/// A statement as ``RelationalStoreEngine`` writes it for a store to run: SQL with `?`
/// parameters, and their values in order.
package struct SQLStatement {
    package var sql: String
    package var arguments: [SQLValue]

    package init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}
