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
    private var stores: [any PersistentStore] = []
    /// The contexts on this coordinator (not child contexts), told about each other's saves.
    private let contexts = ContextList()
    /// One snapshot per object ID, shared by the contexts: what their faults fire from.
    let rowCache = RowCache()

    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
    }

    /// The stores added so far, in order. Objects go to the first one (configurations, which
    /// would assign entities to stores, are not supported).
    public var persistentStores: [any PersistentStore] {
        lock.withLock { stores }
    }

    /// Opens a store of a type registered with ``registerStoreType(_:opener:)``.
    public typealias StoreOpener = @Sendable (_ model: ManagedObjectModel, _ url: URL?) throws -> any PersistentStore
    /// Opens a store of a type registered with ``registerStoreType(_:migratingOpener:)``,
    /// migrating it as `migration` allows (`nil`: not migrating).
    public typealias MigratingStoreOpener = @Sendable (
        _ model: ManagedObjectModel, _ url: URL?, _ migration: StoreMigrationOptions?
    ) throws -> any PersistentStore

    private static let registeredOpeners = LockedValue<[PersistentStoreType: MigratingStoreOpener]>([:])

    /// Makes `type` a store type that ``addPersistentStore(type:configuration:at:migration:)`` (and so a
    /// container's store descriptions) opens, through `opener`: Core Data's
    /// `registerStoreClass(_:type:)`, for stores of other modules (`PostgreSQLStore.registerStoreType()`).
    public static func registerStoreType(_ type: PersistentStoreType, opener: @escaping StoreOpener) {
        registerStoreType(type, migratingOpener: { model, url, _ in try opener(model, url) })
    }

    /// ``registerStoreType(_:opener:)`` for a store type that migrates: `opener` takes the
    /// migration a store description allows (``PersistentStoreDescription/migrationOptions``).
    public static func registerStoreType(_ type: PersistentStoreType, migratingOpener: @escaping MigratingStoreOpener) {
        registeredOpeners.withLock { $0[type] = migratingOpener }
    }

    /// Adds a store of a built-in type: `.inMemory`, `.binary` or `.xml` at `url` (``AtomicStore``:
    /// read whole, or started empty when there is no file; not migrated), or `.sqlite` at `url` (opened, or created
    /// when there is no file; see ``SQLiteStore/init(model:url:migration:)`` for the errors a file that
    /// cannot be opened throws; at `/dev/null`, kept in memory as Core Data does), or of a registered one. Other types throw `persistentStoreInvalidType`, naming the type
    /// and the URL. `migration`: how a store written with another model version is migrated
    /// (`nil`: it is not; see ``StoreMigrationOptions``).
    @discardableResult
    public func addPersistentStore(
        type: PersistentStoreType, configuration: String? = nil, at url: URL? = nil, migration: StoreMigrationOptions? = nil
    ) throws -> any PersistentStore {
        if !managedObjectModel.classBindingErrors.isEmpty {
            throw ManagedObjectError(.coreData, managedObjectModel.classBindingErrors.joined(separator: "; "))
        }
        switch type {
        case .inMemory:
            let store = InMemoryStore()
            addPersistentStore(store)
            return store
        case .sqlite:
            guard let url else {
                throw ManagedObjectError(.persistentStoreOpen, "an SQLite store needs a file URL")
            }
            // Core Data keeps an SQLite store at /dev/null in memory: Xcode's template points its
            // container there for previews and tests. The one place that rule lives.
            if url.standardizedFileURL.path == "/dev/null" {
                let store = InMemoryStore()
                addPersistentStore(store)
                return store
            }
            let store = try SQLiteStore(model: managedObjectModel, url: url, migration: migration)
            addPersistentStore(store)
            return store
        case .binary, .xml:
            guard let url else {
                throw ManagedObjectError(.persistentStoreOpen, "a \(type.rawValue) store needs a file URL")
            }
            let store = try AtomicStore(type: type, model: managedObjectModel, url: url)
            addPersistentStore(store)
            return store
        default:
            if let opener = Self.registeredOpeners.withLock({ $0[type] }) {
                let store = try opener(managedObjectModel, url, migration)
                addPersistentStore(store)
                return store
            }
            throw ManagedObjectError(
                .persistentStoreInvalidType,
                "store type \(type.rawValue) is not supported (\([PersistentStoreType.inMemory, .sqlite, .binary, .xml].map(\.rawValue).joined(separator: ", ")) are)"
                    + (url.map { ": \($0.path)" } ?? ""))
        }
    }

    /// Adds a store made elsewhere (a custom `PersistentStore`).
    public func addPersistentStore(_ store: any PersistentStore) {
        lock.withLock { stores.append(store) }
    }

    /// The ID a URI from `ManagedObjectID.uriRepresentation` stands for, if it names a store of
    /// this coordinator and an entity of its model (permanent IDs only).
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard uri.scheme == "x-coredata", let host = uri.host else { return nil }
        let parts = uri.path.split(separator: "/")
        guard parts.count == 2, let entity = managedObjectModel[String(parts[0])],
              parts[1].first == "p", let number = Int64(parts[1].dropFirst()),
              persistentStores.contains(where: { $0.identifier.caseInsensitiveCompare(host) == .orderedSame })
        else { return nil }
        let identifier = persistentStores.first { $0.identifier.caseInsensitiveCompare(host) == .orderedSame }!.identifier
        return ManagedObjectID(entity: entity, key: .permanent(storeIdentifier: identifier, number: number))
    }

    // MARK: What contexts use

    func store() throws -> any PersistentStore {
        guard let store = persistentStores.first else {
            throw ManagedObjectError(
                .persistentStoreOperation,
                "the coordinator has no persistent store; call loadPersistentStores() or addPersistentStore(type:) first")
        }
        return store
    }

    func store(for objectID: ManagedObjectID) -> (any PersistentStore)? {
        guard let identifier = objectID.storeIdentifier else { return nil }
        return persistentStores.first { $0.identifier == identifier }
    }

    /// Runs a request against the store (the context has checked that the store can evaluate
    /// it, and evaluates the rest over managed objects). A `$VARIABLE` without a value throws
    /// `invalidFetchRequest` naming it.
    func execute(_ request: StoreRequest, on store: (any PersistentStore)? = nil) throws -> StoreResult {
        if let predicate = request.predicate {
            do {
                try predicate.checkBindings()
            } catch {
                throw ManagedObjectError(.invalidFetchRequest, "\(request): \(error)", entityName: request.entity.name)
            }
        }
        return try (store ?? self.store()).execute(request)
    }

    /// An object's row for a fault to fire with: from the row cache, else from the store; either
    /// way with one more use, which the object holds.
    func retainedSnapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        if let snapshot = rowCache.retainedSnapshot(for: objectID) { return snapshot }
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
