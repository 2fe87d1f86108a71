import DataModel
import Foundation
import ManagedObjects
#if ModelFiles
import ModelFileLoading
#endif

/// How to set up one store of a container: a class, as Core Data's is, so
/// `container.persistentStoreDescriptions.first!.url = …` changes the container's description.
open class NSPersistentStoreDescription: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: as Core Data's, set up before `loadPersistentStores` and only read from then on
    // (an asynchronous add reads it on its queue).
    /// `NSSQLiteStoreType` (the default), `NSInMemoryStoreType`, `NSBinaryStoreType` or `NSXMLStoreType`.
    open var type: String
    open var url: URL?
    open var configuration: String?
    /// Add the store on a background queue: `loadPersistentStores` returns at once and calls
    /// its handler for this store on that queue, as Core Data does.
    open var shouldAddStoreAsynchronously = false
    /// Migrate a store written with an older version of the model as it is added (Core Data's
    /// default); off, such a store fails to load with 134100. `NSMigratePersistentStoresAutomaticallyOption`
    /// in `options`, as in Core Data.
    open var shouldMigrateStoreAutomatically: Bool {
        get { storeOptionIsOn(options[NSMigratePersistentStoresAutomaticallyOption]) }
        set { setOption(NSNumber(value: newValue), forKey: NSMigratePersistentStoresAutomaticallyOption) }
    }
    /// Infer the mapping between versions (Core Data's lightweight migration); off, a step no
    /// mapping model covers fails with 134140. `NSInferMappingModelAutomaticallyOption` in `options`.
    open var shouldInferMappingModelAutomatically: Bool {
        get { storeOptionIsOn(options[NSInferMappingModelAutomaticallyOption]) }
        set { setOption(NSNumber(value: newValue), forKey: NSInferMappingModelAutomaticallyOption) }
    }
    /// Refuse saves and batch requests that would change the store (134030):
    /// `NSReadOnlyPersistentStoreOption` in `options`.
    open var isReadOnly: Bool {
        get { storeOptionIsOn(options[NSReadOnlyPersistentStoreOption]) }
        set { setOption(NSNumber(value: newValue), forKey: NSReadOnlyPersistentStoreOption) }
    }
    /// The SQLite pragmas set on the store's connections: `NSSQLitePragmasOption` in `options`.
    open var sqlitePragmas: [String: NSObject] {
        guard let pragmas = options[NSSQLitePragmasOption] else { return [:] }
        return pragmasByName(pragmas).compactMapValues { $0 as? NSObject }
    }
    /// Options by key, read as `addPersistentStore(ofType:configurationName:at:options:)` reads
    /// them (see there); the migration options are on by default, as in Core Data.
    open private(set) var options: [String: NSObject] = [
        NSMigratePersistentStoresAutomaticallyOption: NSNumber(value: true),
        NSInferMappingModelAutomaticallyOption: NSNumber(value: true),
    ]

    /// Sets or (with `nil`) removes an option.
    open func setOption(_ option: NSObject?, forKey key: String) {
        options[key] = option
    }

    /// Sets or (with `nil`) removes the SQLite pragma `name` (`setValue("OFF" as NSString, forPragmaNamed: "synchronous")`).
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        setOption(pragmas.isEmpty ? nil : NSDictionary(dictionary: pragmas), forKey: NSSQLitePragmasOption)
    }

    public init() {
        type = NSSQLiteStoreType
    }

    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    open var description: String {
        PersistentStoreDescription(type: PersistentStoreType(rawValue: type), url: url, configuration: configuration).description
    }

    /// The runtime's description (a store at `/dev/null` is kept in memory by the runtime's
    /// coordinator, as Core Data does). Throws for pragmas SQLite cannot be given.
    func runtimeDescription() throws -> PersistentStoreDescription {
        var description = PersistentStoreDescription(
            type: PersistentStoreType(rawValue: type), url: url, configuration: configuration)
        try description.read(coreDataOptions: Dictionary(uniqueKeysWithValues: options.map { (AnyHashable($0.key), $0.value as Any) }))
        return description
    }
}

