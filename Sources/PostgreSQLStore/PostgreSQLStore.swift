import Foundation
import ManagedObjects
import PostgresNIO

extension PersistentStoreType {
    /// A PostgreSQL database (``PostgreSQLStore``).
    public static let postgreSQL = PersistentStoreType(rawValue: "PostgreSQL")
}

/// A store in a PostgreSQL database, so several processes (on several machines) share one
/// object graph. Core Data's SQLite layout in PostgreSQL's types (the same `Z<ENTITY>` tables
/// and columns, decided in one place, `CoreDataSchema`), read and written by the engine the
/// SQLite store uses too (`RelationalStoreEngine`: row layouts and binding, to-manys, the
/// batch-delete walk) and fetches translated by its translator, in PostgreSQL's dialect; this
/// store adds the connections, the locking and saves in one transaction each.
///
/// - Keys come from one sequence per table (safe with many processes), not from
///   `Z_PRIMARYKEY`, which still names the entities and their numbers.
/// - Optimistic locking through `Z_OPT`: a save locks the rows it changes (`FOR UPDATE`) and
///   fails with `mergeConflict` (133020) when one is no longer at the version read.
/// - Uniqueness constraints are unique indexes: a save that breaks one fails with
///   `constraintConflict` (133021), changing nothing.
///
/// ```swift
/// let store = try PostgreSQLStore(model: model, url: URL(string: "postgres://app@127.0.0.1:5432/app")!)
/// coordinator.addPersistentStore(store)
/// ```
public final class PostgreSQLStore: PersistentStore, Sendable {
    public let identifier: String
    /// The database's URL, without its password.
    public let url: URL?
    public var type: PersistentStoreType { .postgreSQL }
    let pool: PostgreSQLConnectionPool
    /// Core Data's layout at work (``RelationalStoreEngine``, the SQLite store's): row layouts
    /// and reading, row binding, to-many reads and writes, the batch-delete walk.
    let engine: RelationalStoreEngine
    /// Where each entity and property lives (the engine's).
    var schema: CoreDataSchema { engine.schema }
    /// How history names an update's properties and keeps a deletion's preserved values.
    var historyColumns: PersistentHistoryColumns { engine.historyColumns }
    /// Each layout's INSERT and UPDATE with PostgreSQL's numbered parameters, by entity.
    private let rowStatements: [ObjectIdentifier: (insert: String, update: String)]
    /// Tells this store's own save notifications from other stores' (RemoteChanges.swift).
    let senderToken = UUID().uuidString
    /// The connection listening for other stores' saves, once observing, and who hears of them.
    let listener = LockedValue(RemoteChangeListening())
    /// Where those who hear of other stores' saves are called, never an event loop.
    let remoteChangeQueue = DispatchQueue(label: "PostgreSQLStore.remoteChanges")
    /// For a pinned view (``pinnedForReading()``): the transaction its reads go through.
    private let pinned: PinnedTransaction?
    /// `Z_METADATA`'s dictionary as saved, and as set for the next save.
    private let metadataState: StoreMetadataState
    /// Whether saves record persistent history (opened with `persistentHistoryTracking`).
    let recordsHistory: Bool
    public var recordsPersistentHistory: Bool { recordsHistory }

    /// A connection in a read-only REPEATABLE READ transaction: every read sees the database as
    /// it was at the transaction's first statement. Closing the connection ends it.
    private final class PinnedTransaction: Sendable {
        let connection: PostgresConnection
        init(connection: PostgresConnection) { self.connection = connection }
        deinit { PostgreSQLConnectionPool.close(connection) }
    }

