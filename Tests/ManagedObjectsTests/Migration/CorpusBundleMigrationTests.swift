import Foundation
@testable import ManagedObjects
import Testing

/// The real bundles of the corpus with the most versions: a store written with the first
/// version (one object of each entity whose required values the test can fill) opens with the last,
/// migrating through every version in between.
@Suite("Migration: every version of real bundles")
struct CorpusBundleMigrationTests {
    static let bundles = [
        "rileytestut__Delta/Delta/Database/Model/Delta.xcdatamodeld",
        "moonlight-stream__moonlight-ios/Limelight/Limelight.xcdatamodeld",
        "inaturalist__INaturalistIOS/INaturalistIOS/INaturalist.xcdatamodeld",
    ]

    @Test("a first-version store migrates to the last version", arguments: bundles)
    func firstToLast(_ bundle: String) throws {
        let versions = try ManagedObjectModelVersions(
            contentsOf: RealSQLiteStoreTests.shared.appendingPathComponent("corpus").appendingPathComponent(bundle))
        let first = try #require(versions.versions.first).model
        let last = try #require(versions.versions.last).model
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        let context = try sqliteContext(first, at: url)
        try context.performAndWait {
            _ = try context.count(for: FetchRequest<ManagedObject>(entityName: try #require(first.entities.first).name))
        }
        let container = PersistentContainer(name: "Corpus", managedObjectModel: last)
        var description = PersistentStoreDescription(url: url)
        description.modelVersions = versions
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        #expect(try versions.sourceVersion(ofStoreAt: url)?.name == versions.versions.last?.name)
    }
}
