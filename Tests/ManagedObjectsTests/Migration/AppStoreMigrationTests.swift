import Foundation
@testable import ManagedObjects
import ModelFileLoading
import Testing

/// Every store in `shared/stores` whose bundle has later versions, migrated to each later version
/// with the app's own mapping models (from `shared/corpus`, beside the bundle) handed to the
/// runtime, as Core Data finds them in the app's bundle; the policies they name are the Swift
/// ports in ``AppMigrationPolicies``. After the migration every entity that the source and the
/// destination both have (by name, renaming identifier or the app's mapping) holds as many
/// objects as the source store's `Z_ENT` rows say.
@Suite("Migration: every real store to every later version of its bundle")
struct AppStoreMigrationTests {
    init() {
        RealAppTransformers.registered
    }

    /// A real store, its bundle, and where the app keeps its mapping models.
    struct Source: Sendable {
        var store: String
        var bundle: String
        /// Under `shared/corpus`: the folder whose `.xcmappingmodel`s are the app's; `nil`: none.
        var mappingFolder: String?
        /// Entities the app's mapping models rename (source name → destination name).
        var renames: [String: String] = [:]
        /// The app migrates with its own manager (ported in the tests), not Core Data's automatic migration.
        var appMigration: AppMigration?
    }

    enum AppMigration: Sendable {
        /// BookMigration's ``MHWMigrationManager``, with its delegate's multiple passes.
        case bookMigration
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var source: Source
        var target: String
        var testDescription: String { "\(source.store) → \(target)" }
    }

    static let sampleModel = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
    static let moody = "objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld"
    static let bookmarks = "duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld"
    static let userData = "SRGSSR__srguserdata-apple/Sources/SRGUserData/Data/SRGUserData.xcdatamodeld"
    static let migrationExample = "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
    static let userDataRenames = ["User": "SRGUser", "HistoryEntry": "SRGHistoryEntry"]

    static let sources: [Source] = [
        Source(store: "alemar11__CoreDataPlus/SampleModel_V1.sqlite", bundle: sampleModel),
        Source(store: "alemar11__CoreDataPlus/SampleModel_V2.sqlite", bundle: sampleModel),
        Source(store: "alemar11__CoreDataPlus/SampleModel3_V1.sqlite",
               bundle: "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"),
    ] + ["Moody.moody", "Moody 2.moody", "Moody 3.moody", "Moody 4.moody", "Moody 5.moody"].map {
        Source(store: "objcio__core-data/\($0)", bundle: moody, mappingFolder: "objcio__core-data/Migrations/Migrations")
    } + (1...5).map {
        Source(store: "duckduckgo__BrowserServicesKit/Bookmarks_V\($0).sqlite", bundle: bookmarks)
    } + [
        Source(store: "duckduckgo__BrowserServicesKit/SyncMetadata_V3.sqlite",
               bundle: "duckduckgo__BrowserServicesKit/Sources/DDGSync/SyncMetadata.xcdatamodeld"),
    ] + ["v1", "v2", "v3", "v4", "v5", "v6", "loggedIn"].map {
        Source(store: "SRGSSR__srguserdata-apple/UserData_DB_\($0)/Data.sqlite", bundle: userData,
               mappingFolder: "SRGSSR__srguserdata-apple/Sources/SRGUserData/Data", renames: userDataRenames)
    } + [
        Source(store: "hwaxxer__BookMigration/Model1.sqlite", bundle: "hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld",
               mappingFolder: "hwaxxer__BookMigration/BookMigration", appMigration: .bookMigration),
        Source(store: "kasianov-mikhail__scout/Scout-v1.sqlite",
               bundle: "kasianov-mikhail__scout/Sources/Scout/Core/Persistence/Scout.xcdatamodeld"),
        Source(store: "kasianov-mikhail__scout/Scout-v4.sqlite",
               bundle: "kasianov-mikhail__scout/Sources/Scout/Core/Persistence/Scout.xcdatamodeld"),
        Source(store: "ebf__CTDataStoreManager/TestMigrationStore_version_1.sqlite",
               bundle: "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest/TestMigrationStore.xcdatamodeld",
               mappingFolder: "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest"),
        Source(store: "bignerdranch__CoreDataStack/TestModel.sqlite", bundle: "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld"),
    ] + ["1", "2", "3", "WAL"].map {
        Source(store: "wibosco__CoreDataMigration-Example/CoreDataMigration_Example_\($0).sqlite", bundle: migrationExample,
               mappingFolder: "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings")
    }

    static func corpus(_ path: String) -> URL {
        RealSQLiteStoreTests.shared.appendingPathComponent("corpus").appendingPathComponent(path)
    }

