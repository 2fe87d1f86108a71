import Foundation
import Logging
import ManagedObjects
import PostgresNIO

/// Connections to one PostgreSQL database for the store's synchronous calls.
///
/// The store seam is synchronous (a context's queue waits for its store), postgres-nio is
/// asynchronous. The bridge uses postgres-nio's `EventLoopFuture` interface and waits for the
/// future on the calling thread: the work runs on NIO's event loops, never on Swift's
/// cooperative pool, so a caller blocking on it (even from a task) cannot starve the thread
/// the answer needs. A call from an event-loop thread would wait on itself: it throws instead.
///
/// At most `maximumConnections` connections are in use at once: a call beyond waits for one to
/// come back, up to `connectionWaitTimeout`, then throws (a server has a limit for all its
/// clients). Idle connections are kept for the next call (up to `maximumIdle`); a transaction
/// keeps its connection until it commits or rolls back.
///
/// A connection that dies (the server restarted, the network dropped it) is closed and never
/// handed out again; the next call opens a new one, so the store carries on once the server is
/// back. A read that lost its connection runs once more (``read(_:)``); a transaction that lost
/// it before its COMMIT was sent runs again whole (``inRetriedTransaction(_:)``); one that lost
/// it after is reported as of unknown outcome, never run again.
final class PostgreSQLConnectionPool: Sendable {
    let configuration: PostgresConnection.Configuration
    /// Where the URL points, for messages (never the password).
    let location: String
    let maximumConnections: Int
    /// `statement_timeout` of the URL, in milliseconds, for messages.
    let statementTimeout: Int?
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    /// For retried transactions; the other logger, postgres-nio's, is kept quiet.
    private let transactionLogger = Logger(label: "ManagedObjects.PostgreSQLStore.transactions")
    private let state = LockedValue(State())
    private let maximumIdle: Int
    /// One permit per connection that may be in use.
    private let permits: DispatchSemaphore
    /// How long a call waits for a connection when all are in use.
    let connectionWaitTimeout: TimeInterval

    private struct State {
        var idle: [PostgresConnection] = []
        var nextID = 1
        var closed = false
        /// Whether a connection was ever opened: a failure to connect is an open error before.
        var connected = false
    }

    init(_ settings: PostgreSQLStore.ConnectionSettings, connectionWaitTimeout: TimeInterval = 30) {
        self.connectionWaitTimeout = connectionWaitTimeout
        configuration = settings.configuration
        location = settings.location
        maximumConnections = settings.maximumConnections
        statementTimeout = settings.statementTimeout
        maximumIdle = min(8, settings.maximumConnections)
        permits = DispatchSemaphore(value: settings.maximumConnections)
        eventLoopGroup = MultiThreadedEventLoopGroup.singleton
        var logger = Logger(label: "ManagedObjects.PostgreSQLStore")
        logger.logLevel = .critical
        self.logger = logger
    }