/// The whole stack in one object, as Core Data's `NSPersistentContainer`: over this package's
/// `PersistentContainer`, with Core Data's initializers and class-typed store descriptions.
open class NSPersistentContainer: @unchecked Sendable {
    // Unchecked: as Core Data's: its descriptions are set before `loadPersistentStores`; what it
    // holds then (the coordinator, the contexts with their queues) is safe from any thread.
    public let name: String
    public let managedObjectModel: NSManagedObjectModel
    /// The stores `loadPersistentStores` adds: one SQLite store `<name>.sqlite` in
    /// `defaultDirectoryURL()` unless changed.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]
    private let container: PersistentContainer
    /// Held while stores are added (`shouldAddStoreAsynchronously` adds on another queue);
    /// recursive, as a handler may add more.
    private let storeAdding = NSRecursiveLock()
    /// Why `init(name:)` found no model; reported by `loadPersistentStores`.
    private var modelLoadingError: (any Error)?
    /// Every version of the model `init(name:)` found (its file's, or those the generated model
    /// carries), so that a store written with an older one migrates as it is added, as Core Data
    /// finds the versions in the app's `.momd`. A container given its model looks among the
    /// generated models' versions as it adds stores.
    private var modelVersions: ManagedObjectModelVersions?

    public var persistentStoreCoordinator: NSPersistentStoreCoordinator { container.persistentStoreCoordinator }
    /// The main-queue context.
    public var viewContext: NSManagedObjectContext { container.viewContext }

    /// A container for the model named `name`: the `<name>.xcdatamodeld` (or `.xcdatamodel`)
    /// found in the main bundle, the package's resource bundles next to it, or the current
    /// directory, as Core Data finds `<name>.momd` in the app's bundles. Entities are bound to
    /// the classes their `representedClassName` names (looked up in the module of the bundle
    /// holding the model, or the main executable's). When no model is found, or it cannot be
    /// read, the model is empty and `loadPersistentStores` reports why.
    public convenience init(name: String) {
        let found: ModelLookup.Found
        let modelLoadingError: (any Error)?
        do {
            // A subclass declared in an app's module prefers that module's model, as Core Data
            // looks in the bundle of the container's class.
            let module = String(reflecting: Self.self).prefix { $0 != "." }
            found = try ModelLookup.model(named: name, inModule: module == "CoreData" ? nil : String(module))
            modelLoadingError = nil
        } catch {
            found = ModelLookup.Found(model: ManagedObjectModel(Model()), versions: nil)
            modelLoadingError = error
        }
        self.init(name: name, managedObjectModel: found.model)
        self.modelLoadingError = modelLoadingError
        modelVersions = found.versions
    }

    /// The designated initializer, as in Core Data: a subclass that declares none inherits
    /// both initializers (`class AppContainer: NSPersistentContainer {}` then
    /// `AppContainer(name:)`).
    public init(name: String, managedObjectModel: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = managedObjectModel
        container = PersistentContainer(name: name, managedObjectModel: managedObjectModel)
        persistentStoreDescriptions = container.persistentStoreDescriptions.map { description in
            let described = NSPersistentStoreDescription()
            described.type = description.type.rawValue
            described.url = description.url
            described.configuration = description.configuration
            return described
        }
        // A subclass that overrides `defaultDirectoryURL()` (an app group's folder, a test's
        // sandbox) puts the default store there, as with Core Data.
        persistentStoreDescriptions.first?.url = Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite")
    }

    /// Where stores go unless told otherwise (see `PersistentContainer.defaultDirectoryURL()`).
    open class func defaultDirectoryURL() -> URL {
        PersistentContainer.defaultDirectoryURL()
    }