    /// Each later version of each store's bundle; a bundle that does not load gives one case
    /// that fails saying so.
    static let cases: [Case] = sources.flatMap(laterVersions(of:))

    static func laterVersions(of source: Source) -> [Case] {
        guard let versions = try? ManagedObjectModelVersions(contentsOf: corpus(source.bundle)) else {
            return [Case(source: source, target: "(bundle does not load)")]
        }
        guard let directory = try? TemporaryDirectory(), let url = try? RealSQLiteStoreTests.copy(source.store, into: directory),
              let written = try? versions.sourceVersion(ofStoreAt: url)?.name,
              let index = versions.versions.firstIndex(where: { $0.name == written })
        else { return [Case(source: source, target: "(writing version not found)")] }
        return versions.versions[(index + 1)...].map { Case(source: source, target: $0.name) }
    }

    /// The app's mapping models, read from its folder (CoreDataPlus's from the project's fixture).
    static func mappingModels(for source: Source, versions: ManagedObjectModelVersions) throws -> [MappingModel] {
        if source.bundle == sampleModel {
            AppMigrationPolicies.registerAll()
            return [try MappingModelMigrationTests.v2ToV3FromFile()]
        }
        return try namedMappingModels(for: source, versions: versions).map(\.model)
    }

    /// The app's mapping models with their file names, in file-name order.
    static func namedMappingModels(for source: Source, versions: ManagedObjectModelVersions) throws -> [(fileName: String, model: MappingModel)] {
        AppMigrationPolicies.registerAll()
        guard let folder = source.mappingFolder else { return [] }
        let directory = corpus(folder)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".xcmappingmodel") }.sorted()
            .map { ($0, try MappingModel(contentsOf: directory.appendingPathComponent($0), versions: versions)) }
    }

    /// Migrates the store at `url` to `target` as the app does, when it has its own manager.
    static func migrateAsTheApp(_ source: Source, storeAt url: URL, to target: ManagedObjectModel, versions: ManagedObjectModelVersions) throws {
        switch source.appMigration {
        case .bookMigration?:
            try MHWMigrationManager.bookMigration(versions: versions, mappingModels: namedMappingModels(for: source, versions: versions))
                .progressivelyMigrate(url: url, toModel: target)
        case nil:
            break
        }
    }

    /// Objects per entity in a store file, by raw SQL: rows of each root entity's table by `Z_ENT`.
    static func entityCounts(_ path: String) throws -> [String: Int] {
        let entities = try rawSQL(path, "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000").split(separator: "\n")
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let byNumber = Dictionary(uniqueKeysWithValues: entities.map { (Int($0[0]) ?? 0, (name: $0[1], superentity: Int($0[2]) ?? 0)) })
        var counts: [String: Int] = [:]
        for (number, entity) in byNumber {
            var root = entity
            while root.superentity != 0, let parent = byNumber[root.superentity] { root = parent }
            counts[entity.name] = Int(try rawSQL(path, "SELECT COUNT(*) FROM Z\(root.name.uppercased()) WHERE Z_ENT = \(number)")) ?? -1
        }
        return counts
    }

    /// BookMigration's Model2 → Model3 is a multi-pass migration: the app's `MHWMigrationManager`
    /// runs two mapping models for the one step (`Model2_to_Model3_User`, then `Model2_to_Model3`,
    /// whose UserToUser mapping is left out of its model) into one destination store; its stores
    /// migrate through the port of that manager, then open without migration.
    @Test("migrates to the later version, keeping every entity's objects", arguments: cases)
    func migrates(_ testCase: Case) throws {
        let source = testCase.source
        let versions = try ManagedObjectModelVersions(contentsOf: Self.corpus(source.bundle))
        let target = try #require(versions.version(named: testCase.target), "\(testCase.target)")
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(source.store, into: directory)
        let before = try Self.entityCounts(url.path)
        try Self.migrateAsTheApp(source, storeAt: url, to: target, versions: versions)
        let container = PersistentContainer(name: "Migrated", managedObjectModel: target)
        var description = PersistentStoreDescription(url: url)
        description.modelVersions = versions
        description.mappingModels = try Self.mappingModels(for: source, versions: versions)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        for entity in target.entities {
            let origin = before.keys.first { name in
                name == entity.name || entity.entity.renamingIdentifier == name || source.renames[name] == entity.name
            }
            guard let origin, let expected = before[origin] else { continue }
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            let count = try context.performAndWait { try context.count(for: request) }
            #expect(count == expected, "\(entity.name) (from \(origin))")
        }
        #expect(try !versions.isMigrationNecessary(forStoreAt: url, to: target))
    }
}