    /// Opens the store in the database `url` names, creating Core Data's tables for `model`
    /// when the database has none. `url`: `postgres://user[:password]@host[:port]/database`,
    /// with `?sslmode=require` (or `prefer`) for TLS, `schema=name` for tables in a schema
    /// of their own (made when missing; the default is the user's search path) and
    /// `max_connections=N` for the most connections the store uses at once (10 by default),
    /// `statement_timeout=MS` for PostgreSQL's limit on each statement's time (milliseconds; a
    /// statement over it fails with 134070 naming it) and `connect_timeout=S` for how long
    /// opening a connection may take (seconds, 10 by default). Throws `ManagedObjectError` naming the
    /// database: `persistentStoreOpen` (134080) for a bad URL or a server that cannot be
    /// reached, `persistentStoreIncompatibleVersionHash` (134100) for tables of another model.
    ///
    /// With `migration`, a store written with an earlier one of its model versions is migrated
    /// first, in the opening transaction (``PostgreSQLStoreMigration``): 134100 when migration
    /// is off, 134140 when a mapping cannot be inferred, 134110 when the data does not fit the
    /// new version; the database is left as it was then.
    ///
    /// With `persistentHistoryTracking` (Core Data's `NSPersistentHistoryTrackingKey`), the
    /// database gets Core Data's persistent history tables when it lacks them, and every save
    /// and batch request records a transaction (`PostgreSQLStore+History.swift`).
    public init(model: ManagedObjectModel, url: URL, migration: StoreMigrationOptions? = nil, persistentHistoryTracking: Bool = false) throws {
        let settings = try Self.connectionSettings(from: url)
        let databaseSchema = settings.schema
        pool = PostgreSQLConnectionPool(settings)
        self.url = Self.withoutPassword(url)
        let pool = pool
        let opened = try pool.inTransaction { connection -> (identifier: String, numbers: [String: Int64]?, metadata: [String: Any]) in
            // Creating and migrating are not the statements the URL's limit is for; nor is waiting
            // for another process to finish them.
            if settings.statementTimeout != nil { try pool.execute("SET LOCAL statement_timeout = 0", on: connection) }
            // One process creates the schema and tables; the others wait here, then find them
            // (`CREATE SCHEMA IF NOT EXISTS` itself fails when two run at once).
            try pool.execute("SELECT pg_advisory_xact_lock(?)", [.integer(Self.creationLockKey)], on: connection)
            if let databaseSchema { try pool.execute("CREATE SCHEMA IF NOT EXISTS \(databaseSchema)", on: connection) }
            if let migration {
                try PostgreSQLStoreMigration.migrateIfNeeded(to: model, options: migration, pool: pool, connection: connection)
            }
            let opened: (identifier: String, numbers: [String: Int64]?, metadata: [String: Any])
            if let existing = try Self.inspectExistingStore(model: model, pool: pool, connection: connection, location: settings.location) {
                opened = existing
            } else {
                let identifier = UUID().uuidString
                try Self.create(model: model, identifier: identifier, pool: pool, connection: connection)
                opened = (identifier, nil, SQLiteStoreMetadata.dictionary(for: model, identifier: identifier, storeType: .postgreSQL))
            }
            if persistentHistoryTracking {
                let columns = PersistentHistoryColumns(model: model, schema: CoreDataSchema(model: model, existingNumbers: opened.numbers))
                try Self.createPersistentHistory(tombstoneColumns: columns.tombstoneColumnCount, pool: pool, connection: connection)
            }
            return opened
        }
        identifier = opened.identifier
        metadataState = StoreMetadataState(saved: opened.metadata)
        let schema = CoreDataSchema(model: model, existingNumbers: opened.numbers)
        recordsHistory = persistentHistoryTracking
        engine = RelationalStoreEngine(model: model, schema: schema, dialect: .postgreSQL, storeIdentifier: identifier)
        rowStatements = engine.layoutsByEntity.mapValues {
            (SQLDialect.numberingParameters($0.insertSQL), SQLDialect.numberingParameters($0.updateSQL))
        }
        pinned = nil
    }

    /// The store reading through `pinned`: the same database, schema and identifier.
    private init(_ store: PostgreSQLStore, pinned: PinnedTransaction) {
        identifier = store.identifier
        url = store.url
        pool = store.pool
        engine = store.engine
        rowStatements = store.rowStatements
        self.pinned = pinned
        metadataState = store.metadataState
        recordsHistory = store.recordsHistory
    }