    /// Adds a store for each description, calling `block` once per description with `nil` or
    /// the error (a model `init(name:)` did not find, an unsupported type, a file that is not a
    /// store): before returning, except for descriptions with `shouldAddStoreAsynchronously`,
    /// added afterwards on a background queue, which calls `block` for them.
    open func loadPersistentStores(
        completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void
    ) {
        if let modelLoadingError {
            for description in persistentStoreDescriptions { block(description, modelLoadingError) }
            return
        }
        addStores(persistentStoreDescriptions.filter { !$0.shouldAddStoreAsynchronously }, completionHandler: block)
        let later = persistentStoreDescriptions.filter(\.shouldAddStoreAsynchronously)
        guard !later.isEmpty else { return }
        // The handler is the caller's, called on the background queue as Core Data calls it.
        nonisolated(unsafe) let handler = block
        DispatchQueue.global(qos: .userInitiated).async {
            self.addStores(later, completionHandler: handler)
        }
    }

    /// Adds the stores of `descriptions` now, one at a time (the container's stores are added
    /// under one lock, so a background addition does not interleave with another).
    private func addStores(
        _ descriptions: [NSPersistentStoreDescription],
        completionHandler block: (NSPersistentStoreDescription, (any Error)?) -> Void
    ) {
        guard !descriptions.isEmpty else { return }
        storeAdding.lock()
        defer { storeAdding.unlock() }
        // A description whose options cannot be read fails alone, as a store that cannot be added.
        var readable: [(description: NSPersistentStoreDescription, runtime: PersistentStoreDescription)] = []
        for description in descriptions {
            do {
                var runtime = try description.runtimeDescription()
                runtime.modelVersions = modelVersions ?? GeneratedModels.versions(of: managedObjectModel)
                readable.append((description, runtime))
            } catch {
                block(description, error)
            }
        }
        container.persistentStoreDescriptions = readable.map(\.runtime)
        var index = 0
        container.loadPersistentStores { loaded, error in
            let description = readable[index].description
            index += 1
            if description.url == nil { description.url = loaded.url }
            block(description, error)
        }
    }

    /// A new private-queue context on the container's coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        container.newBackgroundContext()
    }

    /// Runs `block` on a new private-queue context's queue, without waiting.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        container.performBackgroundTask(block)
    }

    /// Runs `block` on a new private-queue context's queue and returns its result.
    public func performBackgroundTask<T: Sendable>(
        _ block: @escaping @Sendable (NSManagedObjectContext) throws -> T
    ) async throws -> T {
        try await container.performBackgroundTask(block)
    }
}

/// Finds a model file by name and binds its entities to classes by name, for
/// `NSPersistentContainer(name:)`.
enum ModelLookup {
    /// A model `NSPersistentContainer(name:)` found, with every version of its `.xcdatamodeld`
    /// (read from the file, or carried by the generated model as `<Model>.versions`).
    struct Found {
        var model: ManagedObjectModel
        var versions: ManagedObjectModelVersions?
    }

    struct ModelNotFound: LocalizedError, CustomStringConvertible {
        var name: String
        var searched: [URL]
        /// Why no generated model was found.
        var generated: ManagedObjectError
        var description: String {
            "NSPersistentContainer: no model named '\(name)' (\(name).xcdatamodeld or \(name).xcdatamodel) in "
                + searched.map(\.path).joined(separator: ", ") + "; \(generated.message)"
        }
        // What `NSError`'s description shows, for code that prints `error as NSError`.
        var errorDescription: String? { description }
    }

    /// Built without the `ModelFiles` trait, CoreData reads no model files.
    struct ModelFilesNotBuiltIn: LocalizedError, CustomStringConvertible {
        var name: String
        /// Why no generated model was found.
        var generated: ManagedObjectError
        var description: String {
            "NSPersistentContainer(name: \"\(name)\"): \(generated.message), and this build of CoreData reads no model "
                + "files (the package's ModelFiles trait is off); pass the model: NSPersistentContainer(name:managedObjectModel:)"
        }
        // What `NSError`'s description shows, for code that prints `error as NSError`.
        var errorDescription: String? { description }
    }

