import Foundation

/// Connects contexts to stores: every context of a coordinator reads from and saves to the same
/// stores. Core Data's `NSPersistentStoreCoordinator`.
///
/// Saves from different contexts go through the store one at a time (each store applies a
/// change set atomically), so contexts on different queues never see half a save.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    // Unchecked: `stores` is read and written only while holding `lock`.
    public let managedObjectModel: ManagedObjectModel
    private let lock = NSLock()
    private var stores: [(store: any PersistentStore, configuration: String?)] = []
    /// The entity names of each of the model's configurations, by configuration name.
    private let configurationMembers: [String: Set<String>]
    /// The contexts on this coordinator (not child contexts), told about each other's saves.
    private let contexts = ContextList()
    /// One snapshot per object ID, shared by the contexts: what their faults fire from.
    let rowCache = RowCache()
    /// The stores watched for other writers' changes, and who hears of them (RemoteChanges.swift).
    let remoteChangeObservers = RemoteChangeObservers()
    /// The identifiers of the stores added read-only (ReadOnly.swift).
    let readOnlyStoreIdentifiers = LockedValue<Set<String>>([])

    public init(managedObjectModel: ManagedObjectModel) {
        // A model built in code is resolved (or found invalid) now, and changes no more.
        managedObjectModel.use()
        self.managedObjectModel = managedObjectModel
        configurationMembers = Dictionary(
            managedObjectModel.model.configurations.map { ($0.name, Set($0.memberEntities)) },
            uniquingKeysWith: { first, _ in first })
    }

    deinit {
        remoteChangeObservers.stopAll()
    }

    /// The stores added so far, in order. A store added with a configuration of the model holds
    /// the objects of that configuration's entities; one added without (or with `Default`)
    /// holds every entity. A new object goes to the first store that holds its entity (or the
    /// one ``ManagedObjectContext/assign(_:to:)`` names), and a fetch reads that store.
    public var persistentStores: [any PersistentStore] {
        lock.withLock { stores.map(\.store) }
    }

    /// The configuration `store` was added with; `nil` for the default one (every entity) or a
    /// store of another coordinator. Core Data's `NSPersistentStore.configurationName`.
    public func configurationName(of store: any PersistentStore) -> String? {
        lock.withLock { stores.first { $0.store === store }?.configuration }
    }

    /// Whether `store` holds objects of `entity`: its configuration lists the entity, or it
    /// has the default configuration.
    func holds(_ entity: EntityDescription, in configuration: String?) -> Bool {
        guard let configuration else { return true }
        return configurationMembers[configuration]?.contains(entity.name) == true
    }

    /// The configuration name a store is added with: `nil` for none or Core Data's `Default`;
    /// a name the model does not have throws, naming the ones it has.
    private func checkedConfiguration(_ name: String?, for url: URL?) throws -> String? {
        guard let name, name != "Default" else { return nil }
        guard configurationMembers[name] != nil else {
            let known = configurationMembers.keys.sorted()
            throw ManagedObjectError(
                .persistentStoreOpen,
                "the model has no configuration named '\(name)'"
                    + (known.isEmpty ? " (it has none)" : " (it has \(known.joined(separator: ", ")))")
                    + (url.map { ": \($0.path)" } ?? ""))
        }
        return name
    }

    /// Opens a store of a type registered with ``registerStoreType(_:opener:)``.
    public typealias StoreOpener = @Sendable (_ model: ManagedObjectModel, _ url: URL?) throws -> any PersistentStore
    /// Opens a store of a type registered with ``registerStoreType(_:migratingOpener:)``,
    /// migrating it as `migration` allows (`nil`: not migrating), keeping persistent history
    /// when `persistentHistoryTracking` (a store that keeps none throws for it).
    public typealias MigratingStoreOpener = @Sendable (
        _ model: ManagedObjectModel, _ url: URL?, _ migration: StoreMigrationOptions?, _ persistentHistoryTracking: Bool
    ) throws -> any PersistentStore

    private static let registeredOpeners = LockedValue<[PersistentStoreType: MigratingStoreOpener]>([:])

    /// Makes `type` a store type that
    /// ``addPersistentStore(type:configuration:at:migration:persistentHistoryTracking:sqlitePragmas:options:)`` (and so a
    /// container's store descriptions) opens, through `opener`: Core Data's
    /// `registerStoreClass(_:type:)`, for stores of other modules (`PostgreSQLStore.registerStoreType()`).
    public static func registerStoreType(_ type: PersistentStoreType, opener: @escaping StoreOpener) {
        registerStoreType(type, migratingOpener: { model, url, _, persistentHistoryTracking in
            guard !persistentHistoryTracking else {
                throw ManagedObjectError(.persistentStoreOpen, "the \(type) store\(url.map { " at \($0.absoluteString)" } ?? "") keeps no persistent history")
            }
            return try opener(model, url)
        })
    }

    /// ``registerStoreType(_:opener:)`` for a store type that migrates: `opener` takes the
    /// migration a store description allows (``PersistentStoreDescription/migrationOptions``).
    public static func registerStoreType(_ type: PersistentStoreType, migratingOpener: @escaping MigratingStoreOpener) {
        registeredOpeners.withLock { $0[type] = migratingOpener }
    }

    /// Adds a store of a built-in type: `.inMemory`, `.binary` or `.xml` at `url` (``AtomicStore``:
    /// read whole, or started empty when there is no file; migrated first, as SQLite files are, with `migration`), or `.sqlite` at `url` (opened, or created
    /// when there is no file; see ``SQLiteStore/init(model:url:migration:persistentHistoryTracking:pragmas:)`` for the errors a file that
    /// cannot be opened throws; at `/dev/null`, kept in memory as Core Data does), or of a registered one. Other types throw `persistentStoreInvalidType`, naming the type
    /// and the URL. `migration`: how a store written with another model version is migrated
    /// (`nil`: it is not; see ``StoreMigrationOptions``). `persistentHistoryTracking`: an SQLite
    /// store (or a registered type's store that keeps history, as PostgreSQL's) has Core Data's
    /// persistent history tables (`NSPersistentHistoryTrackingKey`; see
    /// ``SQLiteStore/init(model:url:migration:persistentHistoryTracking:pragmas:)``). `options`: what a
    /// store of a class registered with ``registerStoreClass(_:type:)`` is made with (its
    /// ``IncrementalStore/options``); the built-in stores do not read them. `sqlitePragmas`: set on
    /// each connection of an SQLite store (``SQLitePragmas``).
    @discardableResult
    public func addPersistentStore(
        type: PersistentStoreType, configuration: String? = nil, at url: URL? = nil, migration: StoreMigrationOptions? = nil,
        persistentHistoryTracking: Bool = false, sqlitePragmas: SQLitePragmas = SQLitePragmas(), options: [AnyHashable: Any]? = nil
    ) throws -> any PersistentStore {
        try managedObjectModel.checkUsable()
        let configuration = try checkedConfiguration(configuration, for: url)
        switch type {
        case .inMemory:
            let store = InMemoryStore()
            addPersistentStore(store, configuration: configuration)
            return store
        case .sqlite:
            guard let url else {
                throw ManagedObjectError(.persistentStoreOpen, "an SQLite store needs a file URL")
            }
            // Core Data keeps an SQLite store at /dev/null in memory: Xcode's template points its
            // container there for previews and tests. The one place that rule lives.
            if url.standardizedFileURL.path == "/dev/null" {
                let store = InMemoryStore()
                addPersistentStore(store, configuration: configuration)
                return store
            }
            let store = try SQLiteStore(
                model: managedObjectModel, url: url, migration: migration, persistentHistoryTracking: persistentHistoryTracking,
                pragmas: sqlitePragmas)
            addPersistentStore(store, configuration: configuration)
            return store
        case .binary, .xml:
            guard let url else {
                throw ManagedObjectError(.persistentStoreOpen, "a \(type.rawValue) store needs a file URL")
            }
            if let migration { try AtomicStoreMigration.migrateIfNeeded(type: type, storeAt: url, to: managedObjectModel, options: migration) }
            let store = try AtomicStore(type: type, model: managedObjectModel, url: url)
            addPersistentStore(store, configuration: configuration)
            return store
        default:
            if let store = try openRegisteredStoreClass(type: type, configuration: configuration, at: url, options: options) {
                addPersistentStore(store, configuration: configuration)
                return store
            }
            if let opener = Self.registeredOpeners.withLock({ $0[type] }) {
                let store = try opener(managedObjectModel, url, migration, persistentHistoryTracking)
                addPersistentStore(store, configuration: configuration)
                return store
            }
            throw ManagedObjectError(
                .persistentStoreInvalidType,
                "store type \(type.rawValue) is not supported (\([PersistentStoreType.inMemory, .sqlite, .binary, .xml].map(\.rawValue).joined(separator: ", ")) are)"
                    + (url.map { ": \($0.path)" } ?? ""))
        }
    }

    /// Adds the store `description` describes: its type, URL and configuration, migrated as it
    /// allows, vacuumed and analyzed, read-only, posting remote change notifications, as its
    /// settings say. `options`:
    /// as ``addPersistentStore(type:configuration:at:migration:persistentHistoryTracking:sqlitePragmas:options:)``'s.
    @discardableResult
    public func addPersistentStore(described description: PersistentStoreDescription, options: [AnyHashable: Any]? = nil) throws -> any PersistentStore {
        let store = try addPersistentStore(
            type: description.type, configuration: description.configuration, at: description.url,
            migration: description.migrationOptions, persistentHistoryTracking: description.persistentHistoryTracking,
            sqlitePragmas: description.sqlitePragmas, options: options)
        if let sqlite = store as? SQLiteStore {
            if description.vacuumsSQLiteStore { try sqlite.vacuum() }
            if description.analyzesSQLiteStore { try sqlite.analyze() }
        }
        if description.isReadOnly { setReadOnly(true, for: store) }
        if description.postsRemoteChangeNotifications {
            try postRemoteChangeNotifications(for: store)
        }
        return store
    }

    /// Adds a store made elsewhere (a custom `PersistentStore`), for the entities of
    /// `configuration` (`nil`: every entity). A configuration the model does not have leaves
    /// the store holding none of its entities.
    public func addPersistentStore(_ store: any PersistentStore, configuration: String? = nil) {
        let configuration = configuration == "Default" ? nil : configuration
        lock.withLock { stores.append((store, configuration)) }
    }

    /// Removes `store` from the coordinator and closes it (an SQLite store's file is then free to
    /// move or delete). Core Data's `remove(_:)`. Throws when the coordinator does not hold it.
    public func remove(_ store: any PersistentStore) throws {
        let removed = lock.withLock {
            guard let index = stores.firstIndex(where: { $0.store === store }) else { return false }
            stores.remove(at: index)
            return true
        }
        guard removed else {
            throw ManagedObjectError(
                .persistentStoreOperation, "the coordinator does not hold the store \(store.identifier)" + (store.url.map { " at \($0.path)" } ?? ""))
        }
        remoteChangeObservers.stopWatching(store)
        readOnlyStoreIdentifiers.withLock { _ = $0.remove(store.identifier) }
        if let sqlite = store as? SQLiteStore { try sqlite.close() }
    }

    /// The ID a URI from `ManagedObjectID.uriRepresentation` stands for, if it names a store of
    /// this coordinator and an entity of its model (permanent IDs only).
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let parsed = ManagedObjectID(uri: uri, in: managedObjectModel), let host = parsed.storeIdentifier,
              let store = persistentStores.first(where: { $0.identifier.caseInsensitiveCompare(host) == .orderedSame })
        else { return nil }
        return ManagedObjectID(entity: parsed.entity, key: .permanent(storeIdentifier: store.identifier, number: parsed.key.number))
    }

    // MARK: What contexts use

    func store() throws -> any PersistentStore {
        guard let store = persistentStores.first else { throw Self.noStore }
        return store
    }

    private static let noStore = ManagedObjectError(
        .persistentStoreOperation, "the coordinator has no persistent store; call loadPersistentStores() or addPersistentStore(type:) first")

    /// The store that holds objects of `entity`: the first whose configuration has it. Throws
    /// 134070 naming the entity when no store has it.
    func store(for entity: EntityDescription) throws -> any PersistentStore {
        let stores = lock.withLock { self.stores }
        if let entry = stores.first(where: { holds(entity, in: $0.configuration) }) { return entry.store }
        if stores.isEmpty { throw Self.noStore }
        throw ManagedObjectError(
            .persistentStoreOperation,
            "no store of the coordinator holds entity \(entity.name): the stores' configurations are "
                + stores.map { $0.configuration ?? "Default" }.joined(separator: ", "),
            entityName: entity.name)
    }

    /// Whether `store` (one of the coordinator's) holds objects of `entity`.
    func store(_ store: any PersistentStore, holds entity: EntityDescription) -> Bool {
        lock.withLock { stores.first { $0.store === store } }.map { holds(entity, in: $0.configuration) } ?? false
    }

    /// Whether the coordinator has more than one store (saves then check that relationships
    /// stay within a store).
    var hasSeveralStores: Bool { lock.withLock { stores.count > 1 } }

    func store(for objectID: ManagedObjectID) -> (any PersistentStore)? {
        guard let identifier = objectID.storeIdentifier else { return nil }
        return store(withIdentifier: identifier)
    }

    func store(withIdentifier identifier: String) -> (any PersistentStore)? {
        persistentStores.first { $0.identifier == identifier }
    }

    /// A save's changes split by the store each object's permanent ID names, in the order the
    /// stores were added. Throws 134070 for an ID of no store of the coordinator.
    func changeSetsByStore(_ changes: StoreChangeSet) throws -> [(store: any PersistentStore, changes: StoreChangeSet)] {
        let stores = persistentStores
        var empty = StoreChangeSet()
        empty.transactionAuthor = changes.transactionAuthor
        empty.contextName = changes.contextName
        empty.updatedPropertyIndexes = changes.updatedPropertyIndexes
        var parts = [StoreChangeSet](repeating: empty, count: stores.count)
        func position(of objectID: ManagedObjectID) throws -> Int {
            guard let position = stores.firstIndex(where: { $0.identifier == objectID.storeIdentifier }) else {
                throw ManagedObjectError(
                    .persistentStoreOperation, "\(objectID) names no store of the coordinator",
                    entityName: objectID.entity.name, objectID: objectID)
            }
            return position
        }
        for object in changes.inserted { parts[try position(of: object.objectID)].inserted.append(object) }
        for object in changes.updated { parts[try position(of: object.objectID)].updated.append(object) }
        for deleted in changes.deleted { parts[try position(of: deleted.objectID)].deleted.append(deleted) }
        return zip(stores, parts).filter { !$0.1.isEmpty }.map { ($0.0, $0.1) }
    }

    /// Runs a request against the store (the context has checked that the store can evaluate
    /// it, and evaluates the rest over managed objects). A `$VARIABLE` without a value throws
    /// `invalidFetchRequest` naming it.
    func execute(_ request: StoreRequest, on store: (any PersistentStore)? = nil) throws -> StoreResult {
        try checkBindings(of: request)
        return try (store ?? self.store()).execute(request)
    }

    /// Throws `invalidFetchRequest` for a `$VARIABLE` of the request's predicate without a value.
    func checkBindings(of request: StoreRequest) throws {
        guard let predicate = request.predicate else { return }
        do {
            try predicate.checkBindings()
        } catch {
            throw ManagedObjectError(.invalidFetchRequest, "\(request): \(error)", entityName: request.entity.name, underlying: error)
        }
    }

    /// The stores that hold objects of any of `entities`, in the order they were added.
    func stores(holdingAnyOf entities: [EntityDescription]) -> [any PersistentStore] {
        lock.withLock { stores }.filter { entry in entities.contains { holds($0, in: entry.configuration) } }.map(\.store)
    }

    /// A request answered from several stores that hold its entities, as Core Data fetches from
    /// every store of a coordinator: each store's matching objects, merged, then sorted and
    /// windowed in memory (related objects read from their own stores). Dictionary results are
    /// asked of the first store only.
    func execute(_ request: StoreRequest, across stores: [any PersistentStore]) throws -> StoreResult {
        var whole = request
        whole.fetchOffset = 0
        whole.fetchLimit = 0
        switch request.resultType {
        case .dictionaries:
            return try execute(request, on: stores[0])
        case .count:
            whole.sortDescriptors = []
            var total = 0
            for store in stores {
                if case .count(let count) = try execute(whole, on: store) { total += count }
            }
            return .count(request.window(0..<total).count)
        case .objectIDs where request.sortDescriptors.isEmpty:
            var ids: [ManagedObjectID] = []
            for store in stores { ids += try execute(whole, on: store).objectIDs }
            return .objectIDs(Array(request.window(ids)))
        case .objectIDs, .snapshots:
            whole.resultType = .snapshots
            var snapshots: [StoredObject] = []
            for store in stores {
                switch try execute(whole, on: store) {
                case .snapshots(let found): snapshots += found
                case let other: snapshots += try self.snapshots(for: other.objectIDs)
                }
            }
            var merge = request
            merge.predicate = nil
            let graph = SnapshotSubject.Graph(
                snapshot: { [self] in try? store(for: $0)?.snapshot(for: $0) },
                relatedObjectIDs: { [self] in (try? store(for: $0)?.relatedObjectIDs(of: $0, relationship: $1)) ?? [] })
            return try merge.finish(snapshots, graph: graph)
        }
    }

    /// An object's row for a fault to fire with: from the row cache when read within
    /// `maximumAge` seconds (any cached row when negative), else from the store; either way with
    /// one more use, which the object holds.
    func retainedSnapshot(for objectID: ManagedObjectID, readWithin maximumAge: TimeInterval = -1) throws -> StoredObject? {
        if let snapshot = rowCache.retainedSnapshot(for: objectID, readWithin: maximumAge) { return snapshot }
        guard let snapshot = try store(for: objectID)?.snapshot(for: objectID) else { return nil }
        rowCache.retain(CollectionOfOne(snapshot))
        return snapshot
    }

    /// The rows of several objects (gone ones left out), not retained.
    func snapshots(for objectIDs: [ManagedObjectID]) throws -> [StoredObject] {
        var snapshots: [StoredObject] = []
        snapshots.reserveCapacity(objectIDs.count)
        for objectID in objectIDs {
            if let snapshot = try store(for: objectID)?.snapshot(for: objectID) { snapshots.append(snapshot) }
        }
        return snapshots
    }

    func register(_ context: ManagedObjectContext) {
        contexts.add(context)
    }

    /// Tells the other contexts that merge saves automatically about a save.
    func contextDidSave(_ notification: ContextNotification) {
        let others = contexts.all.filter { $0 !== notification.context }
        for context in others {
            context.scheduleMerge(notification)
        }
    }
}