    /// A view that reads the database as it is now, which later saves (of any process) do not
    /// change: a read-only REPEATABLE READ transaction on a connection of its own, held until
    /// the view goes. The view answers reads only.
    public func pinnedForReading() throws -> (any PersistentStore)? {
        let connection = try pool.openDedicatedConnection()
        let transaction = PinnedTransaction(connection: connection)
        do {
            try pool.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: connection)
            // The snapshot is taken at the transaction's first statement, not at BEGIN.
            try pool.execute("SELECT 1", on: connection)
        } catch {
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot pin a read of the PostgreSQL database \(pool.location): \(pool.describe(error))", underlying: error)
        }
        return PostgreSQLStore(self, pinned: transaction)
    }

    /// Lets coordinators and containers open PostgreSQL stores by type:
    /// `PersistentStoreDescription(type: .postgreSQL, url: URL(string: "postgres://…"))`; a
    /// description's `modelVersions` (and migration settings) migrate the store as an SQLite
    /// store's, and its `persistentHistoryTracking` keeps history as an SQLite store's.
    public static func registerStoreType() {
        PersistentStoreCoordinator.registerStoreType(.postgreSQL, migratingOpener: { model, url, migration, persistentHistoryTracking in
            guard let url else { throw ManagedObjectError(.persistentStoreOpen, "a PostgreSQL store needs a postgres:// URL") }
            return try PostgreSQLStore(model: model, url: url, migration: migration, persistentHistoryTracking: persistentHistoryTracking)
        })
    }

    /// Closes the store's connections; it is not used afterwards.
    public func close() {
        stopObservingRemoteChanges()
        pool.close()
    }

    deinit {
        stopObservingRemoteChanges()
        // A pinned view shares its store's pool.
        if pinned == nil { pool.close() }
    }

    // MARK: Opening

    /// An arbitrary constant: the advisory lock key of store creation.
    private static let creationLockKey: Int64 = 0x4D47_5047_5354_4F52

    /// What a store URL says: how to connect, where (for messages), the schema, and how many
    /// connections the store may hold at once.
    struct ConnectionSettings {
        var configuration: PostgresConnection.Configuration
        /// `host:port/database` (and `?schema=`), never the password.
        var location: String
        var schema: String?
        /// `max_connections=N`: at most N connections in use at once (a call beyond waits for
        /// one to come back, 30 s at most). The listener of remote changes and each context
        /// pinned to a query generation have one more of their own.
        var maximumConnections: Int
        /// `statement_timeout=MS`: PostgreSQL's setting, in milliseconds, sent when each
        /// connection starts (0: none, PostgreSQL's default).
        var statementTimeout: Int?
    }

    static let defaultMaximumConnections = 10

    static func connectionSettings(from url: URL) throws -> ConnectionSettings {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
              let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty else {
            throw ManagedObjectError(
                .persistentStoreOpen, "\(withoutPassword(url)?.absoluteString ?? "the URL") is not a PostgreSQL URL (postgres://user@host:port/database)")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let port = url.port ?? 5432
        let location = "\(host):\(port)/\(database)"
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let sslMode = query.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case "disable":
            tls = .disable
        case "prefer", "require":
            do {
                let context = try NIOSSLContext(configuration: .makeClientConfiguration())
                tls = sslMode == "prefer" ? .prefer(context) : .require(context)
            } catch {
                throw ManagedObjectError(.persistentStoreOpen, "cannot set up TLS for the PostgreSQL database \(location): \(error)", underlying: error)
            }
        default:
            throw ManagedObjectError(.persistentStoreOpen, "\(location): sslmode \(sslMode) is not one of disable, prefer, require")
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: url.password?.removingPercentEncoding,
            database: database.isEmpty ? nil : database, tls: tls)
        let schema = query.first { $0.name == "schema" }?.value
        if let schema {
            // Named in SQL text: a plain identifier only.
            guard let first = schema.unicodeScalars.first, first == "_" || (first.isASCII && CharacterSet.letters.contains(first)),
                  schema.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && CharacterSet.alphanumerics.contains($0)) }) else {
                throw ManagedObjectError(.persistentStoreOpen, "\(location): schema \(schema) is not a plain identifier (letters, digits, _)")
            }
            configuration.options.additionalStartupParameters.append(("search_path", schema))
        }
        /// The whole number `name` gives, at least `minimum`; `nil` when the URL has no `name`.
        func number(_ name: String, minimum: Int) throws -> Int? {
            guard let text = query.first(where: { $0.name == name })?.value else { return nil }
            guard let number = Int(text), number >= minimum else {
                throw ManagedObjectError(
                    .persistentStoreOpen, "\(location): \(name) \(text) is not a whole number\(minimum > 0 ? " above 0" : " (0 or more)")")
            }
            return number
        }
        let maximumConnections = try number("max_connections", minimum: 1) ?? defaultMaximumConnections
        let statementTimeout = try number("statement_timeout", minimum: 0)
        if let statementTimeout { configuration.options.additionalStartupParameters.append(("statement_timeout", String(statementTimeout))) }
        if let connectTimeout = try number("connect_timeout", minimum: 1) { configuration.options.connectTimeout = .seconds(Int64(connectTimeout)) }
        return ConnectionSettings(
            configuration: configuration, location: location + (schema.map { "?schema=\($0)" } ?? ""), schema: schema,
            maximumConnections: maximumConnections, statementTimeout: statementTimeout)
    }

    private static func withoutPassword(_ url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.password = nil
        return components.url
    }

    /// The store's UUID and entity numbers when the database has Core Data's tables; `nil`
    /// when it has none. Throws when they are not `model`'s.
    private static func inspectExistingStore(
        model: ManagedObjectModel, pool: PostgreSQLConnectionPool, connection: PostgresConnection, location: String
    ) throws -> (identifier: String, numbers: [String: Int64]?, metadata: [String: Any])? {
        let present = try pool.query("SELECT to_regclass('z_metadata') IS NOT NULL", on: connection)
        guard let row = present.first, (try? row.decode(Bool.self)) == true else { return nil }
        let metadata = try pool.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1", on: connection)
        guard let first = metadata.first, case let cells = PostgresRandomAccessRow(first),
              let identifier = try? cells[0].decode(String.self) else {
            throw ManagedObjectError(.persistentStoreIncompatibleSchema, "the PostgreSQL database \(location) has no store metadata (Z_METADATA is empty)")
        }
        var dictionary = PostgreSQLConnectionPool.value(cells[1]).dataValue.flatMap {
            try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any]
        } ?? [:]
        dictionary["NSStoreUUID"] = identifier
        var numbersByName: [String: Int64] = [:]
        for row in try pool.query("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY", on: connection) {
            if let (name, number) = try? row.decode((String, Int64).self) { numbersByName[name] = number }
        }
        // Unquoted names are folded to lower case by PostgreSQL.
        var columns: [String: Set<String>] = [:]
        for row in try pool.query(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()", on: connection) {
            if let (table, column) = try? row.decode((String, String).self) { columns[table.uppercased(), default: []].insert(column.uppercased()) }
        }
        let numbers = try RelationalStoreEngine.checkTables(
            of: model, numbersByStoredName: numbersByName, store: "the PostgreSQL database \(location)") { columns[$0] }
        return (identifier, numbers, dictionary)
    }

    /// Creates `model`'s tables, key sequences and metadata (a migration's new tables too).
    /// `keeping`: the metadata of the store a migration replaces, whose app keys stay.
    static func create(
        model: ManagedObjectModel, identifier: String, pool: PostgreSQLConnectionPool, connection: PostgresConnection, keeping kept: [String: Any] = [:]
    ) throws {
        let plist = try SQLiteStoreMetadata.propertyList(for: model, identifier: identifier, storeType: .postgreSQL, keeping: kept)
        for statement in RelationalStoreEngine.creationStatements(
            schema: CoreDataSchema(model: model), model: model, dialect: .postgreSQL, identifier: identifier, plist: plist) {
            try pool.execute(statement.sql, statement.arguments, on: connection)
        }
    }

    // MARK: Reading

    public func execute(_ request: StoreRequest) throws -> StoreResult {
        let plan = SQLStatementPlan(request, schema: schema, dialect: .postgreSQL)
        if let countStatement = plan.countStatement {
            let total = try read { connection in
                try pool.query(countStatement, plan.arguments, on: connection).first.flatMap { try? $0.decode(Int64.self) } ?? 0
            }
            return .count(request.window(0..<Int(total)).count)
        }
        let snapshots = try read { connection in
            try pool.query(plan.statement, plan.arguments, on: connection).compactMap { try storedObject($0, connection: connection) }
        }
        return try plan.rest.evaluate(over: snapshots, graph: graph)
    }

    /// Everything but a block, which needs managed objects.
    public func canEvaluate(_ predicate: ObjectPredicate) -> Bool {
        !predicate.containsBlock
    }

    /// Related objects as evaluation reads them.
    private var graph: SnapshotSubject.Graph { SnapshotSubject.Graph(reading: self) }

    public func snapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        guard objectID.storeIdentifier == identifier, let number = objectID.storeNumber else { return nil }
        return try read { connection in
            let rows = try pool.query(engine.rowQuery(of: objectID.entity), [.integer(number)], on: connection)
            return try rows.first.flatMap { try storedObject($0, connection: connection) }
        }
    }

    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try read { connection in
            try engine.relatedObjectIDs(of: objectID, relationship: relationship, on: PostgreSQLExecutor(pool: pool, connection: connection))
        }
    }

    /// A read on a connection of the pool; the server's errors become `persistentStoreOperation`
    /// (134070) errors naming the database.
    private func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            if let pinned { return try body(pinned.connection) }
            // A save resolving its conflicts reads what its transaction sees, on its connection.
            if let saving = Self.savingConnection, saving.store == ObjectIdentifier(self) { return try body(saving.connection) }
            return try pool.read(body)
        } catch let error as ManagedObjectError {
            throw error
        } catch {
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot read the PostgreSQL database \(pool.location): \(pool.describe(error))", underlying: error)
        }
    }

    func permanentID(entity: EntityDescription, number: Int64) -> ManagedObjectID {
        ManagedObjectID.permanent(entity: entity, storeIdentifier: identifier, number: number)
    }

    /// A row of ``CoreDataSchema/selectClause(_:dialect:)`` as a stored object; `nil` for an
    /// entity number the model does not know.
    private func storedObject(_ row: PostgresRow, connection: PostgresConnection) throws -> StoredObject? {
        let cells = PostgresRandomAccessRow(row)
        return try engine.rowReader.storedObject(
            column: { $0 < cells.count ? PostgreSQLConnectionPool.value(cells[$0]) : .null },
            entityNumber: { table, key in
                try pool.query("SELECT Z_ENT FROM \(table) WHERE Z_PK = ?", [.integer(key)], on: connection)
                    .first.flatMap { try? $0.decode(Int64.self) }
            })
    }

    // MARK: Writing

    /// Numbers from the table's sequence: never handed out twice, whichever process asks.
    public func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID] {
        guard count > 0 else { return [] }
        try refuseWritesToPinnedView()
        let sequence = schema.keySequence(of: schema.table(of: entity))
        let keys = try read { connection in
            try pool.query("SELECT nextval('\(sequence)') FROM generate_series(1, ?)", [.integer(Int64(count))], on: connection)
                .compactMap { try? $0.decode(Int64.self) }
        }
        guard keys.count == count else {
            throw ManagedObjectError(.persistentStoreOperation, "the PostgreSQL database \(pool.location) gave \(keys.count) keys for \(count)")
        }
        return keys.sorted().map { permanentID(entity: entity, number: $0) }
    }

    /// The metadata of `Z_METADATA.Z_PLIST` with `NSStoreUUID` from `Z_UUID`, as read at open or
    /// last saved, or as set since; setting it writes `Z_PLIST` with the next save
    /// (``PersistentStore/metadata``).
    public var metadata: [String: Any] {
        get { metadataState.current }
        set { metadataState.set(newValue, type: type, identifier: identifier) }
    }

    /// Replaces `Z_PLIST` with `metadata` in the transaction of `connection`; `Z_UUID` stays.
    private func writeMetadata(_ metadata: [String: Any], connection: PostgresConnection) throws {
        let row = try pool.query("SELECT Z_VERSION, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1", on: connection).first
        guard let row, case let cells = PostgresRandomAccessRow(row), let version = try? cells[0].decode(Int64.self) else {
            throw ManagedObjectError(.persistentStoreIncompatibleSchema, "the PostgreSQL database \(pool.location) has no store metadata (Z_METADATA is empty)")
        }
        let plist = try SQLiteStoreMetadata.propertyList(
            of: metadata, storedPropertyList: PostgreSQLConnectionPool.value(cells[1]).dataValue,
            store: pool.location)
        try pool.execute("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = ?", [.blob(plist), .integer(version)], on: connection)
    }

    public func save(_ changes: StoreChangeSet) throws {
        try save(changes) { $0 }
    }

    /// Applies `changes` in one transaction. It first takes the uniqueness-constrained values of
    /// the changed objects (PostgreSQLStore+LockOrder.swift) and checks the versions of the rows it
    /// changes (133020 before 133021, as in Core Data), then hands the change set to
    /// `resolveConstraintConflicts` (a context's merge policy, reading through this transaction),
    /// and writes what that returns: another process cannot store the same values in between.
    public func save(
        _ changes: StoreChangeSet, resolvingConstraintConflicts resolve: (StoreChangeSet) throws -> StoreChangeSet
    ) throws {
        let unsavedMetadata = metadataState.unsaved
        guard !changes.isEmpty || unsavedMetadata != nil else { return }
        try refuseWritesToPinnedView()
        // The change set as last resolved: a transaction run again starts from it.
        var changes = changes
        do {
            try pool.inRetriedTransaction { connection in
                let held = try lockConstrainedValues(of: changes, holding: [], connection: connection)
                // Version conflicts come before constraint conflicts, as in Core Data.
                let checked = try checkVersions(of: Self.versionsRead(by: changes), connection: connection)
                if !held.isEmpty {
                    changes = try Self.$savingConnection.withValue((ObjectIdentifier(self), connection)) { try resolve(changes) }
                    _ = try lockConstrainedValues(of: changes, holding: held, connection: connection)
                    // Objects the resolution merged into were read inside this transaction.
                    try checkVersions(of: Self.versionsRead(by: changes).filter { !checked.contains($0) }, connection: connection)
                }
                if let unsavedMetadata { try writeMetadata(unsavedMetadata.metadata, connection: connection) }
                let tombstones = try historyTombstones(of: changes.deleted.map(\.objectID), connection: connection)
                var writes: [EventLoopFuture<PostgresQueryResult>] = []
                // The object each row statement writes, to name the one a unique index refuses.
                var writers: [ManagedObjectID] = []
                // Rows in one order in every process (keys, and new rows by their constrained
                // values), so that two saves wait on each other's rows rather than deadlock.
                for deleted in changes.deleted.sorted(by: Self.lockOrder) {
                    writes += delete(deleted.objectID, connection: connection)
                }
                let firstRowWrite = writes.count
                for object in changes.updated.sorted(by: Self.lockOrder) {
                    let sent = try write(object, version: object.version + 1, inserting: false, connection: connection)
                    writes += sent
                    writers += repeatElement(object.objectID, count: sent.count)
                }
                for object in Self.inLockOrder(changes.inserted) {
                    let sent = try write(object, version: object.version, inserting: true, connection: connection)
                    writes += sent
                    writers += repeatElement(object.objectID, count: sent.count)
                }
                do {
                    try pool.waitForAll(writes)
                } catch let failed as PostgreSQLConnectionPool.FailedStatement {
                    let index = failed.position - firstRowWrite
                    throw RowWriteError(objectID: writers.indices.contains(index) ? writers[index] : nil, error: failed.error)
                }
                try pool.waitForAll(writeToManys(of: [changes.updated, changes.inserted], connection: connection))
                if recordsHistory && !changes.isEmpty {
                    try recordHistory(
                        historyRows.records(of: changes, tombstones: tombstones), author: changes.transactionAuthor,
                        contextName: changes.contextName, connection: connection)
                }
                try pool.waitForAll(notifications(of: changes, connection: connection))
            }
            if let unsavedMetadata { metadataState.didSave(unsavedMetadata) }
        } catch let error as ManagedObjectError {
            throw error
        } catch let failed as RowWriteError {
            if let error = PostgreSQLConnectionPool.serverError(of: failed.error, withState: "23505") {
                throw constraintConflict(error, objectID: failed.objectID)
            }
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot save to the PostgreSQL database \(pool.location): \(pool.describe(failed.error))",
                entityName: failed.objectID?.entity.name, objectID: failed.objectID)
        } catch let failed as PostgreSQLConnectionPool.FailedStatement {
            if let error = PostgreSQLConnectionPool.serverError(of: failed.error, withState: "23505") {
                throw constraintConflict(error, objectID: nil)
            }
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot save to the PostgreSQL database \(pool.location): \(pool.describe(failed.error))")
        } catch {
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot save to the PostgreSQL database \(pool.location): \(pool.describe(error))", underlying: error)
        }
    }

    // MARK: Batch requests

    /// The rows as new objects, saved as a context's inserts are (one transaction, 133021 for a
    /// row breaking a uniqueness constraint, nothing written then). With
    /// `updatesObjectsOnConstraintConflict`, a row whose constrained values a stored object (or
    /// an earlier row) has updates that object instead.
    public func batchInsert(_ request: StoreBatchInsert) throws -> StoreBatchOutcome {
        if request.updatesObjectsOnConstraintConflict { return try upsert(request) }
        let ids = try obtainPermanentIDs(for: request.entity, count: request.rowCount)
        let empty = request.entity.properties.map(\.emptyStoredValue)
        var changes = StoreChangeSet()
        changes.transactionAuthor = request.transactionAuthor
        changes.contextName = request.contextName
        changes.inserted = ids.enumerated().map { row, objectID in
            var values = empty
            for (column, attribute) in request.attributes.enumerated() {
                values[attribute.index] = .attribute(request.value(row: row, column: column))
            }
            return StoredObject(objectID: objectID, version: 1, values: values)
        }
        try save(changes)
        return StoreBatchOutcome(count: ids.count, objectIDs: request.returnsObjectIDs ? ids : nil)
    }

    /// `batchInsert` upserting by constraint: row by row, each row's object found by its
    /// constrained values among the rows before it, then in the database; saved as one change
    /// set (a stored object changed meanwhile fails it with 133020).
    private func upsert(_ request: StoreBatchInsert) throws -> StoreBatchOutcome {
        let constraints = UniquenessIndex.Constraint.applicable(to: request.entity)
        // Keys for every row; those of rows that update an object go unused (a sequence has gaps).
        let newIDs = try obtainPermanentIDs(for: request.entity, count: request.rowCount)
        let empty = request.entity.properties.map(\.emptyStoredValue)
        var objects: [StoredObject] = []
        var stored: Set<Int> = []
        var owners: [Int: [[AnyHashable]: Int]] = [:]
        var rowObjects: [Int] = []
        for row in 0..<request.rowCount {
            var candidate = StoredObject(objectID: newIDs[row], version: 1, values: empty)
            for (column, attribute) in request.attributes.enumerated() {
                candidate.values[attribute.index] = .attribute(request.value(row: row, column: column))
            }
            var found: Int?
            for (position, constraint) in constraints.enumerated() {
                if let key = constraint.key(of: candidate), let owner = owners[position]?[key] {
                    found = owner
                    break
                }
            }
            if found == nil {
                for constraint in constraints {
                    if let owner = try storedOwner(of: candidate, under: constraint) {
                        found = objects.count
                        stored.insert(objects.count)
                        objects.append(owner)
                        break
                    }
                }
            }
            let index: Int
            if let found {
                index = found
                for (column, attribute) in request.attributes.enumerated() {
                    objects[index].values[attribute.index] = .attribute(request.value(row: row, column: column))
                }
            } else {
                index = objects.count
                objects.append(candidate)
            }
            for (position, constraint) in constraints.enumerated() {
                if let key = constraint.key(of: objects[index]) { owners[position, default: [:]][key] = index }
            }
            rowObjects.append(index)
        }
        var changes = StoreChangeSet()
        changes.transactionAuthor = request.transactionAuthor
        changes.contextName = request.contextName
        let written = request.attributes.map(\.index)
        changes.updatedPropertyIndexes = [:]
        for (index, object) in objects.enumerated() {
            if stored.contains(index) {
                changes.updated.append(object)
                changes.updatedPropertyIndexes?[object.objectID] = written
            } else {
                changes.inserted.append(object)
            }
        }
        try save(changes)
        let ids = rowObjects.map { objects[$0].objectID }
        return StoreBatchOutcome(count: ids.count, objectIDs: ids)
    }

    /// The stored object holding `object`'s values under `constraint`; `nil` when none does or
    /// one of the values is nil (nil is never a conflict).
    private func storedOwner(of object: StoredObject, under constraint: UniquenessIndex.Constraint) throws -> StoredObject? {
        let storage = schema.storage[object.objectID.entity.name] ?? []
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        for index in constraint.indexes {
            guard storage.indices.contains(index), case .attribute(let column, let type) = storage[index],
                  case .attribute(let value?) = object.values[index] else { return nil }
            conditions.append("\(SQLPredicateTranslator.tableAlias).\(column) = ?")
            arguments.append(try CoreDataValues.cell(
                of: value, property: object.objectID.entity.properties[index], type: type, objectID: object.objectID))
        }
        let table = schema.table(of: object.objectID.entity)
        return try read { connection in
            let rows = try pool.query(
                "\(schema.selectClause(table, dialect: .postgreSQL)) FROM \(table.name) \(SQLPredicateTranslator.tableAlias) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1",
                arguments, on: connection)
            return try rows.first.flatMap { try storedObject($0, connection: connection) }
        }
    }

    /// The matching objects with the new values, saved as a context's updates are: one
    /// transaction, each object's version checked (133020 when another process changed one
    /// since it was read) and increased, nothing written when a value or a constraint fails.
    public func batchUpdate(_ request: StoreBatchUpdate) throws -> StoreBatchOutcome {
        let matching = StoreRequest(
            entity: request.entity, includesSubentities: request.includesSubentities, predicate: request.predicate, resultType: .snapshots)
        guard case .snapshots(let objects) = try execute(matching) else { return StoreBatchOutcome(count: 0, objectIDs: nil) }
        var probe: SnapshotSubject?
        var changes = StoreChangeSet()
        changes.transactionAuthor = request.transactionAuthor
        changes.contextName = request.contextName
        let written = request.values.map(\.attribute.index)
        changes.updatedPropertyIndexes = Dictionary(objects.map { ($0.objectID, written) }, uniquingKeysWith: { first, _ in first })
        for object in objects {
            var updated = object
            for (attribute, value) in request.values {
                updated.values[attribute.index] = .attribute(
                    try value.value(for: attribute, of: object, subject: SnapshotSubject.point(&probe, at: object, graph: graph)))
            }
            changes.updated.append(updated)
        }
        try save(changes)
        return StoreBatchOutcome(count: objects.count, objectIDs: request.returnsObjectIDs ? objects.map(\.objectID) : nil)
    }

    func refuseWritesToPinnedView() throws {
        guard pinned != nil else { return }
        throw ManagedObjectError(.persistentStoreOperation, "a pinned view of the PostgreSQL database \(pool.location) answers reads only")
    }

    /// Locks the updated and deleted rows and throws `mergeConflict` when one's `Z_OPT` is not
    /// the version read.
    /// The version of each object `changes` updates or deletes, as the saving context read it.
    private static func versionsRead(by changes: StoreChangeSet) -> [VersionRead] {
        changes.updated.map { VersionRead(objectID: $0.objectID, version: $0.version) }
            + changes.deleted.map { VersionRead(objectID: $0.objectID, version: $0.version) }
    }

    struct VersionRead: Hashable {
        var objectID: ManagedObjectID
        var version: Int
    }

    /// Locks the rows of `expected` and throws 133020 for those no longer at the version read;
    /// returns what it checked.
    @discardableResult
    private func checkVersions(of expected: [VersionRead], connection: PostgresConnection) throws -> Set<VersionRead> {
        guard !expected.isEmpty else { return [] }
        // One query per table: the versions of every row the save changes, locked until it ends.
        var stored: [ManagedObjectID: Int] = [:]
        let byTable = Dictionary(grouping: expected) { schema.table(of: $0.objectID.entity).name }
        for (table, objects) in byTable.sorted(by: { $0.key < $1.key }) {
            let keys = objects.compactMap(\.objectID.storeNumber)
            let objectsByKey = Dictionary(objects.map { ($0.objectID.storeNumber ?? 0, $0.objectID) }, uniquingKeysWith: { first, _ in first })
            let rows = try pool.query(
                "SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK IN (\(keys.map { _ in "?" }.joined(separator: ", "))) ORDER BY Z_PK FOR UPDATE",
                keys.map(SQLValue.integer), on: connection)
            for row in rows {
                if let (key, version) = try? row.decode((Int64, Int64?).self), let objectID = objectsByKey[key] {
                    stored[objectID] = version.map(Int.init) ?? 0
                }
            }
        }
        let conflicts = expected.compactMap { read in
            stored[read.objectID] == read.version ? nil : (objectID: read.objectID, read: read.version, stored: stored[read.objectID])
        }
        if let error = ManagedObjectError.versionConflicts(conflicts) { throw error }
        return Set(expected)
    }

    private func delete(_ objectID: ManagedObjectID, connection: PostgresConnection) -> [EventLoopFuture<PostgresQueryResult>] {
        guard let key = objectID.storeNumber else { return [] }
        let row = SQLStatement("DELETE FROM \(schema.table(of: objectID.entity).name) WHERE Z_PK = ?", [.integer(key)])
        return PostgreSQLExecutor(pool: pool, connection: connection).send([row] + engine.joinRowDeletions(of: objectID.entity, key: key))
    }

    /// Inserts or updates an object's row: its attributes and to-one keys.
    private func write(
        _ object: StoredObject, version: Int, inserting: Bool, connection: PostgresConnection
    ) throws -> [EventLoopFuture<PostgresQueryResult>] {
        let entity = object.objectID.entity
        guard let layout = engine.layout(of: entity), let statements = rowStatements[ObjectIdentifier(entity)],
              let key = object.objectID.storeNumber else { return [] }
        var bindings = PostgresBindings(capacity: layout.writtenColumns.count + 3)
        try engine.forEachParameter(of: object, key: key, version: version, inserting: inserting, layout: layout) { parameter in
            switch parameter {
            case .value(let value):
                PostgreSQLConnectionPool.append(value, to: &bindings)
            case .attribute(nil, _, _):
                bindings.appendNull()
            case .attribute(let decimal as Decimal, _, .decimal):
                // NUMERIC, which takes no text parameter.
                try bindings.append(decimal)
            case .attribute(let value?, let index, let type):
                let property = layout.entity.properties[index]
                let cell = try CoreDataValues.cell(of: value, property: property, type: type, objectID: object.objectID)
                if case .text(let text) = cell, text.utf8.contains(0) {
                    // PostgreSQL's text holds no NUL: refused here, naming the attribute, not by the server.
                    throw ManagedObjectError(
                        .validation, "the PostgreSQL store cannot keep a string holding a NUL character (U+0000): \(entity.name).\(property.name)",
                        entityName: entity.name, objectID: object.objectID, key: property.name)
                }
                PostgreSQLConnectionPool.append(cell, to: &bindings)
            case .compositeElement(let cell, let type):
                if type == .decimal, case .text(let text) = cell, let decimal = Decimal(string: text) {
                    try bindings.append(decimal)
                } else {
                    PostgreSQLConnectionPool.append(cell, to: &bindings)
                }
            }
        }
        return [pool.send(numbered: inserting ? statements.insert : statements.update, bindings: bindings, on: connection)]
    }

    /// Writes the loaded to-manys of saved objects (``RelationalStoreEngine/toManyWrites(of:)``).
    private func writeToManys(of lists: [[StoredObject]], connection: PostgresConnection) -> [EventLoopFuture<PostgresQueryResult>] {
        PostgreSQLExecutor(pool: pool, connection: connection).send(engine.toManyWrites(of: lists))
    }

    /// A row's INSERT or UPDATE that failed, and the object it wrote.
    private struct RowWriteError: WrapsStatementError {
        var objectID: ManagedObjectID?
        var error: any Error
        var statementError: any Error { error }
    }

    /// A unique index violation as Core Data reports it (133021), naming the constrained keys of
    /// the index the server names.
    private func constraintConflict(_ error: PSQLError, objectID: ManagedObjectID?) -> ManagedObjectError {
        guard let (index, entity) = error.serverInfo?[.constraintName].flatMap(engine.uniqueIndex(named:)) else {
            return ManagedObjectError(
                .constraintConflict, "a uniqueness constraint of the PostgreSQL database \(pool.location) would be broken: \(pool.describe(error))", underlying: error)
        }
        return engine.constraintConflict(entity: entity, columns: index.columns, objectID: objectID)
    }
}