    /// The model generated from `<name>.xcdatamodeld` (see `GeneratedModels`), else (with the
    /// `ModelFiles` trait) the model file of that name.
    static func model(named name: String, inModule module: String? = nil) throws -> Found {
        let generatedError: ManagedObjectError
        do {
            let generated = try GeneratedModels.modelAndVersions(named: name, inModule: module)
            return Found(model: generated.model, versions: generated.versions)
        } catch {
            generatedError = error
        }
        #if !ModelFiles
        throw ModelFilesNotBuiltIn(name: name, generated: generatedError)
        #else
        let directories = searchDirectories()
        for directory in directories {
            for fileName in ["\(name).xcdatamodeld", "\(name).xcdatamodel"] {
                let url = directory.appendingPathComponent(fileName)
                guard FileManager.default.fileExists(atPath: url.path) else { continue }
                // The versions matter only to migrate a store; a bundle whose current version
                // reads but an older one does not still gives the model.
                let versions = url.pathExtension == "xcdatamodeld" ? try? ManagedObjectModelVersions(contentsOf: url) : nil
                return Found(model: try model(at: url), versions: versions)
            }
        }
        throw ModelNotFound(name: name, searched: directories, generated: generatedError)
        #endif
    }

    #if ModelFiles
    /// The model file at `url`, its entities bound to the classes their `representedClassName`
    /// names in the module of the bundle holding the file or the main executable's.
    static func model(at url: URL) throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(contentsOf: url, versionName: nil)
        let modules = moduleNames(forBundleAt: url.deletingLastPathComponent())
        return ManagedObjectModel(model.model, classes: classes(for: model.model, modules: modules))
    }
    #endif

    /// The main bundle's resources, the SwiftPM resource bundles (`<package>_<target>.resources`)
    /// beside it, and the current directory.
    private static func searchDirectories() -> [URL] {
        var directories: [URL] = []
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        let beside = Bundle.main.bundleURL
        let contents = (try? FileManager.default.contentsOfDirectory(
            at: beside, includingPropertiesForKeys: nil)) ?? []
        directories += contents.filter { $0.pathExtension == "resources" || $0.pathExtension == "bundle" }
            .sorted { $0.path < $1.path }
        directories.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return directories
    }

    /// The modules a model's classes may live in: the target a resource bundle belongs to
    /// (`Package_Target.resources` gives `Target`, trying each `_` since names may hold one) and
    /// the main executable's module.
    private static func moduleNames(forBundleAt directory: URL) -> [String] {
        var names: [String] = []
        if directory.pathExtension == "resources" || directory.pathExtension == "bundle" {
            let bundleName = directory.deletingPathExtension().lastPathComponent
            var rest = Substring(bundleName)
            while let separator = rest.firstIndex(of: "_") {
                rest = rest[rest.index(after: separator)...]
                names.append(String(rest))
            }
        }
        if let executable = Bundle.main.executableURL?.deletingPathExtension().lastPathComponent {
            names.append(executable)
        }
        return names
    }

    /// Each entity's class: its `representedClassName` (without Xcode's leading `.` for the
    /// current module), qualified by the first of `modules` that declares it as a
    /// `ManagedObject` subclass. An entity whose class is not found gets `ManagedObject`, as
    /// Core Data falls back to `NSManagedObject`.
    private static func classes(for model: Model, modules: [String]) -> [String: ManagedObject.Type] {
        var classes: [String: ManagedObject.Type] = [:]
        for entity in model.entities {
            var className = entity.representedClassName ?? entity.name
            if className.hasPrefix(".") { className.removeFirst() }
            let candidates = className.contains(".") ? [className] : modules.map { "\($0).\(className)" }
            if let found = candidates.lazy.compactMap({ _typeByName($0) as? ManagedObject.Type }).first {
                classes[entity.name] = found
            }
        }
        return classes
    }
}
