import DataModel
import Foundation
import GRDB

/// A store in an SQLite file laid out as Core Data lays it out (`CoreDataSchema`), so a file
/// Core Data wrote opens here and the other way round. Core Data's `NSSQLiteStoreType`. What
/// it shares with the PostgreSQL store (row layouts and binding, to-manys, the batch-delete
/// walk) is `RelationalStoreEngine`'s; this store adds the file, its connections and locking.
///
/// The file is a GRDB `DatabasePool` in WAL mode: reads run beside a save and see the last
/// completed one; each save is one write transaction (all or nothing, also across a crash).
///
/// A fetch is SQL as far as `SQLPredicateTranslator` can make it answer exactly as the
/// in-memory evaluator: the predicate as the WHERE, the sorts as ORDER BY, the window as
/// LIMIT/OFFSET, a count as COUNT(*) (`fetchPlan(for:)`). What does not translate is evaluated
/// in memory over the rows read (`StoreRequest.evaluate(over:graph:)`, as the in-memory store
/// does), those rows narrowed by the parts that do translate. To-many relationships come
/// unloaded (``StoredValue/toManyFault``) and are read on use.
public final class SQLiteStore: PersistentStore, Sendable {
    public let identifier: String
    public let url: URL?
    public var type: PersistentStoreType { .sqlite }
    let pool: DatabasePool
    /// Core Data's layout at work (``RelationalStoreEngine``): row layouts, row binding, to-many
    /// reads and writes, the batch-delete walk.
    let engine: RelationalStoreEngine
    /// Where each entity and property lives (the engine's).
    var schema: CoreDataSchema { engine.schema }
    /// How history names an update's properties and keeps a deletion's preserved values.
    var historyColumns: PersistentHistoryColumns { engine.historyColumns }
    /// Rows into stored objects, by entity number (`Z_ENT`): the engine's, at hand for each row.
    let rowReader: SQLRowReader
    /// Where fetches read: the pool, or a snapshot of it for a pinned view (`pinnedForReading()`).
    private let reader: any DatabaseReader
    /// Where Binary attributes that allow external storage keep large values.
    let externalData: ExternalBinaryData
    /// `Z_METADATA`'s dictionary as saved, and as set for the next save.
    private let metadataState: StoreMetadataState
    /// Whether saves record persistent history (the store was opened with
    /// `persistentHistoryTracking`): one `ATRANSACTION` row and one `ACHANGE` row per object.
    let recordsHistory: Bool
    public var recordsPersistentHistory: Bool { recordsHistory }

    /// Opens the store at `url`, creating it for `model` when there is no file (or an empty
    /// one). Throws `ManagedObjectError` naming the file: `persistentStoreOpen` (134080) for a
    /// file that is not SQLite or is corrupt, `persistentStoreIncompatibleSchema` (134020) for
    /// an SQLite file that is not a Core Data store, `persistentStoreIncompatibleVersionHash`
    /// (134100) for a store whose entities or columns are not the model's. A store that fails
    /// to open is left as it was: it is checked through a read-only connection first.
    ///
    /// With `migration` (a container passes its description's options and model versions), a
    /// store written with another version of the model is migrated first (``SQLiteStoreMigration``).
    ///
    /// With `persistentHistoryTracking` (Core Data's `NSPersistentHistoryTrackingKey`), the store
    /// has Core Data's persistent history tables, made when it is created or, for a store
    /// without them, when it is opened. Either way, a store that has them (as Core Data wrote
    /// them) keeps them and their rows, and every save and batch request records a
    /// transaction in them (see Docs/RuntimeDifferences.md for what is inferred).
    ///
    /// `pragmas` (Core Data's `NSSQLitePragmasOption`: `["synchronous": "OFF"]`) are set on every
    /// connection as it opens (see ``SQLitePragmas``).
    public convenience init(
        model: ManagedObjectModel, url: URL, migration: SQLiteStoreMigration.Options? = nil, persistentHistoryTracking: Bool = false,
        pragmas: SQLitePragmas = SQLitePragmas()
    ) throws {
        try self.init(
            model: model, url: url, migration: migration, persistentHistoryTracking: persistentHistoryTracking,
            pragmas: pragmas, externalDataDirectory: nil)
    }

