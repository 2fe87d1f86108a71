import Foundation
@testable import ManagedObjects
import Testing

/// The metadata a store created here writes is Core Data's: the keys and value types of the
/// real stores (`shared/stores`), and the values derived from the model equal to the ones Core
/// Data wrote for the version that wrote each store; a migration keeps an app's own keys.
@Suite("Store metadata: Core Data's keys")
struct CoreDataMetadataKeysTests {
    static let scoutBundle = "kasianov-mikhail__scout/Sources/Scout/Core/Persistence/Scout.xcdatamodeld"

    /// Every real store, by path in `shared/stores`.
    static let realStores: [String] = {
        let root = RealSQLiteStoreTests.shared.appendingPathComponent("stores")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".sqlite") }.sorted()
    }()

    static func storedMetadata(_ store: String) throws -> [String: Any] {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(store, into: directory)
        return try StoreMetadataTests.dictionary(StoreMetadataTests.storedPropertyList(url))
    }

    /// A value's property-list type as a file says it: the element an XML property list
    /// writes for it (`string`, `integer`, `real`, `true`, `data`, `array`, `dict`).
    static func kind(_ value: Any) throws -> String {
        let xml = String(decoding: try PropertyListSerialization.data(fromPropertyList: ["v": value], format: .xml, options: 0), as: UTF8.self)
        let after = try #require(xml.range(of: "<key>v</key>")).upperBound
        let open = try #require(xml[after...].firstIndex(of: "<"))
        let name = xml[xml.index(after: open)...].prefix { $0.isLetter }
        return name == "false" ? "true" : String(name)
    }

    @Test("the digest and checksum of every real store that has them derive from its version hashes by the rule adopted here")
    func derivationRules() throws {
        var digests = 0, checksums = 0
        for store in Self.realStores {
            let metadata = try Self.storedMetadata(store)
            let hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data], "\(store)")
            if let digest = metadata["NSStoreModelVersionHashesDigest"] as? String {
                #expect(ModelVersionHash.digest(of: hashes) == digest, "\(store)")
                digests += 1
            }
            if let checksum = metadata["NSStoreModelVersionChecksumKey"] as? String {
                #expect(ModelVersionHash.checksum(of: hashes) == checksum, "\(store)")
                checksums += 1
            }
        }
        // Measured on shared/stores: 14 stores have a digest, 8 a checksum.
        #expect(digests >= 14)
        #expect(checksums >= 8)
        // Known answers of the two digests (FIPS 180-4 test vector "abc").
        #expect(SHA512.digest(of: Data("abc".utf8)).hexadecimal
            == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(SHA512.digest(of: Data(repeating: 0x61, count: 200)).count == 64)
    }

    @Test("a store created here from the model version that wrote a real store has its metadata keys, value types and model values",
          arguments: [("kasianov-mikhail__scout/Scout-v4.sqlite", "Scout 4"), ("kasianov-mikhail__scout/Scout-v1.sqlite", "Scout")])
    func newStoreMatchesRealStore(_ store: String, _ version: String) throws {
        let real = try Self.storedMetadata(store)
        let model = try #require(try RealStoreMigrationTests.versions(Self.scoutBundle).version(named: version))
        let directory = try TemporaryDirectory()
        let url = directory.file("New.sqlite")
        _ = try sqliteContext(model, at: url)
        let created = try StoreMetadataTests.dictionary(StoreMetadataTests.storedPropertyList(url))

        #expect(Set(created.keys) == Set(real.keys))
        for (key, value) in real { #expect(try created[key].map(Self.kind) == Self.kind(value), "\(key)") }
        // What the model decides, equal to what Core Data wrote for it; the framework version
        // is the one the newest real store (this one) says.
        // (A dictionary's bytes depend on its key order: compared as a dictionary.)
        #expect(created["NSStoreModelVersionHashes"] as? [String: Data] == real["NSStoreModelVersionHashes"] as? [String: Data])
        for key in ["NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey",
                    "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesVersion", "NSStoreType", "_NSAutoVacuumLevel",
                    "NSPersistenceFrameworkVersion", "NSPersistenceMaximumFrameworkVersion"] {
            #expect(try StoreMetadataTests.bytes(created[key] as Any) == StoreMetadataTests.bytes(real[key] as Any), "\(key)")
        }
        // The UUID is in Z_UUID only, as in the real store, and the store reads it from there.
        #expect(created["NSStoreUUID"] == nil)
        let read = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        #expect(read["NSStoreUUID"] as? String == (try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA")))
    }

    /// The file's metadata after `migrate` opened it, having set an app's keys on it before.
    static func appKeysAfterMigration(
        _ store: String, into directory: TemporaryDirectory, migrate: (URL) throws -> Void
    ) throws -> (before: [String: Any], after: [String: Any]) {
        let url = try RealSQLiteStoreTests.copy(store, into: directory)
        var metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        metadata["com.example.lastSync"] = "2026-11-28"
        metadata["com.example.counts"] = ["entries": 3] as [String: Any]
        try PersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: .sqlite, at: url)
        let before = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        try migrate(url)
        return (before, try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url))
    }

    @Test("an inferred migration keeps the app's metadata keys and writes the new version's own")
    func inferredMigrationKeepsAppKeys() throws {
        let versions = try RealStoreMigrationTests.versions(RealStoreMigrationTests.sampleModel)
        let model2 = try #require(versions.version(named: "SampleModel2"))
        let directory = try TemporaryDirectory()
        let (before, after) = try Self.appKeysAfterMigration("alemar11__CoreDataPlus/SampleModel_V1.sqlite", into: directory) { url in
            _ = try RealStoreMigrationTests.container(model2, versions: versions, at: url)
        }
        #expect(after["com.example.lastSync"] as? String == "2026-11-28")
        #expect((after["com.example.counts"] as? [String: Any])?["entries"] as? Int == 3)
        #expect(after["NSStoreUUID"] as? String == before["NSStoreUUID"] as? String)
        #expect(after["NSStoreModelVersionHashes"] as? [String: Data] == model2.entityVersionHashesByName)
        #expect(after["NSStoreModelVersionHashesDigest"] as? String == model2.versionHashesDigest)
        #expect(before["NSStoreModelVersionHashes"] as? [String: Data] != model2.entityVersionHashesByName)
    }

    @Test("a migration through an app's mapping model keeps the app's metadata keys")
    func mappingMigrationKeepsAppKeys() throws {
        let versions = try ManagedObjectModelVersions(contentsOf: AppMappingModelTests.corpus(AppMappingModelTests.exampleBundle))
        let model3 = try #require(versions.version(named: "CoreDataMigration_Example 3"))
        let store = "wibosco__CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite"
        let source = AppStoreMigrationTests.Source(
            store: store, bundle: AppMappingModelTests.exampleBundle, mappingFolder: AppMappingModelTests.exampleMappings)
        let mappings = try AppStoreMigrationTests.mappingModels(for: source, versions: versions)
        #expect(!mappings.isEmpty)
        let directory = try TemporaryDirectory()
        let (before, after) = try Self.appKeysAfterMigration(store, into: directory) { url in
            _ = try RealStoreMigrationTests.container(model3, versions: versions, at: url) { $0.mappingModels = mappings }
        }
        #expect(after["com.example.lastSync"] as? String == "2026-11-28")
        #expect((after["com.example.counts"] as? [String: Any])?["entries"] as? Int == 3)
        #expect(after["NSStoreUUID"] as? String == before["NSStoreUUID"] as? String)
        #expect(after["NSStoreModelVersionHashes"] as? [String: Data] == model3.entityVersionHashesByName)
        #expect(after["NSStoreModelVersionChecksumKey"] as? String == model3.versionChecksum)
    }
}
