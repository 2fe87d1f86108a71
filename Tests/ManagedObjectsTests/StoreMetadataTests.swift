import Foundation
import ModelFileLoading
@testable import ManagedObjects
import Testing

/// A store's metadata (`Z_METADATA.Z_PLIST`), set through a store and through a store file, on a
/// store Core Data wrote: its own keys, known here or not, stay byte for byte; keys an app adds
/// come back.
@Suite("Store metadata")
struct StoreMetadataTests {
    static let surfJournal = RealSQLiteStoreTests.cases.first { $0.store.hasSuffix("SurfJournalModel.sqlite") }!

    /// The file's `Z_PLIST` as stored.
    static func storedPropertyList(_ url: URL) throws -> Data {
        let hex = try rawSQL(url.path, "SELECT Z_PLIST FROM Z_METADATA")
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        return Data(bytes)
    }

    static func dictionary(_ plist: Data) throws -> [String: Any] {
        try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
    }

    /// One value as a binary property list of its own: equal bytes, equal value and type.
    static func bytes(_ value: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: ["v": value], format: .binary, options: 0)
    }

    @Test("a store Core Data wrote keeps every key of its metadata byte for byte through setMetadata and a save; added keys round trip")
    func realStoreKeysSurviveSetMetadata() throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(Self.surfJournal.store, into: directory)
        let model = try RealSQLiteStoreTests.model(Self.surfJournal)
        let originalPlist = try Self.storedPropertyList(url)
        let original = try Self.dictionary(originalPlist)
        // Core Data's keys, several of which this runtime never reads.
        for key in ["NSStoreType", "NSStoreModelVersionHashes", "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashesVersion",
                    "NSStoreModelVersionIdentifiers", "_NSAutoVacuumLevel"] {
            #expect(original[key] != nil, "\(key)")
        }
        let uuid = try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA")

        let context = try sqliteContext(model, at: url)
        let coordinator = context.persistentStoreCoordinator!
        let store = try #require(coordinator.persistentStores.first)
        let read = coordinator.metadata(for: store)
        #expect(read["NSStoreUUID"] as? String == uuid)
        for (key, value) in original { #expect(try Self.bytes(read[key] as Any) == Self.bytes(value), "\(key)") }

        // A save that does not set metadata leaves the plist as it was.
        try context.performAndWait {
            let entry = ManagedObject(entity: model["JournalEntry"]!, insertInto: context)
            entry.setValue("Pipeline", forKey: "location")
            try context.save()
        }
        #expect(try Self.storedPropertyList(url) == originalPlist)

        var metadata = coordinator.metadata(for: store)
        metadata["com.example.lastSync"] = "2026-11-28"
        metadata["com.example.counts"] = ["entries": 3, "flags": [true, false]] as [String: Any]
        coordinator.setMetadata(metadata, for: store)
        #expect(store.metadata["com.example.lastSync"] as? String == "2026-11-28")
        // Not written until the next save.
        #expect(try Self.storedPropertyList(url) == originalPlist)
        try context.performAndWait {
            let entry = ManagedObject(entity: model["JournalEntry"]!, insertInto: context)
            entry.setValue("Rincon", forKey: "location")
            try context.save()
        }

        let written = try Self.dictionary(Self.storedPropertyList(url))
        for (key, value) in original { #expect(try Self.bytes(written[key] as Any) == Self.bytes(value), "\(key)") }
        #expect(written["com.example.lastSync"] as? String == "2026-11-28")
        // Core Data keeps the UUID in Z_UUID only; so does the rewritten plist.
        #expect(written["NSStoreUUID"] == nil)
        #expect(Set(written.keys) == Set(original.keys).union(["com.example.lastSync", "com.example.counts"]))
        #expect(try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA") == uuid)

        // A new coordinator opens the store (its model keys are intact) and reads the app's keys.
        let reopened = try sqliteContext(model, at: url)
        let reopenedStore = try #require(reopened.persistentStoreCoordinator.persistentStores.first)
        let counts = try #require(reopenedStore.metadata["com.example.counts"] as? [String: Any])
        #expect(counts["entries"] as? Int == 3)
        #expect((counts["flags"] as? [Bool]) == [true, false])
        #expect(try reopened.performAndWait { try reopened.count(for: FetchRequest<ManagedObject>(entityName: "JournalEntry")) }
            == Int(rawSQL(url.path, "SELECT COUNT(*) FROM ZJOURNALENTRY")))
    }

    @Test("setMetadata(_:forPersistentStoreOfType:at:) writes a store file's metadata without a coordinator; its own keys stay")
    func setMetadataOnAFile() throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(Self.surfJournal.store, into: directory)
        let model = try RealSQLiteStoreTests.model(Self.surfJournal)
        let original = try Self.dictionary(Self.storedPropertyList(url))

        var metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        metadata["com.example.seeded"] = Data([0, 1, 2, 254, 255])
        try PersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: .sqlite, at: url)
        let read = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        #expect(read["com.example.seeded"] as? Data == Data([0, 1, 2, 254, 255]))
        let written = try Self.dictionary(Self.storedPropertyList(url))
        for (key, value) in original { #expect(try Self.bytes(written[key] as Any) == Self.bytes(value), "\(key)") }

        // A dictionary without the model's keys (or a different UUID and type) keeps the store's:
        // the store still opens with its model.
        try PersistentStoreCoordinator.setMetadata(
            ["only": 1, "NSStoreUUID": "not-the-store", "NSStoreType": "Binary"], forPersistentStoreOfType: .sqlite, at: url)
        let replaced = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        #expect(replaced["only"] as? Int == 1)
        #expect(replaced["com.example.seeded"] == nil)
        #expect(replaced["NSStoreType"] as? String == "SQLite")
        #expect(replaced["NSStoreUUID"] as? String == read["NSStoreUUID"] as? String)
        #expect(try Self.bytes(replaced["NSStoreModelVersionHashes"] as Any) == Self.bytes(original["NSStoreModelVersionHashes"] as Any))
        _ = try sqliteContext(model, at: url)
    }

    @Test("metadata that is not a property list is refused with 134070 naming the key; a file that is no store with 134080")
    func badMetadataIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(Self.surfJournal.store, into: directory)
        let before = try Self.storedPropertyList(url)
        let error = try #require(throws: ManagedObjectError.self) {
            try PersistentStoreCoordinator.setMetadata(["bad": NSObject()], forPersistentStoreOfType: .sqlite, at: url)
        }
        #expect(error.code == .persistentStoreOperation)
        #expect("\(error)".contains("bad"))
        #expect(try Self.storedPropertyList(url) == before)

        let text = directory.file("notes.sqlite")
        try Data("not a database".utf8).write(to: text)
        let notStore = try #require(throws: ManagedObjectError.self) {
            try PersistentStoreCoordinator.setMetadata(["key": 1], forPersistentStoreOfType: .sqlite, at: text)
        }
        #expect(notStore.code == .persistentStoreOpen)
        #expect(try Data(contentsOf: text) == Data("not a database".utf8))
    }

    @Test("an in-memory store keeps its metadata, with its type and UUID")
    func inMemoryMetadata() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: StoreConfigurationTests.notesModel)
        let store = try coordinator.addPersistentStore(type: .inMemory)
        #expect(store.metadata["NSStoreType"] as? String == "InMemory")
        #expect(store.metadata["NSStoreUUID"] as? String == store.identifier)
        coordinator.setMetadata(["key": "value"], for: store)
        #expect(coordinator.metadata(for: store)["key"] as? String == "value")
        #expect(coordinator.metadata(for: store)["NSStoreUUID"] as? String == store.identifier)
    }
}
