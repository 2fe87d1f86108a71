/// An error of the store's own that carries the error a statement failed with, so that the
/// server's SQLSTATE can be read through it (``PostgreSQLConnectionPool/sqlState(of:)``).
protocol WrapsStatementError: Error {
    var statementError: any Error { get }
}
