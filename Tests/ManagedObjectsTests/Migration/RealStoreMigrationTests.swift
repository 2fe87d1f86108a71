import DataModel
import ModelFileLoading
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// The stores Core Data wrote (`shared/stores`) found to be of their version and migrated to the
/// later versions of their bundles (`shared/corpus`), with the assertions of CoreDataPlus's own
/// migration tests (`Tests/Migrations_Tests.swift`) where they concern inferred migration.
@Suite("Migration: stores Core Data wrote")
struct RealStoreMigrationTests {
    static let sampleModel = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
    static let sampleModel3 = "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"

    static func versions(_ bundle: String) throws -> ManagedObjectModelVersions {
        try ManagedObjectModelVersions(contentsOf: RealSQLiteStoreTests.shared.appendingPathComponent("corpus").appendingPathComponent(bundle))
    }

    /// A container on `url` with `model` and the bundle's versions (migration on by default).
    static func container(
        _ model: ManagedObjectModel, versions: ManagedObjectModelVersions, at url: URL,
        configure: (inout PersistentStoreDescription) -> Void = { _ in }
    ) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Migrated", managedObjectModel: model)
        var description = PersistentStoreDescription(url: url)
        description.modelVersions = versions
        configure(&description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container
    }

    static func count(_ entity: String, in context: ManagedObjectContext, includingSubentities: Bool = true) throws -> Int {
        let request = FetchRequest<ManagedObject>(entityName: entity)
        request.includesSubentities = includingSubentities
        return try context.performAndWait { try context.count(for: request) }
    }

