import Foundation

/// How to set up one store of a container. Core Data's `NSPersistentStoreDescription`.
public struct PersistentStoreDescription: Sendable, CustomStringConvertible {
    public var type: PersistentStoreType
    public var url: URL?
    public var configuration: String?
    /// Migrate a store written with another version of the model when it is loaded (Core Data's
    /// default, true). Off: loading such a store throws 134100. Needs `modelVersions`.
    public var shouldMigrateStoreAutomatically = true
    /// Infer the mapping as Core Data's lightweight migration does (true). Off: a store that
    /// needs migrating throws 134140.
    public var shouldInferMappingModelAutomatically = true
    /// The model's versions, oldest first, to find the one a store was written with and migrate
    /// from it (Core Data finds them in the app bundle). `nil`: stores are not migrated.
    public var modelVersions: ManagedObjectModelVersions?
    /// Mapping models for the steps between `modelVersions` that inference cannot make.
    public var mappingModels: [MappingModel] = []
    /// Keep Core Data's persistent history tables in an SQLite store (Core Data's
    /// `NSPersistentHistoryTrackingKey` option; off by default, as there).
    public var persistentHistoryTracking = false
    /// Post a remote change notification when another coordinator or process writes the store
    /// (Core Data's `NSPersistentStoreRemoteChangeNotificationPostOptionKey`; off by default, as
    /// there). See ``PersistentStoreCoordinator/postRemoteChangeNotifications(for:)``.
    public var postsRemoteChangeNotifications = false
    /// Refuse saves and batch requests that would change the store, with 134030 (Core Data's
    /// `NSReadOnlyPersistentStoreOption`; off by default, as there).
    public var isReadOnly = false
    /// Pragmas an SQLite store sets on each connection (Core Data's `NSSQLitePragmasOption`).
    public var sqlitePragmas = SQLitePragmas()
    /// Rebuild an SQLite store's file without its free pages once it is added (Core Data's
    /// `NSSQLiteManualVacuumOption`; ``SQLiteStore/vacuum()``).
    public var vacuumsSQLiteStore = false
    /// Gather an SQLite store's query-planner statistics once it is added (Core Data's
    /// `NSSQLiteAnalyzeOption`; ``SQLiteStore/analyze()``).
    public var analyzesSQLiteStore = false

    /// A description of a store of `type`: SQLite by default, as in Core Data; a container
    /// gives an SQLite store without `url` its default file. `PersistentStoreDescription(type:
    /// .inMemory)` keeps everything in memory.
    public init(type: PersistentStoreType = .sqlite, url: URL? = nil, configuration: String? = nil) {
        self.type = type
        self.url = url
        self.configuration = configuration
    }

    /// An SQLite store at `url`, as Core Data's `NSPersistentStoreDescription(url:)` makes.
    /// Loading it opens the file, or creates it (see `SQLiteStore`).
    public init(url: URL) {
        self.init(type: .sqlite, url: url)
    }

    public var description: String {
        "\(type.rawValue) store" + (url.map { " at \($0.path)" } ?? "")
    }
}
