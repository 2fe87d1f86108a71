import Foundation
@testable import ManagedObjects
import Testing

/// Every real bundle of the corpus with several versions: a store written with the first version
/// opens with the last, migrating through every version in between (the schema steps: the store
/// is empty).
@Suite("Migration: every version of real bundles")
struct CorpusBundleMigrationTests {
    /// Every bundle of the corpus with more than one version.
    static let bundles: [String] = {
        let corpus = RealSQLiteStoreTests.shared.appendingPathComponent("corpus")
        let enumerator = FileManager.default.enumerator(atPath: corpus.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".xcdatamodeld") else { continue }
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(path).path)) ?? []
            if versions.filter({ $0.hasSuffix(".xcdatamodel") }).count > 1 { found.append(path) }
        }
        return found.sorted()
    }()

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
        // The store is now of the last version (some bundles hold identical versions: any of those).
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        #expect(last.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(try !versions.isMigrationNecessary(forStoreAt: url, to: last))
    }
}