    @Test("each real store is found to be of the version that wrote it, by its hashes")
    func identifiesTheWritingVersion() throws {
        let sample = try Self.versions(Self.sampleModel)
        let sample3 = try Self.versions(Self.sampleModel3)
        let directory = try TemporaryDirectory()
        let cases: [(store: String, versions: ManagedObjectModelVersions, expected: String)] = [
            ("alemar11__CoreDataPlus/SampleModel_V1.sqlite", sample, "SampleModel"),
            ("alemar11__CoreDataPlus/SampleModel_V2.sqlite", sample, "SampleModel2"),
            ("alemar11__CoreDataPlus/SampleModel3_V1.sqlite", sample3, "SampleModel3"),
        ]
        for testCase in cases {
            let url = try RealSQLiteStoreTests.copy(testCase.store, into: directory)
            #expect(try testCase.versions.sourceVersion(ofStoreAt: url)?.name == testCase.expected, "\(testCase.store)")
            // The store's hashes (Core Data's) name the same version.
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
            #expect(testCase.versions.versions.filter { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
                .map(\.name) == [testCase.expected])
        }
    }

    @Test("isMigrationNecessary answers as CoreDataPlus's test_IfMigrationIsNeeded")
    func migrationNecessary() throws {
        let versions = try Self.versions(Self.sampleModel)
        let directory = try TemporaryDirectory()
        let v1 = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V1.sqlite", into: directory)
        let v2 = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V2.sqlite", into: directory)
        let (model1, model2, model3) = try (#require(versions.version(named: "SampleModel")),
                                            #require(versions.version(named: "SampleModel2")),
                                            #require(versions.version(named: "SampleModel3")))
        #expect(try !versions.isMigrationNecessary(forStoreAt: v1, to: model1))
        #expect(try versions.isMigrationNecessary(forStoreAt: v1, to: model2))
        #expect(try versions.isMigrationNecessary(forStoreAt: v1, to: model3))
        #expect(try !versions.isMigrationNecessary(forStoreAt: v2, to: model1))
        // The bundle names SampleModel (V1) current: a V1 store needs nothing by default.
        #expect(try !versions.isMigrationNecessary(forStoreAt: v1))
    }

    @Test("SampleModel V1 → V2 (CoreDataPlus test_MigrationFromV1ToV2): 5 luxury cars, the compound index, nothing lost")
    func sampleModelV1ToV2() throws {
        let versions = try Self.versions(Self.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V1.sqlite", into: directory)
        let plates = try rawSQL(url.path, "SELECT Z_PK, ZNUMBERPLATE, ZOWNER, ZMAKER FROM ZCAR ORDER BY Z_PK")
        let people = try rawSQL(url.path, "SELECT Z_PK, ZFIRSTNAME, ZLASTNAME, ZUPDATEDAT FROM ZPERSON ORDER BY Z_PK")
        let uuid = try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA")
        let model2 = try #require(versions.version(named: "SampleModel2"))

        let container = try Self.container(model2, versions: versions, at: url)
        let context = container.newBackgroundContext()
        #expect(try Self.count("LuxuryCar", in: context) == 5)
        #expect(try Self.count("SportCar", in: context, includingSubentities: false) == 5)
        #expect(try Self.count("Car", in: context) == 125)
        #expect(try Self.count("Person", in: context) == 20)
        // The compound (fetch) index of V2's Car, as Core Data names it.
        #expect(model2["Car"]?.entity.fetchIndexes.first?.elements.count == 2)
        #expect(try rawSQL(url.path, "SELECT sql FROM sqlite_master WHERE name = 'Z_Car_byMakerAndNumberPlate'")
            == "CREATE INDEX Z_Car_byMakerAndNumberPlate ON ZCAR (ZMAKER COLLATE BINARY ASC, ZNUMBERPLATE COLLATE BINARY ASC)")
        // Keys, values and to-ones as they were; the UUID stays; the removed attributes' columns are gone.
        #expect(try rawSQL(url.path, "SELECT Z_PK, ZNUMBERPLATE, ZOWNER, ZMAKER FROM ZCAR ORDER BY Z_PK") == plates)
        #expect(try rawSQL(url.path, "SELECT Z_PK, ZFIRSTNAME, ZLASTNAME, ZUPDATEDAT FROM ZPERSON ORDER BY Z_PK") == people)
        #expect(try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA") == uuid)
        #expect(try !rawSQL(url.path, "SELECT name FROM pragma_table_info('ZCAR')").contains("ZCOLOR"))
        // The metadata now carries V2's hashes and identifier.
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        #expect(model2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(metadata["NSStoreModelVersionIdentifiers"] as? [String] == ["2"])
        #expect(try versions.sourceVersion(ofStoreAt: url)?.name == "SampleModel2")
        // Relationships read through the migrated keys; new objects continue after Z_MAX.
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.sortDescriptors = [ObjectSortDescriptor(key: "firstName", ascending: true)]
            let owners = try context.fetch(request)
            let cars = owners.flatMap { ($0.value(forKey: "cars") as? Set<ManagedObject>) ?? [] }
            #expect(cars.count == 118)
            let car = ManagedObject(entity: try #require(model2["Car"]), insertInto: context)
            car.setValue("NEW-1", forKey: "numberPlate")
            try context.save()
            #expect(car.objectID.storeNumber == 126)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".migrating") }
        #expect(leftovers.isEmpty)
    }

    @Test("SampleModel V1 → V2 → V3 in two inferred steps (the V3 step without its mapping model: no makers)")
    func sampleModelV1ToV3() throws {
        let versions = try Self.versions(Self.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V1.sqlite", into: directory)
        let owners = try rawSQL(url.path, "SELECT Z_PK, ZOWNER FROM ZCAR ORDER BY Z_PK")
        let model3 = try #require(versions.version(named: "SampleModel3"))
        let container = try Self.container(model3, versions: versions, at: url)
        let context = container.newBackgroundContext()
        #expect(try Self.count("Car", in: context) == 125)
        #expect(try Self.count("LuxuryCar", in: context) == 5)
        #expect(try Self.count("Person", in: context) == 20)
        #expect(try Self.count("Maker", in: context) == 0)
        #expect(try rawSQL(url.path, "SELECT Z_PK, ZOWNER FROM ZCAR ORDER BY Z_PK") == owners)
        #expect(try versions.sourceVersion(ofStoreAt: url)?.name == "SampleModel3")
        // V3's many-to-many exists and starts empty.
        try context.performAndWait {
            let cars = try context.fetch(FetchRequest<ManagedObject>(entityName: "Car"))
            #expect(cars.allSatisfy { (($0.value(forKey: "previousOwners") as? Set<ManagedObject>) ?? []).isEmpty })
        }
    }

    @Test("SampleModel V2 store → V3")
    func sampleModelV2ToV3() throws {
        let versions = try Self.versions(Self.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V2.sqlite", into: directory)
        let container = try Self.container(try #require(versions.version(named: "SampleModel3")), versions: versions, at: url)
        let context = container.newBackgroundContext()
        #expect(try Self.count("Car", in: context) == 125)
        #expect(try Self.count("LuxuryCar", in: context) == 5)
    }

    @Test("SampleModel3 V1 → v2 → v3: the 12 users keep their names")
    func sampleModel3() throws {
        let versions = try Self.versions(Self.sampleModel3)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel3_V1.sqlite", into: directory)
        let names = try rawSQL(url.path, "SELECT Z_PK, ZNAME FROM ZUSER ORDER BY Z_PK")
        let model2 = try #require(versions.version(named: "SampleModel3_v2"))
        let model3 = try #require(versions.version(named: "SampleModel3_v3"))
        // One step to v2 …
        let copy = directory.file("copy.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        let second = try Self.container(model2, versions: versions, at: copy)
        #expect(try Self.count("User", in: second.newBackgroundContext()) == 12)
        #expect(try rawSQL(copy.path, "SELECT Z_PK, ZNAME FROM ZUSER ORDER BY Z_PK") == names)
        // … or two to v3.
        let third = try Self.container(model3, versions: versions, at: url)
        let context = third.newBackgroundContext()
        #expect(try Self.count("User", in: context) == 12)
        #expect(try Self.count("Pet", in: context) == 0)
        #expect(try rawSQL(url.path, "SELECT Z_PK, ZNAME FROM ZUSER ORDER BY Z_PK") == names)
        #expect(try !rawSQL(url.path, "SELECT name FROM pragma_table_info('ZUSER')").contains("ZPETNAME"))
    }

    @Test("SurfJournal's store, most of it still in its WAL, migrates to a version written for the test")
    func surfJournalWithWAL() throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("raywenderlich__cdt-materials/SurfJournalModel.sqlite", into: directory)
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        let bundle = RealSQLiteStoreTests.shared.appendingPathComponent("corpus/raywenderlich__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld")
        let v1 = try ManagedObjectModel(contentsOf: bundle)
        // v2: `location` renamed `spot`, `rating` widened to Integer 64, a required `verified` added.
        var model = v1.model
        var entry = try #require(model.entities.first)
        entry.attributes = entry.attributes.map { attribute in
            var attribute = attribute
            if attribute.name == "location" { attribute.name = "spot"; attribute.renamingIdentifier = "location" }
            if attribute.name == "rating" { attribute.type = .integer64 }
            return attribute
        } + [Attribute(name: "verified", type: .boolean, defaultValueString: "NO")]
        model.entities = [entry]
        let v2 = ManagedObjectModel(model)
        let versions = ManagedObjectModelVersions(versions: [.init(name: "SurfJournalModel", model: v1), .init(name: "v2", model: v2)])
        let before = try rawSQL(url.path, "SELECT Z_PK, ZLOCATION, ZRATING, ZDATE, ZHEIGHT FROM ZJOURNALENTRY ORDER BY Z_PK")
        #expect(before.split(separator: "\n").count == 5000)

        let context = try Self.container(v2, versions: versions, at: url).newBackgroundContext()
        #expect(try Self.count("JournalEntry", in: context) == 5000)
        #expect(try rawSQL(url.path, "SELECT Z_PK, ZSPOT, ZRATING, ZDATE, ZHEIGHT FROM ZJOURNALENTRY ORDER BY Z_PK") == before)
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZJOURNALENTRY WHERE ZVERIFIED = 0") == "5000")
        #expect(try versions.sourceVersion(ofStoreAt: url)?.name == "v2")
    }

    @Test("a store of the current version opens as it is, even when the bundle has later versions")
    func currentVersionDoesNotMigrate() throws {
        let versions = try Self.versions(Self.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V1.sqlite", into: directory)
        let container = try Self.container(try #require(versions.current), versions: versions, at: url)
        #expect(try Self.count("Car", in: container.newBackgroundContext()) == 125)
        #expect(try rawSQL(url.path, "SELECT count(*) FROM pragma_table_info('ZCAR') WHERE name = 'ZCOLOR'") == "1")
        #expect(try versions.sourceVersion(ofStoreAt: url)?.name == "SampleModel")
    }

    @Test("migration off: 134100 (automatic migration off) and 134140 (inference off); the store is left as it was")
    func migrationOff() throws {
        let versions = try Self.versions(Self.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V1.sqlite", into: directory)
        let before = try Data(contentsOf: url)
        let model2 = try #require(versions.version(named: "SampleModel2"))
        let noMigration = #expect(throws: ManagedObjectError.self) {
            try Self.container(model2, versions: versions, at: url) { $0.shouldMigrateStoreAutomatically = false }
        }
        #expect(noMigration?.code.rawValue == 134100)
        #expect(noMigration?.message.contains("SampleModel") == true)
        let noInference = #expect(throws: ManagedObjectError.self) {
            try Self.container(model2, versions: versions, at: url) { $0.shouldInferMappingModelAutomatically = false }
        }
        #expect(noInference?.code.rawValue == 134140)
        #expect(try Data(contentsOf: url) == before)
    }
}