    /// Runs `body` with a connection of the pool.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try take()
        do {
            let result = try body(connection)
            giveBack(connection)
            return result
        } catch {
            giveBack(connection, reusable: !Self.lostConnection(error))
            throw error
        }
    }

    /// ``withConnection(_:)`` for a read, run once more on a new connection when its connection
    /// died under it (a read changes nothing, so running it again is safe).
    func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try withConnection(body)
        } catch where Self.lostConnection(error) {
            return try withConnection(body)
        }
    }

    /// Runs `body` in a transaction (``inTransaction(_:)``), and again, whole, when PostgreSQL
    /// ends it with a deadlock (40P01) or a serialization failure (40001): both roll the
    /// transaction back and ask the client to run it again. So too when its connection died
    /// before COMMIT was sent: the server rolled it back. At most `maximumTransactionRuns`
    /// runs, with a random pause between them that doubles each time (5–20 ms first), so that
    /// the processes that met do not meet again; the last run's error is the one thrown. Each
    /// retry is logged at debug level (label `ManagedObjects.PostgreSQLStore.transactions`).
    func inRetriedTransaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        var run = 1
        while true {
            do {
                return try inTransaction(body)
            } catch {
                let reason = Self.lostConnection(error)
                    ? "connection lost" : Self.sqlState(of: error).flatMap { Self.retryableStates.contains($0) ? "SQLSTATE \($0)" : nil }
                guard run < Self.maximumTransactionRuns, let reason else { throw error }
                let pause = Double.random(in: 0.005...0.020) * Double(1 << (run - 1))
                transactionLogger.debug("transaction run again", metadata: [
                    "reason": "\(reason)", "run": "\(run + 1)", "pause_ms": "\(Int(pause * 1000))", "database": "\(location)",
                ])
                Thread.sleep(forTimeInterval: pause)
                run += 1
            }
        }
    }

    /// Runs of one transaction ``inRetriedTransaction(_:)`` makes at most.
    static let maximumTransactionRuns = 8
    /// The SQLSTATEs of a transaction PostgreSQL asks to be run again.
    static let retryableStates: Set<String> = ["40001", "40P01"]

    /// The error a statement failed with, behind the store's wrappers.
    static func statementError(of error: any Error) -> any Error {
        (error as? any WrapsStatementError).map { statementError(of: $0.statementError) } ?? error
    }

    /// The server's error behind `error`, wrapped or not.
    static func serverError(of error: any Error) -> PSQLError? {
        statementError(of: error) as? PSQLError
    }

    /// Whether `error` (wrapped or not) says the statement's connection is gone: closed by the
    /// server or the network, or ended by the server shutting down (57P01–57P03, and class 08).
    static func lostConnection(_ error: any Error) -> Bool {
        let error = statementError(of: error)
        if error is ClosedConnection { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .uncleanShutdown, .connectionError:
            return true
        case .server:
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }

    /// A statement not sent because its connection was closed already (postgres-nio would
    /// never answer a statement sent on a connection it has torn down).
    struct ClosedConnection: Error, CustomStringConvertible {
        var description: String { "the connection was closed" }
    }

    /// The server's error behind `error` when its SQLSTATE is `state`.
    static func serverError(of error: any Error, withState state: String) -> PSQLError? {
        serverError(of: error).flatMap { $0.serverInfo?[.sqlState] == state ? $0 : nil }
    }

    /// The SQLSTATE of the server's error behind `error`, wrapped or not.
    static func sqlState(of error: any Error) -> String? {
        serverError(of: error)?.serverInfo?[.sqlState]
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A
    /// connection lost once COMMIT was sent leaves the outcome unknown: that throws
    /// `persistentStoreOperation` saying so, which no retry runs again.
    func inTransaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try execute("BEGIN", on: connection)
            do {
                let result = try body(connection)
                do {
                    try execute("COMMIT", on: connection)
                } catch where Self.lostConnection(error) && !(Self.statementError(of: error) is ClosedConnection) {
                    throw ManagedObjectError(
                        .persistentStoreOperation,
                        "the connection to the PostgreSQL database \(location) was lost after COMMIT was sent: whether the transaction was committed is unknown (\(describe(error)))", underlying: error)
                }
                return result
            } catch {
                // A connection whose rollback fails is closed: it is not given back in a transaction.
                do { try execute("ROLLBACK", on: connection) } catch { Self.close(connection) }
                throw error
            }
        }
    }

    /// The rows of `sql`, its `?` parameters bound to `arguments`.
    func query(_ sql: String, _ arguments: [SQLValue] = [], on connection: PostgresConnection) throws -> [PostgresRow] {
        try query(sql, bindings: Self.bindings(arguments), on: connection)
    }

    func query(_ sql: String, bindings: PostgresBindings, on connection: PostgresConnection) throws -> [PostgresRow] {
        try wait(send(sql, bindings: bindings, on: connection)).rows
    }

    /// Sends a statement without waiting for it: statements sent one after another on a
    /// connection run in order, the next sent while the server runs the one before.
    func send(_ sql: String, bindings: PostgresBindings, on connection: PostgresConnection) -> EventLoopFuture<PostgresQueryResult> {
        send(numbered: SQLDialect.numberingParameters(sql), bindings: bindings, on: connection)
    }

    /// `send` of a statement whose parameters are numbered already (a row statement, numbered
    /// once for every row it writes).
    func send(numbered sql: String, bindings: PostgresBindings, on connection: PostgresConnection) -> EventLoopFuture<PostgresQueryResult> {
        guard !connection.isClosed else { return eventLoopGroup.any().makeFailedFuture(ClosedConnection()) }
        return connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
    }

    func execute(_ sql: String, _ arguments: [SQLValue] = [], on connection: PostgresConnection) throws {
        _ = try query(sql, arguments, on: connection)
    }

    /// Waits for futures sent in order; throws the first one's error (later statements of a
    /// failed transaction fail only because of it), as a ``FailedStatement`` naming its position.
    func waitForAll(_ futures: [EventLoopFuture<PostgresQueryResult>]) throws {
        var firstError: FailedStatement?
        for (position, future) in futures.enumerated() {
            do {
                _ = try wait(future)
            } catch {
                if firstError == nil { firstError = FailedStatement(position: position, error: error) }
            }
        }
        if let firstError { throw firstError }
    }

    /// The error of the statement at `position` of those ``waitForAll(_:)`` waited for.
    struct FailedStatement: WrapsStatementError {
        var position: Int
        var error: any Error
        var statementError: any Error { error }
    }

    func wait<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
            throw ManagedObjectError(
                .persistentStoreOperation,
                "the PostgreSQL store \(location) was called on an event-loop thread, which its answer needs: call it from another thread")
        }
        return try future.wait()
    }

    /// A new connection of its own (a listener's), which the caller closes.
    func openDedicatedConnection() throws -> PostgresConnection {
        try connect(id: state.withLock { state in
            state.nextID += 1
            return state.nextID
        })
    }

    /// A connection and its permit: an idle one, else a new one.
    private func take() throws -> PostgresConnection {
        guard permits.wait(timeout: .now() + connectionWaitTimeout) == .success else {
            throw ManagedObjectError(
                .persistentStoreOperation,
                "all \(maximumConnections) connections of the PostgreSQL store \(location) stayed in use for \(connectionWaitTimeout) s (raise max_connections in the store URL)")
        }
        do {
            let (closed, connection, id) = state.withLock { state -> (Bool, PostgresConnection?, Int) in
                guard !state.closed else { return (true, nil, 0) }
                // Connections the server closed while idle (a restart closes them all) go.
                state.idle.removeAll { $0.isClosed }
                if let connection = state.idle.popLast() { return (false, connection, 0) }
                state.nextID += 1
                return (false, nil, state.nextID)
            }
            guard !closed else { throw ManagedObjectError(.persistentStoreOperation, "the PostgreSQL store \(location) is closed") }
            if let connection { return connection }
            return try connect(id: id)
        } catch {
            permits.signal()
            throw error
        }
    }

    /// A new connection; a failure is `persistentStoreOpen` (134080) until one was opened, then
    /// `persistentStoreOperation` (134070): the server went away after the store opened.
    private func connect(id: Int) throws -> PostgresConnection {
        do {
            let connection = try self.wait(PostgresConnection.connect(
                on: eventLoopGroup.any(), configuration: configuration, id: id, logger: logger))
            state.withLock { $0.connected = true }
            return connection
        } catch let error as ManagedObjectError {
            throw error
        } catch {
            throw ManagedObjectError(
                state.withLock { $0.connected } ? .persistentStoreOperation : .persistentStoreOpen,
                "cannot connect to the PostgreSQL database \(location): \(describe(error))", underlying: error)
        }
    }

    /// Keeps `connection` for the next call (or closes it, when it is not `reusable`: its
    /// connection was lost) and returns its permit.
    private func giveBack(_ connection: PostgresConnection, reusable: Bool = true) {
        let surplus = state.withLock { state -> PostgresConnection? in
            guard reusable, !state.closed, !connection.isClosed, state.idle.count < maximumIdle else { return connection }
            state.idle.append(connection)
            return nil
        }
        if let surplus { Self.close(surplus) }
        permits.signal()
    }

    /// Closes every idle connection; later calls throw.
    func close() {
        for connection in closeAll() {
            if (try? wait(connection.close() as EventLoopFuture<Void>)) == nil { Self.close(connection) }
        }
    }

    /// Closes `connection` without waiting, keeping it until it is closed (postgres-nio wants
    /// a connection closed before it goes).
    static func close(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Marks the pool closed and hands out its idle connections.
    private func closeAll() -> [PostgresConnection] {
        state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
    }

    deinit {
        // A store that failed to open goes without `close()`: its connections still close.
        for connection in closeAll() { Self.close(connection) }
    }

    // MARK: Values

    /// Statement arguments in PostgreSQL's binary form, of the types the schema's columns
    /// hold (``CoreDataSchema/columnType(_:dialect:)``).
    static func bindings(_ arguments: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { append(argument, to: &bindings) }
        return bindings
    }

    static func append(_ value: SQLValue, to bindings: inout PostgresBindings) {
        switch value {
        case .null: bindings.appendNull()
        case .integer(let integer): bindings.append(integer)
        case .real(let double): bindings.append(double)
        case .text(let string): bindings.append(string)
        case .blob(let data): bindings.append(ByteBuffer(bytes: data))
        }
    }

    /// A column of a row as the value kinds the SQLite store reads (``CoreDataValues``), so both
    /// stores turn columns into attribute values in one place; `.null` for a value of a type
    /// the schema does not use.
    static func value(_ cell: PostgresCell) -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8:
            return (try? cell.decode(Int64.self)).map(SQLValue.integer) ?? .null
        case .float4, .float8:
            return (try? cell.decode(Double.self)).map(SQLValue.real) ?? .null
        case .bytea:
            return (try? cell.decode(ByteBuffer.self)).map { .blob(Data($0.readableBytesView)) } ?? .null
        case .bool:
            return (try? cell.decode(Bool.self)).map { .integer($0 ? 1 : 0) } ?? .null
        default:
            return (try? cell.decode(String.self)).map(SQLValue.text) ?? .null
        }
    }

    /// An error of the server (its message and SQLSTATE) or of the connection.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
            }
            let code = lostConnection(error) ? "the connection to the server was lost (\(error.code))" : "\(error.code)"
            return error.underlying.map { "\(code): \($0)" } ?? code
        }
        return "\(error)"
    }

    /// ``describe(_:)``, naming the URL's `statement_timeout` for a statement it cancelled.
    func describe(_ error: any Error) -> String {
        let description = Self.describe(Self.statementError(of: error))
        guard let statementTimeout, Self.sqlState(of: error) == "57014" else { return description }
        return description + " (statement_timeout=\(statementTimeout) ms in the store URL)"
    }
}
