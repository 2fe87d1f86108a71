import Foundation
@testable import ManagedObjects
import ModelFileLoading
import Testing

/// Multiple passes (`MigrationManager.migrateStore(from:to:mappingModel:)` called again into the
/// same destination), on BookMigration's Model2 → Model3 step and its two mapping models: a pass
/// adds to the store the earlier ones wrote; one that cannot run leaves that store as it was.
@Suite("Migration: multiple passes into one store")
struct MultiPassMigrationTests {
    init() {
        RealAppTransformers.registered
    }

    /// BookMigration's Model1.sqlite taken to Model2 (its `Model1_to_Model2`), the versions, and
    /// its two Model2 → Model3 mapping models (`Model2_to_Model3_User`, `Model2_to_Model3`).
    struct Fixture {
        let directory: TemporaryDirectory
        let source: URL
        let destination: URL
        let versions: ManagedObjectModelVersions
        let users: MappingModel
        let rest: MappingModel

        init() throws {
            let app = try #require(AppStoreMigrationTests.sources.first { if case .bookMigration? = $0.appMigration { true } else { false } })
            versions = try ManagedObjectModelVersions(contentsOf: AppStoreMigrationTests.corpus(app.bundle))
            let mappingModels = try AppStoreMigrationTests.namedMappingModels(for: app, versions: versions)
            directory = try TemporaryDirectory()
            source = try RealSQLiteStoreTests.copy(app.store, into: directory)
            let model2 = try #require(versions.version(named: "Model2"))
            try MHWMigrationManager(versions: versions, bundleMappingModels: mappingModels.map(\.model)).progressivelyMigrate(url: source, toModel: model2)
            users = try #require(mappingModels.first { $0.fileName == "Model2_to_Model3_User.xcmappingmodel" }?.model)
            rest = try #require(mappingModels.first { $0.fileName == "Model2_to_Model3.xcmappingmodel" }?.model)
            destination = directory.file("Model3.sqlite")
        }

        func manager() throws -> MigrationManager {
            MigrationManager(sourceModel: try #require(versions.version(named: "Model2")), destinationModel: try #require(versions.version(named: "Model3")))
        }

        /// Objects per entity in the destination file (raw SQL).
        func destinationCounts() throws -> [String: Int] {
            try AppStoreMigrationTests.entityCounts(destination.path)
        }
    }

    @Test("a second pass adds its objects to the store the first wrote, and finds the first pass's objects there")
    func secondPassAdds() throws {
        let fixture = try Fixture()
        try fixture.manager().migrateStore(from: fixture.source, to: fixture.destination, mappingModel: fixture.users)
        #expect(try fixture.destinationCounts() == ["Author": 0, "Book": 0, "File": 0, "User": 3])
        try fixture.manager().migrateStore(from: fixture.source, to: fixture.destination, mappingModel: fixture.rest)
        #expect(try fixture.destinationCounts() == ["Author": 3, "Book": 4, "File": 4, "User": 3])
        // The second pass's policy gave each File a user of the first pass.
        #expect(try rawSQL(fixture.destination.path, "SELECT COUNT(*) FROM ZFILE WHERE ZUSER IS NOT NULL") == "4")
        let model3 = try #require(fixture.versions.version(named: "Model3"))
        #expect(try !fixture.versions.isMigrationNecessary(forStoreAt: fixture.destination, to: model3))
    }

    @Test("a pass that fails leaves the store the earlier passes wrote")
    func failedPassKeepsStore() throws {
        let fixture = try Fixture()
        try fixture.manager().migrateStore(from: fixture.source, to: fixture.destination, mappingModel: fixture.users)
        var broken = fixture.rest
        broken.entityMappings[0].entityMigrationPolicyClassName = "NoSuchPolicy"
        #expect(throws: ManagedObjectError.self) {
            try fixture.manager().migrateStore(from: fixture.source, to: fixture.destination, mappingModel: broken)
        }
        #expect(try fixture.destinationCounts() == ["Author": 0, "Book": 0, "File": 0, "User": 3])
    }

    @Test("a further pass by inference is refused: inference writes a new store")
    func inferredPassRefused() throws {
        let fixture = try Fixture()
        try fixture.manager().migrateStore(from: fixture.source, to: fixture.destination, mappingModel: fixture.users)
        let inferred = try MappingModel.inferred(
            from: try #require(fixture.versions.version(named: "Model2")), to: try #require(fixture.versions.version(named: "Model3")))
        let error = try #require(throws: ManagedObjectError.self) {
            try fixture.manager().migrateStore(from: fixture.source, to: fixture.destination, mappingModel: inferred)
        }
        #expect(error.code == .migration)
        #expect("\(error)".contains("a file is there already"))
        #expect(try fixture.destinationCounts() == ["Author": 0, "Book": 0, "File": 0, "User": 3])
    }
}