    /// `externalDataDirectory`: where external binary data is, when not in the store's own
    /// support folder (a migration reading a copy of the store reads the store's files).
    init(
        model: ManagedObjectModel, url: URL, migration: SQLiteStoreMigration.Options? = nil, persistentHistoryTracking: Bool = false,
        pragmas: SQLitePragmas = SQLitePragmas(), externalDataDirectory: URL?
    ) throws {
        self.url = url
        externalData = externalDataDirectory.map(ExternalBinaryData.init(directory:)) ?? ExternalBinaryData(storeAt: url)
        let path = url.path
        let size = Self.fileSize(atPath: path)
        var existing: ExistingStore?
        if let size, size > 0 {
            do {
                // Migration hook: a store of another model version becomes one of this model first.
                if let migration { try SQLiteStoreMigration.migrateIfNeeded(storeAt: url, to: model, options: migration) }
                existing = try Self.inspectExistingStore(at: path, model: model)
                if !Self.isInWALMode(path) { try Self.rehearseOpeningWrite(at: path) }
            } catch let error as ManagedObjectError
                where error.code == .persistentStoreIncompatibleSchema && Self.isInWALMode(path)
                && SQLiteStoreMetadata.holdsNoSchema(at: path) {
                // A WAL-mode database without a table: what a creation leaves when its process
                // dies after the pool made the file and before the one transaction that makes
                // the tables commits. It holds nothing, so the store is created in it (in WAL
                // mode, a creation that fails in turn leaves the file as it was).
            }
        }
        let schema = CoreDataSchema(model: model, existingNumbers: existing?.numbers)
        let historyColumns = PersistentHistoryColumns(model: model, schema: schema)
        var configuration = Configuration()
        configuration.label = "SQLiteStore"
        let checkpointer = WALCheckpointer()
        configuration.prepareDatabase { db in
            try SQLPredicateTranslator.register(in: db)
            DerivedAttributeTriggers.register(in: db)
            SQLDebugLog.install(on: db)
            checkpointer.install(on: db)
            try pragmas.apply(to: db)
        }
        configuration.busyMode = .timeout(10) // another coordinator's save: wait, as Core Data does
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot open the SQLite store \(path): \(error)", underlying: error)
        }
        checkpointer.attach(to: pool)
        if let existing {
            identifier = existing.identifier
            metadataState = StoreMetadataState(saved: existing.metadata)
            if persistentHistoryTracking {
                try Self.addPersistentHistory(to: pool, path: path, tombstoneColumns: historyColumns.tombstoneColumnCount)
            }
        } else {
            let identifier = UUID().uuidString
            self.identifier = identifier
            try Self.create(schema: schema, model: model, identifier: identifier, in: pool, path: path,
                            persistentHistoryTracking: persistentHistoryTracking)
            metadataState = StoreMetadataState(saved: SQLiteStoreMetadata.dictionary(for: model, identifier: identifier))
        }
        engine = RelationalStoreEngine(
            model: model, schema: schema, dialect: .sqlite, storeIdentifier: identifier,
            columnsKeptBySQL: existing?.columnsKeptBySQL ?? [], externalData: externalData)
        rowReader = engine.rowReader
        reader = pool
        recordsHistory = persistentHistoryTracking
    }

    /// The size of the file at `path` (not following a symbolic link, as `attributesOfItem`
    /// does not), `nil` when there is none. `lstat` alone: `attributesOfItem` also looks up the
    /// owner and group by name, and `resourceValues` costs more still, each as much as a failed
    /// open's SQL.
    static func fileSize(atPath path: String) -> Int? {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    // MARK: Query generations (pinned reads)

    /// The store reading through `snapshot`: the same file, schema and identifier.
    private init(_ store: SQLiteStore, readingFrom snapshot: DatabaseSnapshot) {
        identifier = store.identifier
        url = store.url
        pool = store.pool
        engine = store.engine
        rowReader = store.rowReader
        reader = snapshot
        externalData = store.externalData
        metadataState = store.metadataState
        recordsHistory = store.recordsHistory
    }

    /// A view reading a GRDB `DatabaseSnapshot` of the file (a read transaction held open on
    /// its own connection), which later saves do not change.
    public func pinnedForReading() throws -> (any PersistentStore)? {
        do {
            return SQLiteStore(self, readingFrom: try pool.makeSnapshot())
        } catch {
            throw ManagedObjectError(.persistentStoreOperation, "cannot pin a query generation of \(url?.path ?? ""): \(error)", underlying: error)
        }
    }

    // MARK: Opening

    /// What opening an existing file learns before anything may change it.
    private struct ExistingStore {
        var identifier: String
        /// Entity numbers by model entity name.
        var numbers: [String: Int64]
        var metadata: [String: Any]
        /// The columns Core Data's `Z_DA_` triggers keep.
        var columnsKeptBySQL: Set<String>
    }

    /// Checks, without changing anything, that the file is a Core Data SQLite store with the
    /// model's entities and columns, and reads what the store needs of it. Everything read here
    /// is read before the pool's open turns a rollback-journal file to WAL, so a schema SQLite
    /// cannot parse fails the open with the file as it was.
    private static func inspectExistingStore(at path: String, model: ManagedObjectModel) throws -> ExistingStore {
        try SQLiteStoreMetadata.readStore(at: path) { db in
            guard let metadata = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"),
                  let identifier = (metadata.convertible("Z_UUID") as String?) else {
                throw ManagedObjectError(.persistentStoreIncompatibleSchema, "\(path) has no store metadata (Z_METADATA is empty)")
            }
            if let plist = (metadata.convertible("Z_PLIST") as Data?),
               let dictionary = try? PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any],
               let storeType = dictionary["NSStoreType"] as? String, storeType != PersistentStoreType.sqlite.rawValue {
                throw ManagedObjectError(.persistentStoreInvalidType, "\(path) says it is a store of type \(storeType), not SQLite")
            }
            let numbers = try RelationalStoreEngine.checkTables(
                of: model, numbersByStoredName: try SQLiteStoreMetadata.primaryKeys(db).mapValues(\.number), store: path
            ) { table in
                try db.tableExists(table) ? Set(try db.columns(in: table).map { $0.name.uppercased() }) : nil
            }
            return ExistingStore(
                identifier: identifier, numbers: numbers, metadata: try SQLiteStoreMetadata.read(db),
                columnsKeptBySQL: try DerivedAttributeTriggers.maintainedColumns(in: db))
        }
    }

    /// Whether the file's header says WAL (read and write versions 2, bytes 18 and 19), as
    /// opening the pool leaves it; a rollback-journal file is turned into a WAL one by the open.
    private static func isInWALMode(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 20), header.count == 20 else { return false }
        return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }

    /// Opening the pool turns a rollback-journal file into a WAL one (a change to its header),
    /// then writes to it (GRDB's `setUpWALMode` creates and drops a table). A damaged page that
    /// only a write reaches (the schema's b-tree, the free list) fails that write, and the open
    /// with it, after the header changed. So such a file first gets the same write in a
    /// transaction that is rolled back, which leaves it byte for byte as it was; only its
    /// first open pays for it, since the open leaves the file in WAL mode.
    private static func rehearseOpeningWrite(at path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try queue.inTransaction(.immediate) { db in
                try db.execute(sql: "CREATE TABLE grdb_issue_102 (id INTEGER PRIMARY KEY); DROP TABLE grdb_issue_102")
                return .rollback
            }
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot open the SQLite store \(path): \(error)", underlying: error)
        }
    }

    /// Makes the schema, the key allocator and the metadata of a new store, and with
    /// `persistentHistoryTracking` Core Data's history tables (``PersistentHistorySchema``).
    /// `keeping`: the metadata of the store a migration replaces, whose app keys stay.
    static func create(
        schema: CoreDataSchema, model: ManagedObjectModel, identifier: String, in pool: some DatabaseWriter, path: String,
        persistentHistoryTracking: Bool = false, keeping kept: [String: Any] = [:]
    ) throws {
        let plist = try SQLiteStoreMetadata.propertyList(for: model, identifier: identifier, keeping: kept)
        do {
            // Core Data's stores use incremental auto-vacuum, which must be set before any table.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA auto_vacuum = 2") }
            try pool.write { db in
                for statement in RelationalStoreEngine.creationStatements(
                    schema: schema, model: model, dialect: .sqlite, identifier: identifier, plist: plist) {
                    try db.execute(sql: statement.sql, arguments: StatementArguments(statement.arguments))
                }
                if persistentHistoryTracking {
                    try PersistentHistorySchema.create(
                        in: db, tombstoneColumns: PersistentHistoryColumns(model: model, schema: schema).tombstoneColumnCount)
                }
            }
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot create the SQLite store \(path): \(error)", underlying: error)
        }
    }

    /// Adds Core Data's history tables to a store opened with history tracking that has none
    /// (one transaction; a store that has them keeps them and their rows, and gets the
    /// tombstone columns the model needs and its `ACHANGE` lacks).
    private static func addPersistentHistory(to pool: DatabasePool, path: String, tombstoneColumns: Int) throws {
        do {
            guard try pool.read({ try PersistentHistorySchema.needsChange(in: $0, tombstoneColumns: tombstoneColumns) }) else { return }
            try pool.write { try PersistentHistorySchema.create(in: $0, tombstoneColumns: tombstoneColumns) }
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot add the persistent history tables to the SQLite store \(path): \(error)", underlying: error)
        }
    }

    /// Closes the file (a migration through a mapping model, done with its stores, before the
    /// files are moved); the store is not used afterwards.
    func close() throws {
        try pool.close()
    }

    /// The metadata dictionary of `Z_METADATA.Z_PLIST`, with `NSStoreUUID` from `Z_UUID`:
    /// as read at open (or last saved), or as set since. Setting it writes `Z_PLIST` with the
    /// next save (``PersistentStore/metadata``); until then the file keeps its plist byte for byte.
    public var metadata: [String: Any] {
        get { metadataState.current }
        set { metadataState.set(newValue, type: type, identifier: identifier) }
    }

    // MARK: Reading

    public func execute(_ request: StoreRequest) throws -> StoreResult {
        let plan = fetchPlan(for: request)
        if let countStatement = plan.countStatement {
            let total = try read { db in
                try Int.fetchOne(db, sql: countStatement, arguments: StatementArguments(plan.arguments)) ?? 0
            }
            return .count(request.window(0..<total).count)
        }
        let snapshots = try read { db in
            try storedObjects(plan.statement, arguments: StatementArguments(plan.arguments), db: db)
        }
        return try plan.rest.evaluate(over: snapshots, graph: graph)
    }

    /// The stored objects of the rows `sql` selects (the columns of ``selectClause(_:)``), read
    /// through a cursor: each row becomes a snapshot as it is stepped to, never a copied GRDB row.
    func storedObjects(_ sql: String, arguments: StatementArguments, db: Database) throws -> [StoredObject] {
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var snapshots: [StoredObject] = []
        try withExtendedLifetime(rows) {
            while try rows.next() != nil {
                if let snapshot = try storedObject(statement, db: db) { snapshots.append(snapshot) }
            }
        }
        return snapshots
    }

    /// How a request is answered in SQL (``SQLStatementPlan``, shared with other SQL stores).
    typealias FetchPlan = SQLStatementPlan

    func fetchPlan(for request: StoreRequest) -> FetchPlan {
        SQLStatementPlan(request, schema: schema, dialect: .sqlite)
    }

    /// Everything but a block, which needs managed objects.
    public func canEvaluate(_ predicate: ObjectPredicate) -> Bool {
        !predicate.containsBlock
    }

    /// Related objects as evaluation reads them.
    private var graph: SnapshotSubject.Graph { SnapshotSubject.Graph(reading: self) }

    /// Related objects as evaluation reads them inside a transaction on `db` (a batch request's).
    func graph(in db: Database) -> SnapshotSubject.Graph {
        SnapshotSubject.Graph(
            snapshot: { [self] in try? snapshot(for: $0, db: db) },
            relatedObjectIDs: { [self] in (try? relatedObjectIDs(of: $0, relationship: $1, db: db)) ?? [] })
    }

    public func snapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        try read { db in try snapshot(for: objectID, db: db) }
    }

    func snapshot(for objectID: ManagedObjectID, db: Database) throws -> StoredObject? {
        guard objectID.storeIdentifier == identifier, let number = objectID.storeNumber else { return nil }
        let statement = try db.cachedStatement(sql: engine.rowQuery(of: objectID.entity))
        // The cursor stays alive while the row is read: it resets the statement when it goes.
        let rows = try Row.fetchCursor(statement, arguments: [number])
        return try withExtendedLifetime(rows) {
            try rows.next() == nil ? nil : storedObject(statement, db: db)
        }
    }

    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try read { db in try relatedObjectIDs(of: objectID, relationship: relationship, db: db) }
    }

    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription, db: Database) throws -> [ManagedObjectID] {
        try engine.relatedObjectIDs(of: objectID, relationship: relationship, on: SQLiteExecutor(db: db))
    }

    /// The ID of a `Z_PK, Z_ENT` row; `nil` when either is NULL or the number names no entity
    /// (a damaged store: such rows are left out, never trapped on).
    func storedID(_ row: Row) -> ManagedObjectID? {
        engine.objectID(key: row.convertible(0), entityNumber: row.convertible(1))
    }

    /// A read through `reader`; SQLite's own errors (a damaged page found late, an I/O error)
    /// become Core Data's `NSSQLiteError` (134180), naming the file.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try reader.read(body)
        } catch let error as DatabaseError {
            throw ManagedObjectError(.sqlite, "cannot read the SQLite store \(url?.path ?? ""): \(error)", underlying: error)
        }
    }

    func permanentID(entity: EntityDescription, number: Int64) -> ManagedObjectID {
        ManagedObjectID(entity: entity, key: .permanent(storeIdentifier: identifier, number: number))
    }

    /// The columns of `table`'s rows as ``storedObject(_:db:)`` reads them.
    func selectClause(_ table: CoreDataSchema.Table) -> String {
        schema.selectClause(table, dialect: .sqlite)
    }

    /// The row of `selectClause(table)` that `statement` (stepped by a cursor) is on, as a
    /// stored object; `nil` for an entity number the model does not know. Columns are read
    /// from the statement itself: a GRDB row decodes a `DatabaseValue` through generic code.
    func storedObject(_ statement: Statement, db: Database, keepingUndecodableTransformables: Bool = false) throws -> StoredObject? {
        let sqliteStatement = statement.sqliteStatement
        return try rowReader.storedObject(
            column: { SQLiteStatementCells.value(of: sqliteStatement, at: $0) },
            entityNumber: { [self] in try entityNumber(ofRow: $1, in: $0, db: db) },
            keepingUndecodableTransformables: keepingUndecodableTransformables)
    }

    /// `Z_ENT` of the row `key` of `table`: which sub-entity a to-one names when its row does not say.
    func entityNumber(ofRow key: Int64, in table: String, db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(table) WHERE Z_PK = ?"), arguments: [key])
    }

    // MARK: Writing

    /// Numbers from the root entity's `Z_PRIMARYKEY.Z_MAX`, as Core Data allocates them.
    public func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID] {
        guard count > 0 else { return [] }
        let keys = try pool.write { db in try reserveKeys(count, for: entity, db: db) }
        return keys.map { permanentID(entity: entity, number: $0) }
    }

    /// Reserves `count` keys for new rows of `entity`'s table from its root's `Z_MAX`, never
    /// below the table's highest key: a damaged or hand-edited allocator (`Z_MAX` behind the
    /// rows, or NULL) must not hand out keys that are taken.
    func reserveKeys(_ count: Int, for entity: EntityDescription, db: Database) throws -> ClosedRange<Int64> {
        guard let root = schema.entityNumbers[entity.rootEntity.name] else {
            throw ManagedObjectError(.persistentStoreOperation, "\(url?.path ?? ""): the store has no entity \(entity.rootEntity.name)")
        }
        return try reserveKeys(count, table: schema.table(of: entity).name, entityNumber: root, db: db)
    }

    /// Reserves `count` keys for new rows of `table` from `Z_PRIMARYKEY.Z_MAX` of `root`.
    func reserveKeys(_ count: Int, table: String, entityNumber root: Int64, db: Database) throws -> ClosedRange<Int64> {
        try db.execute(sql: """
            UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(IFNULL(Z_MAX, 0), (SELECT IFNULL(MAX(Z_PK), 0) FROM \(table))) + ? WHERE Z_ENT = ?
            """, arguments: [count, root])
        let last = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? Int64(count)
        return last - Int64(count) + 1...last
    }

    public func save(_ changes: StoreChangeSet) throws {
        let unsavedMetadata = metadataState.unsaved
        guard !changes.isEmpty || unsavedMetadata != nil else { return }
        let external = ExternalBinaryDataSave(externalData)
        try external.run { try write(changes, metadata: unsavedMetadata?.metadata, external: external) }
        if let unsavedMetadata { metadataState.didSave(unsavedMetadata) }
    }

    /// A save's transaction; `external` gets the external files it writes and releases.
    private func write(_ changes: StoreChangeSet, metadata: [String: Any]?, external: ExternalBinaryDataSave) throws {
        try pool.write { db in
            if let metadata { try SQLiteStoreMetadata.write(metadata, db, store: url?.path ?? identifier) }
            try readPreviousExternalCells(of: changes, into: external, db: db)
            let tombstones = recordsHistory ? try historyTombstones(of: changes.deleted.map(\.objectID), db: db) : [:]
            // Optimistic locking as Core Data's statements do it: each UPDATE and DELETE names
            // the version read, and one that finds no row at that version is a conflict. (A
            // SELECT of each version first cost a one-object save more than its UPDATE.)
            var conflicts = SaveConflicts()
            for deleted in changes.deleted {
                try delete(deleted.objectID, readVersion: deleted.version, db: db, conflicts: &conflicts)
                external.releaseAll(of: deleted.objectID)
            }
            try updateRows(of: changes.updated, db: db, conflicts: &conflicts, external: external)
            try conflicts.throwIfAny(storedVersion: { try storedVersion(of: $0, db: db) })
            try insertRows(of: changes.inserted, db: db, external: external)
            try writeToManys(of: [changes.updated, changes.inserted], db: db)
            if recordsHistory && !changes.isEmpty { try recordHistory(of: changes, tombstones: tombstones, db: db) }
            // Keys handed out elsewhere (or by hand) never come back from the allocator: one
            // update per root entity, with its highest key saved.
            // Found by entity identity, then by root entity number: a name look-up per object
            // cost more than the rest of this bookkeeping. New objects come grouped by entity,
            // so each group's highest key is kept at hand and recorded when the entity changes.
            var highestByEntity: [ObjectIdentifier: (entity: EntityDescription, key: Int64)] = [:]
            var current: (entity: EntityDescription, key: Int64)?
            func record(_ highest: (entity: EntityDescription, key: Int64)) {
                Self.raise(&highestByEntity[ObjectIdentifier(highest.entity), default: highest].key, to: highest.key)
            }
            // By position: only the IDs are read, not a copy of each object (whose retain and
            // release would touch every snapshot once more).
            for position in changes.inserted.indices {
                let objectID = changes.inserted[position].objectID
                guard let key = objectID.storeNumber else { continue }
                let entity = objectID.entity
                if let group = current, group.entity === entity {
                    current?.key = max(group.key, key)
                } else {
                    current.map(record)
                    current = (entity, key)
                }
            }
            current.map(record)
            var highest: [Int64: Int64] = [:]
            for (entity, key) in highestByEntity.values {
                guard let root = schema.entityNumbers[entity.rootEntity.name] else { continue }
                highest[root] = max(highest[root] ?? key, key)
            }
            for (root, number) in highest {
                try db.cachedStatement(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(Z_MAX, ?) WHERE Z_ENT = ?")
                    .execute(arguments: [number, root])
            }
        }
    }

    /// The external-storage cells of the rows a save changes or deletes, before it does.
    private func readPreviousExternalCells(of changes: StoreChangeSet, into external: ExternalBinaryDataSave, db: Database) throws {
        for deleted in changes.deleted {
            guard let layout = engine.layout(of: deleted.objectID.entity),
                  !layout.externalBinaryColumns.isEmpty else { continue }
            try external.readPreviousCells(of: CollectionOfOne(deleted.objectID), layout: layout, db: db)
        }
        try forEachRunOfOneEntity(in: changes.updated) { layout, rows in
            guard !layout.externalBinaryColumns.isEmpty else { return }
            try external.readPreviousCells(of: rows.map { changes.updated[$0.position].objectID }, layout: layout, db: db)
        }
    }

    private static func raise(_ highest: inout Int64, to key: Int64) {
        if key > highest { highest = key }
    }

    /// What the version-checked statements of a save found: rows no longer at the version
    /// read, and the first uniqueness violation of an update. The version conflicts are
    /// reported first, all of them, as a check of every version before any write would.
    private struct SaveConflicts {
        var updated: [(objectID: ManagedObjectID, readVersion: Int)] = []
        var deleted: [(objectID: ManagedObjectID, readVersion: Int)] = []
        var firstConstraintConflict: ManagedObjectError?

        /// Throws the version conflicts (`ManagedObjectError.versionConflicts`), with the
        /// store's versions read now, or else the constraint conflict.
        func throwIfAny(storedVersion: (ManagedObjectID) throws -> Int?) throws {
            let versions = try (updated + deleted).map { objectID, readVersion in
                (objectID: objectID, read: readVersion, stored: try storedVersion(objectID))
            }
            if let error = ManagedObjectError.versionConflicts(versions) { throw error }
            if let firstConstraintConflict { throw firstConstraintConflict }
        }
    }

    /// The version (`Z_OPT`) of an object's row, `nil` when it has none.
    private func storedVersion(of objectID: ManagedObjectID, db: Database) throws -> Int? {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT Z_OPT FROM \(schema.table(of: objectID.entity).name) WHERE Z_PK = ?"),
            arguments: [objectID.storeNumber])
    }

    /// Deletes an object's row and its join-table rows, when the row is at the version read.
    private func delete(_ objectID: ManagedObjectID, readVersion: Int, db: Database, conflicts: inout SaveConflicts) throws {
        try db.cachedStatement(sql: "DELETE FROM \(schema.table(of: objectID.entity).name) WHERE Z_PK = ? AND Z_OPT = ?")
            .execute(arguments: [objectID.storeNumber, readVersion])
        guard db.changesCount == 1 else {
            conflicts.deleted.append((objectID, readVersion))
            return
        }
        if let key = objectID.storeNumber {
            try SQLiteExecutor(db: db).run(engine.joinRowDeletions(of: objectID.entity, key: key))
        }
    }

    /// Calls `body` for each run of objects of one entity (a save's objects come grouped by
    /// entity, so a run shares its statements) with the entity's layout and the run's objects
    /// that have a key of this store (their positions in `objects`, with the keys); an
    /// object without one has no row here.
    private func forEachRunOfOneEntity(
        in objects: [StoredObject], _ body: (SQLRowLayout, [(position: Int, key: Int64)]) throws -> Void
    ) rethrows {
        var runStart = objects.startIndex
        while runStart < objects.endIndex {
            let entity = objects[runStart].objectID.entity
            var runEnd = runStart + 1
            while runEnd < objects.endIndex, objects[runEnd].objectID.entity === entity { runEnd += 1 }
            if let layout = engine.layout(of: entity) {
                try body(layout, (runStart..<runEnd).compactMap { position in
                    objects[position].objectID.storeNumber.map { (position: position, key: $0) }
                })
            }
            runStart = runEnd
        }
    }

    /// Inserts the rows of new objects, `SQLRowLayout.rowsPerInsert` at a time by one
    /// multi-row INSERT: each execution of a statement cost SQLite and GRDB more than binding
    /// a row does.
    private func insertRows(of objects: [StoredObject], db: Database, external: ExternalBinaryDataSave) throws {
        try forEachRunOfOneEntity(in: objects) { layout, rows in
            for first in stride(from: rows.startIndex, to: rows.endIndex, by: layout.rowsPerInsert) {
                try insertChunk(rows[first..<min(first + layout.rowsPerInsert, rows.endIndex)], of: objects, layout: layout, db: db, external: external)
            }
        }
    }

    /// Updates the rows of changed objects, each only while at the version read: a row that is
    /// not goes into `conflicts`, as does the first uniqueness violation.
    private func updateRows(of objects: [StoredObject], db: Database, conflicts: inout SaveConflicts, external: ExternalBinaryDataSave) throws {
        try forEachRunOfOneEntity(in: objects) { layout, rows in
            let statement = try rowStatement(sql: layout.versionCheckedUpdateSQL, db: db)
            let binder = RowBinder(statement.sqliteStatement)
            for (position, key) in rows {
                let object = objects[position]
                binder.start()
                var parameter: Int32 = 1
                try bindRow(of: object, key: key, version: object.version + 1, inserting: false,
                            layout: layout, binder: binder, parameter: &parameter, external: external)
                binder.bind(.integer(Int64(object.version)), at: parameter)
                do {
                    try statement.execute()
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    conflicts.firstConstraintConflict = conflicts.firstConstraintConflict
                        ?? constraintConflict(error, entity: layout.entity, objectID: object.objectID)
                    continue
                }
                if db.changesCount != 1 { conflicts.updated.append((object.objectID, object.version)) }
            }
        }
    }

    /// Inserts the rows of the objects at `rows` (positions in `objects`, with their keys) by
    /// one statement. When a row breaks a uniqueness constraint, the rows before it are in
    /// (`SQLRowLayout.sqliteInsertSQL(rows:)`): the first row missing is the one, and the
    /// error names its object, as Core Data's does.
    private func insertChunk(
        _ rows: ArraySlice<(position: Int, key: Int64)>, of objects: [StoredObject], layout: SQLRowLayout, db: Database,
        external: ExternalBinaryDataSave
    ) throws {
        let statement = try rowStatement(sql: layout.sqliteInsertSQL(rows: rows.count), db: db)
        let binder = RowBinder(statement.sqliteStatement)
        binder.start()
        var parameter: Int32 = 1
        for (position, key) in rows {
            try bindRow(of: objects[position], key: key, version: objects[position].version, inserting: true,
                        layout: layout, binder: binder, parameter: &parameter, external: external)
        }
        do {
            try statement.execute()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            let isInserted = try db.cachedStatement(sql: "SELECT 1 FROM \(layout.table.name) WHERE Z_PK = ?")
            let failed = try rows.first { row in try Int.fetchOne(isInserted, arguments: [row.key]) == nil }
            throw constraintConflict(error, entity: layout.entity, objectID: failed.map { objects[$0.position].objectID })
        }
    }

    /// A row statement: GRDB is told its arguments are bound, as a batch insert does, since
    /// each row is bound with SQLite's C API (building a `StatementArguments` per row cost more
    /// than the insert itself).
    func rowStatement(sql: String, db: Database) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(StatementArguments())
        return statement
    }

    /// Binds one row from `parameter` on, in the engine's order
    /// (``RelationalStoreEngine/forEachParameter(of:key:version:inserting:layout:_:)``). Every
    /// parameter is bound on every row: SQLite keeps the last execution's bindings otherwise. A
    /// Binary attribute that allows external storage gets Core Data's cell (`external`).
    private func bindRow(
        of object: StoredObject, key: Int64, version: Int, inserting: Bool, layout: SQLRowLayout, binder: RowBinder,
        parameter: inout Int32, external: ExternalBinaryDataSave
    ) throws {
        var position = parameter
        defer { parameter = position }
        try engine.forEachParameter(of: object, key: key, version: version, inserting: inserting, layout: layout) { cell in
            switch cell {
            case .value(let value), .compositeElement(let value, _):
                binder.bind(value, at: position)
            case .attribute(let value, let index, .binary) where layout.externalBinaryColumns.contains(where: { $0.index == index }):
                let property = layout.entity.properties[index]
                var data: Data?
                if let value, case .blob(let bytes) = try CoreDataValues.cell(
                    of: value, property: property, type: .binary, objectID: object.objectID) {
                    data = bytes
                }
                binder.bind(try external.cell(for: data, index: index, attribute: property.name, objectID: object.objectID), at: position)
            case .attribute(nil, _, _):
                binder.bind(.null, at: position)
            case .attribute(let value?, let index, let type):
                binder.bind(
                    try CoreDataValues.cell(of: value, property: layout.entity.properties[index], type: type, objectID: object.objectID),
                    at: position)
            }
            position += 1
        }
    }

    /// A unique index violation as Core Data reports it (133021), naming the constrained keys.
    /// SQLite's message names the index by its columns (`TABLE.COLUMN, …`).
    func constraintConflict(_ error: DatabaseError, entity: EntityDescription, objectID: ManagedObjectID?, detail: String = "") -> ManagedObjectError {
        let table = schema.table(of: entity)
        let index = schema.uniqueIndexes.first { error.message?.contains($0.columns.map { "\(table.name).\($0)" }.joined(separator: ", ")) == true }
        return engine.constraintConflict(entity: entity, columns: index?.columns, objectID: objectID, detail: detail)
    }

    /// Writes the loaded to-manys of saved objects (``RelationalStoreEngine/toManyWrites(of:)``).
    private func writeToManys(of lists: [[StoredObject]], db: Database) throws {
        try SQLiteExecutor(db: db).run(engine.toManyWrites(of: lists))
    }
}
