import DataModel
import Foundation
import GRDB

/// A store in an SQLite file laid out as Core Data lays it out (`SQLiteSchema`), so a file
/// Core Data wrote opens here and the other way round. Core Data's `NSSQLiteStoreType`.
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
    let schema: SQLiteSchema
    let pool: DatabasePool
    /// Each entity's row layout, by entity and by entity number (`Z_ENT`).
    let layoutsByEntity: [ObjectIdentifier: SQLiteRowLayout]
    /// Rows into stored objects, by entity number (`Z_ENT`).
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
    /// How history names an update's properties and keeps a deletion's preserved values.
    let historyColumns: PersistentHistoryColumns

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
    public convenience init(
        model: ManagedObjectModel, url: URL, migration: SQLiteStoreMigration.Options? = nil, persistentHistoryTracking: Bool = false
    ) throws {
        try self.init(
            model: model, url: url, migration: migration, persistentHistoryTracking: persistentHistoryTracking, externalDataDirectory: nil)
    }

    /// `externalDataDirectory`: where external binary data is, when not in the store's own
    /// support folder (a migration reading a copy of the store reads the store's files).
    init(
        model: ManagedObjectModel, url: URL, migration: SQLiteStoreMigration.Options? = nil, persistentHistoryTracking: Bool = false,
        externalDataDirectory: URL?
    ) throws {
        self.url = url
        externalData = externalDataDirectory.map(ExternalBinaryData.init(directory:)) ?? ExternalBinaryData(storeAt: url)
        let path = url.path
        let size = Self.fileSize(atPath: path)
        var existing: (identifier: String, numbers: [String: Int64], metadata: [String: Any])?
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
        schema = SQLiteSchema(model: model, existingNumbers: existing?.numbers)
        historyColumns = PersistentHistoryColumns(model: model, schema: schema)
        var configuration = Configuration()
        configuration.label = "SQLiteStore"
        let checkpointer = WALCheckpointer()
        configuration.prepareDatabase { db in
            try SQLPredicateTranslator.register(in: db)
            DerivedAttributeTriggers.register(in: db)
            SQLDebugLog.install(on: db)
            checkpointer.install(on: db)
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
        let schema = schema
        let columnsKeptBySQL: Set<String>
        do {
            columnsKeptBySQL = existing == nil ? [] : try pool.read(DerivedAttributeTriggers.maintainedColumns(in:))
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot read the triggers of the SQLite store \(path): \(error)", underlying: error)
        }
        let layouts = model.entities.compactMap { SQLiteRowLayout(entity: $0, schema: schema, columnsKeptBySQL: columnsKeptBySQL) }
        layoutsByEntity = Dictionary(layouts.map { (ObjectIdentifier($0.entity), $0) }, uniquingKeysWith: { first, _ in first })
        rowReader = SQLRowReader(
            layoutsByNumber: Dictionary(layouts.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first }),
            schema: schema, storeIdentifier: identifier, externalData: externalData)
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
        schema = store.schema
        pool = store.pool
        layoutsByEntity = store.layoutsByEntity
        rowReader = store.rowReader
        reader = snapshot
        externalData = store.externalData
        metadataState = store.metadataState
        recordsHistory = store.recordsHistory
        historyColumns = store.historyColumns
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

    /// Checks, without changing anything, that the file is a Core Data SQLite store with the
    /// model's entities and columns; returns its UUID and its entity numbers by model entity name.
    private static func inspectExistingStore(
        at path: String, model: ManagedObjectModel
    ) throws -> (identifier: String, numbers: [String: Int64], metadata: [String: Any]) {
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
            let (numbers, missing) = SQLiteSchema.storedNumbers(
                try SQLiteStoreMetadata.primaryKeys(db).mapValues(\.number), of: model)
            guard missing.isEmpty else {
                throw ManagedObjectError(
                    .persistentStoreIncompatibleVersionHash,
                    "the model is not the one \(path) was written with: the store has no entity \(missing.joined(separator: ", "))")
            }
            let schema = SQLiteSchema(model: model, existingNumbers: numbers)
            var problems: [String] = []
            for table in schema.tables {
                let present = try Set(db.columns(in: table.name).map { $0.name.uppercased() })
                let absent = table.columns.map(\.name).filter { !present.contains($0) }
                if !absent.isEmpty { problems.append("\(table.name) lacks \(absent.joined(separator: ", "))") }
            }
            for join in schema.joinTables where try !db.tableExists(join.name) {
                problems.append("no join table \(join.name)")
            }
            guard problems.isEmpty else {
                throw ManagedObjectError(
                    .persistentStoreIncompatibleVersionHash,
                    "the model is not the one \(path) was written with: \(problems.joined(separator: "; "))")
            }
            return (identifier, numbers, try SQLiteStoreMetadata.read(db))
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
        schema: SQLiteSchema, model: ManagedObjectModel, identifier: String, in pool: some DatabaseWriter, path: String,
        persistentHistoryTracking: Bool = false, keeping kept: [String: Any] = [:]
    ) throws {
        let plist = try SQLiteStoreMetadata.propertyList(for: model, identifier: identifier, keeping: kept)
        do {
            // Core Data's stores use incremental auto-vacuum, which must be set before any table.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA auto_vacuum = 2") }
            try pool.write { db in
                for statement in schema.creationStatements { try db.execute(sql: statement) }
                for entity in SQLiteSchema.numberingOrder(of: model) {
                    try db.execute(
                        sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                        arguments: [schema.entityNumbers[entity.name], entity.name,
                                    entity.superentity.flatMap { schema.entityNumbers[$0.name] } ?? 0])
                }
                try db.execute(
                    sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", arguments: [identifier, plist])
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

    /// Related objects as evaluation reads them. A read that fails here counts as no object:
    /// the graph cannot throw, and the same read fails the fetch that follows.
    private var graph: SnapshotSubject.Graph {
        SnapshotSubject.Graph(
            snapshot: { [self] in try? snapshot(for: $0) },
            relatedObjectIDs: { [self] in (try? relatedObjectIDs(of: $0, relationship: $1)) ?? [] })
    }

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
        let table = schema.table(of: objectID.entity)
        let statement = try db.cachedStatement(
            sql: "\(selectClause(table)) FROM \(table.name) \(SQLPredicateTranslator.tableAlias) WHERE Z_PK = ?")
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
        guard objectID.storeIdentifier == identifier, let number = objectID.storeNumber,
              let destination = relationship.destinationEntity else { return [] }
        let sql: String
        switch schema.storage[objectID.entity.name]?[relationship.index] {
        case .toManyByInverse(let table, let foreignKey, let orderColumn)?:
            sql = "SELECT Z_PK, \(schema.entityNumberColumn(ofTable: table)) FROM \(table) WHERE \(foreignKey) = ? ORDER BY \(orderColumn.map { "\($0), " } ?? "")Z_PK"
        case .toManyByJoin(let join, let side)?:
            let destinationTable = schema.table(of: destination).name
            sql = """
                SELECT d.Z_PK, \(schema.entityNumberColumn(ofTable: destinationTable, alias: "d")) FROM \(join.name) j JOIN \(destinationTable) d ON d.Z_PK = j.\(join.otherColumn(side)) \
                WHERE j.\(join.column(side)) = ? ORDER BY \(join.orderColumn(ownedBy: side).map { "j.\($0), " } ?? "")d.Z_PK
                """
        default:
            return []
        }
        return try Row.fetchAll(db, sql: sql, arguments: [number]).compactMap(storedID)
    }

    /// The ID of a `Z_PK, Z_ENT` row; `nil` when either is NULL or the number names no entity
    /// (a damaged store: such rows are left out, never trapped on).
    func storedID(_ row: Row) -> ManagedObjectID? {
        guard let number = (row.convertible(0) as Int64?), let entityNumber = (row.convertible(1) as Int64?),
              let entity = schema.entitiesByNumber[entityNumber] else { return nil }
        return permanentID(entity: entity, number: number)
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
    func selectClause(_ table: SQLiteSchema.Table) -> String {
        schema.selectClause(table, dialect: .sqlite)
    }

    /// The row of `selectClause(table)` that `statement` (stepped by a cursor) is on, as a
    /// stored object; `nil` for an entity number the model does not know. Columns are read
    /// from the statement itself: a GRDB row decodes a `DatabaseValue` through generic code.
    func storedObject(_ statement: Statement, db: Database, keepingUndecodableTransformables: Bool = false) throws -> StoredObject? {
        let sqliteStatement = statement.sqliteStatement
        return try rowReader.storedObject(
            column: { DatabaseValue(sqliteStatement: sqliteStatement, index: CInt($0)) },
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
            guard let layout = layoutsByEntity[ObjectIdentifier(deleted.objectID.entity)],
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
        for case .toManyByJoin(let join, let side) in schema.storage[objectID.entity.name] ?? [] {
            try db.execute(sql: "DELETE FROM \(join.name) WHERE \(join.column(side)) = ?", arguments: [objectID.storeNumber])
        }
    }

    /// Calls `body` for each run of objects of one entity (a save's objects come grouped by
    /// entity, so a run shares its statements) with the entity's layout and the run's objects
    /// that have a key of this store (their positions in `objects`, with the keys); an
    /// object without one has no row here.
    private func forEachRunOfOneEntity(
        in objects: [StoredObject], _ body: (SQLiteRowLayout, [(position: Int, key: Int64)]) throws -> Void
    ) rethrows {
        var runStart = objects.startIndex
        while runStart < objects.endIndex {
            let entity = objects[runStart].objectID.entity
            var runEnd = runStart + 1
            while runEnd < objects.endIndex, objects[runEnd].objectID.entity === entity { runEnd += 1 }
            if let layout = layoutsByEntity[ObjectIdentifier(entity)] {
                try body(layout, (runStart..<runEnd).compactMap { position in
                    objects[position].objectID.storeNumber.map { (position: position, key: $0) }
                })
            }
            runStart = runEnd
        }
    }

    /// Inserts the rows of new objects, `SQLiteRowLayout.rowsPerInsert` at a time by one
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
                binder.bind(.int64(Int64(object.version)), at: parameter)
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
    /// (`SQLiteRowLayout.sqliteInsertSQL(rows:)`): the first row missing is the one, and the
    /// error names its object, as Core Data's does.
    private func insertChunk(
        _ rows: ArraySlice<(position: Int, key: Int64)>, of objects: [StoredObject], layout: SQLiteRowLayout, db: Database,
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

    /// Binds one row from `parameter` on: for an insert `Z_PK` and `Z_ENT`, then `Z_OPT`, the
    /// written columns, and for an update `Z_PK` last. Every parameter is bound on every row:
    /// SQLite keeps the last execution's bindings otherwise. A Binary attribute that allows
    /// external storage gets Core Data's cell (`external`).
    private func bindRow(
        of object: StoredObject, key: Int64, version: Int, inserting: Bool, layout: SQLiteRowLayout, binder: RowBinder,
        parameter: inout Int32, external: ExternalBinaryDataSave
    ) throws {
        func bind(_ value: DatabaseValue.Storage) {
            binder.bind(value, at: parameter)
            parameter += 1
        }
        if inserting {
            bind(.int64(key))
            bind(.int64(layout.number))
        }
        bind(.int64(Int64(version)))
        for column in layout.writtenColumns {
            switch column {
            case .attribute(let index, .binary) where layout.externalBinaryColumns.contains(where: { $0.index == index }):
                let property = layout.entity.properties[index]
                var data: Data?
                if case .attribute(let value?) = object.values[index],
                   case .blob(let bytes) = try SQLiteValues.databaseValue(of: value, property: property, type: .binary, objectID: object.objectID).storage {
                    data = bytes
                }
                bind(try external.cell(for: data, index: index, attribute: property.name, objectID: object.objectID))
            case .attribute(let index, let type):
                guard case .attribute(let value?) = object.values[index] else {
                    bind(.null)
                    continue
                }
                bind(try SQLiteValues.databaseValue(of: value, property: layout.entity.properties[index], type: type, objectID: object.objectID).storage)
            case .toOneKey(let index):
                guard case .toOne(let related?) = object.values[index], let relatedKey = related.storeNumber else {
                    bind(.null)
                    continue
                }
                bind(.int64(relatedKey))
            case .toOneEntity(let index):
                guard case .toOne(let related?) = object.values[index],
                      let number = layoutsByEntity[ObjectIdentifier(related.entity)]?.number else {
                    bind(.null)
                    continue
                }
                bind(.int64(number))
                case .compositeElement(let index, let path, let type):
                bind(try layout.compositeElementCell(object: object, index: index, path: path, type: type).storage)
            }
        }
        if !inserting { bind(.int64(key)) }
    }

    /// A unique index violation as Core Data reports it (133021), naming the constrained keys.
    func constraintConflict(_ error: DatabaseError, entity: EntityDescription, objectID: ManagedObjectID?, detail: String = "") -> ManagedObjectError {
        let table = schema.table(of: entity)
        let storage = schema.storage[entity.name] ?? []
        let index = schema.uniqueIndexes.first { error.message?.contains($0.columns.map { "\(table.name).\($0)" }.joined(separator: ", ")) == true }
        let names = index.map { unique in
            unique.columns.compactMap { column in
                storage.indices.first { if case .attribute(column, _) = storage[$0] { true } else { false } }
                    .map { entity.properties[$0].name }
            }
        } ?? []
        return ManagedObjectError(
            .constraintConflict,
            "\(detail)\(entity.name).(\(names.joined(separator: ", "))) must be unique; another stored object has the same values",
            entityName: entity.name, objectID: objectID, key: names.joined(separator: ","))
    }

    /// Writes the loaded to-manys of saved objects: order columns and owners' keys of to-manys
    /// kept in the destination's rows, and join-table rows. A join table's rows of an object are all
    /// removed before any are written, so the two sides of a many-to-many agree whichever
    /// comes first.
    private func writeToManys(of lists: [[StoredObject]], db: Database) throws {
        var joinRows: [(join: SQLiteSchema.JoinTable, side: SQLiteSchema.JoinTable.Side, owner: Int64, members: [ManagedObjectID])] = []
        // By the entity's layout, not its name: most entities have nothing to write here. A
        // save's objects come grouped by entity, so the last layout is kept at hand. By
        // position: an object's values are read only when its entity writes to-manys.
        var last: (entity: ObjectIdentifier, layout: SQLiteRowLayout?)?
        for objects in lists {
            for position in objects.indices {
                let objectID = objects[position].objectID
                let entity = ObjectIdentifier(objectID.entity)
                if last?.entity != entity { last = (entity, layoutsByEntity[entity]) }
                guard let layout = last?.layout, layout.writesToManys,
                      let owner = objectID.storeNumber else { continue }
                for (index, stored) in layout.storage.enumerated() {
                    guard case .toMany(let members) = objects[position].values[index] else { continue }
                    switch stored {
                    case .toManyByInverse:
                        for write in schema.foreignKeyWrites(entity: layout.entity, index: index, owner: owner, members: members) {
                            try db.cachedStatement(sql: write.sql).execute(arguments: StatementArguments(write.arguments))
                        }
                    case .toManyByJoin(let join, let side):
                        try db.execute(sql: "DELETE FROM \(join.name) WHERE \(join.column(side)) = ?", arguments: [owner])
                        joinRows.append((join, side, owner, members))
                    default:
                        continue
                    }
                }
            }
        }
        for (join, side, owner, members) in joinRows {
            let orderColumn = join.orderColumn(ownedBy: side)
            let columns = [join.column(side), join.otherColumn(side)] + (orderColumn.map { [$0] } ?? [])
            let update = orderColumn.map { "DO UPDATE SET \($0) = excluded.\($0)" } ?? "DO NOTHING"
            for (position, member) in members.enumerated() {
                var arguments: [DatabaseValue] = [owner.databaseValue, member.storeNumber.databaseValue]
                if orderColumn != nil { arguments.append((position + 1).databaseValue) }
                try db.execute(
                    sql: """
                        INSERT INTO \(join.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) \
                        ON CONFLICT(\(join.firstColumn), \(join.secondColumn)) \(update)
                        """,
                    arguments: StatementArguments(arguments))
            }
        }
    }
}
