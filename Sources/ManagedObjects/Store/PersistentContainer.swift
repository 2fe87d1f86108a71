import DataModel
import Foundation

/// The whole stack in one object: model, coordinator, stores, a main-queue `viewContext` and
/// background contexts. Core Data's `NSPersistentContainer`.
///
/// Configure `persistentStoreDescriptions` before `loadPersistentStores`.
public final class PersistentContainer: Sendable {
    public let name: String
    public let managedObjectModel: ManagedObjectModel
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The main-queue context, for the user interface and the main thread.
    public let viewContext: ManagedObjectContext
    private let descriptions: LockedValue<[PersistentStoreDescription]>

    /// The stores `loadPersistentStores` adds: unless changed, one SQLite store in
    /// `defaultDirectoryURL()` named `<name>.sqlite`, as Core Data's container has.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { descriptions.withLock { $0 } }
        set { descriptions.withLock { $0 = newValue } }
    }

    /// Why `init(name:)` has no model; `loadPersistentStores` reports it.
    private let modelLoadingError: ManagedObjectError?
    /// The versions of the generated model `init(name:)` found, for the descriptions that give
    /// none, as Core Data's container finds every version in the `.momd`.
    private let modelVersions: ManagedObjectModelVersions?

    public convenience init(name: String, managedObjectModel: ManagedObjectModel) {
        self.init(name: name, managedObjectModel: managedObjectModel, modelVersions: nil, modelLoadingError: nil)
    }

    /// A container for the model generated from `<name>.xcdatamodeld`, as Core Data's finds the
    /// model named `name` in the app's bundle (see ``GeneratedModels``). Without one, the model
    /// is empty and `loadPersistentStores` reports why. A store written with an older version
    /// the generated model carries (`<Model>.versions`) migrates as it is added, unless its
    /// description gives other `modelVersions`.
    public convenience init(name: String) {
        do {
            let found = try GeneratedModels.modelAndVersions(named: name)
            self.init(name: name, managedObjectModel: found.model, modelVersions: found.versions, modelLoadingError: nil)
        } catch {
            self.init(name: name, managedObjectModel: ManagedObjectModel(Model()), modelVersions: nil, modelLoadingError: error)
        }
    }

    private init(
        name: String, managedObjectModel: ManagedObjectModel, modelVersions: ManagedObjectModelVersions?,
        modelLoadingError: ManagedObjectError?
    ) {
        self.name = name
        self.managedObjectModel = managedObjectModel
        self.modelVersions = modelVersions
        self.modelLoadingError = modelLoadingError
        self.descriptions = LockedValue([PersistentStoreDescription(url: Self.defaultStoreURL(name: name))])
        self.persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        self.viewContext = ManagedObjectContext(concurrencyType: .mainQueue,
                                                persistentStoreCoordinator: persistentStoreCoordinator)
        viewContext.name = "viewContext"
    }

    /// Where a container's stores go unless told otherwise: Application Support on Apple
    /// platforms, as in Core Data; elsewhere the XDG data directory, `$XDG_DATA_HOME` or
    /// `~/.local/share`. Loading a store creates the directory when it is missing.
    public static func defaultDirectoryURL() -> URL {
        #if canImport(Darwin)
        return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        #else
        // The XDG Base Directory specification ignores a relative path.
        if let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local", isDirectory: true)
            .appendingPathComponent("share", isDirectory: true)
        #endif
    }

    private static func defaultStoreURL(name: String) -> URL {
        defaultDirectoryURL().appendingPathComponent("\(name).sqlite")
    }

    /// Adds a store for each description, calling `completionHandler` once per description
    /// with `nil` or the error (an unsupported type names itself and its URL).
    public func loadPersistentStores(
        completionHandler: (PersistentStoreDescription, (any Error)?) -> Void
    ) {
        for var description in persistentStoreDescriptions {
            if let modelLoadingError {
                completionHandler(description, modelLoadingError)
                continue
            }
            if description.modelVersions == nil { description.modelVersions = modelVersions }
            do {
                if description.type == .sqlite {
                    let url = description.url ?? Self.defaultStoreURL(name: name)
                    description.url = url
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                try persistentStoreCoordinator.addPersistentStore(described: description)
                completionHandler(description, nil)
            } catch {
                completionHandler(description, error)
            }
        }
    }

    /// Adds a store for each description, throwing the first error.
    public func loadPersistentStores() throws {
        var firstError: (any Error)?
        loadPersistentStores { _, error in
            if firstError == nil { firstError = error }
        }
        if let firstError { throw firstError }
    }

    /// A new private-queue context on the container's coordinator.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: persistentStoreCoordinator)
    }

    /// Runs `block` on a new private-queue context's queue, without waiting.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new private-queue context's queue and returns its result.
    public func performBackgroundTask<T: Sendable>(
        _ block: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}
