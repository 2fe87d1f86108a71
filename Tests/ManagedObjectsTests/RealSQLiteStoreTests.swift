import DataModel
import ModelFileLoading
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// Stores Apple's Core Data wrote (`shared/stores`, with their models in `shared/corpus`): they
/// open here with their model, and what the store reads is what the file holds.
@Suite("SQLite store: stores Core Data wrote")
struct RealSQLiteStoreTests {
    static let shared = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared").standardized

    struct Case: CustomTestStringConvertible, Sendable {
        /// Under `shared/stores`; its `-wal` and `-shm` come along when present.
        var store: String
        /// Under `shared/corpus`, with the version that wrote the store.
        var model: String
        var version: String

        var testDescription: String { store }
    }

    static let cases = [
        Case(store: "alemar11__CoreDataPlus/SampleModel_V1.sqlite",
             model: "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", version: "SampleModel"),
        Case(store: "alemar11__CoreDataPlus/SampleModel_V2.sqlite",
             model: "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", version: "SampleModel2"),
        Case(store: "alemar11__CoreDataPlus/SampleModel3_V1.sqlite",
             model: "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld", version: "SampleModel3"),
        Case(store: "raywenderlich__cdt-materials/SurfJournalModel.sqlite",
             model: "raywenderlich__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld",
             version: "SurfJournalModel"),
    ]

    /// Copies a store (and its `-wal`/`-shm`) into `directory`: the originals are never opened,
    /// since SQLite may write beside a store even to read it.
    static func copy(_ store: String, into directory: TemporaryDirectory) throws -> URL {
        let source = shared.appendingPathComponent("stores").appendingPathComponent(store)
        let copy = directory.file(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let from = URL(fileURLWithPath: source.path + suffix)
            guard FileManager.default.fileExists(atPath: from.path) else { continue }
            let to = URL(fileURLWithPath: copy.path + suffix)
            try FileManager.default.copyItem(at: from, to: to)
            // The shared files are read-only; SQLite needs to write the copies.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: to.path)
        }
        return copy
    }

    static func model(_ testCase: Case) throws -> ManagedObjectModel {
        try ManagedObjectModel(
            contentsOf: shared.appendingPathComponent("corpus").appendingPathComponent(testCase.model),
            versionName: testCase.version)
    }

    @Test("each entity counts as many objects as the file has rows with its Z_ENT", arguments: cases)
    func countsPerEntity(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy(testCase.store, into: directory)
        let model = try Self.model(testCase)
        let context = try sqliteContext(model, at: url)
        let store = try #require(context.persistentStoreCoordinator.persistentStores.first as? SQLiteStore)
        var total = 0
        for entity in model.entities {
            let number = try #require(store.schema.entityNumbers[entity.name])
            let table = "Z" + entity.rootEntity.name.uppercased()
            let expected = try #require(Int(rawSQL(url.path, "SELECT COUNT(*) FROM \(table) WHERE Z_ENT = \(number)")))
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            let counted = try context.performAndWait { try context.count(for: request) }
            let fetched = try context.performAndWait { try context.fetch(request).count }
            #expect(counted == expected, "\(entity.name) (Z_ENT \(number))")
            #expect(fetched == expected, "\(entity.name) (Z_ENT \(number))")
            total += expected
        }
        #expect(total > 0)
    }

    @Test("attribute values and to-one keys are the file's", arguments: cases)
    func sampleValues(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy(testCase.store, into: directory)
        let model = try Self.model(testCase)
        let context = try sqliteContext(model, at: url)
        let store = try #require(context.persistentStoreCoordinator.persistentStores.first as? SQLiteStore)
        var compared = 0
        for entity in model.entities {
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            request.fetchLimit = 7
            let objects = try context.performAndWait { try context.fetch(request) }
            let table = "Z" + entity.rootEntity.name.uppercased()
            for object in objects {
                let key = try #require(object.objectID.storeNumber)
                for property in entity.properties {
                    let raw: String
                    let read: String
                    switch store.schema.storage[entity.name]![property.index] {
                    case .attribute(let column, let type):
                        raw = try rawSQL(url.path, "SELECT \(column) FROM \(table) WHERE Z_PK = \(key)")
                        read = context.performAndWait { Self.rendered(object.value(forKey: property.name), type: type) }
                    case .toOne(let column, _):
                        raw = try rawSQL(url.path, "SELECT \(column) FROM \(table) WHERE Z_PK = \(key)")
                        read = context.performAndWait {
                            (object.value(forKey: property.name) as? ManagedObject)?.objectID.storeNumber.map(String.init) ?? ""
                        }
                    default:
                        continue
                    }
                    #expect(read == raw, "\(entity.name) \(key) \(property.name)")
                    compared += 1
                }
            }
        }
        #expect(compared > 0)
    }

    /// A value as `rawSQL` prints its column.
    static func rendered(_ value: Any?, type: AttributeType) -> String {
        switch value {
        case nil: ""
        case let date as Date: String(date.timeIntervalSinceReferenceDate)
        case let flag as Bool: flag ? "1" : "0"
        case let uuid as UUID: withUnsafeBytes(of: uuid.uuid) { $0.map { String(format: "%02X", $0) }.joined() }
        case let data as Data: data.map { String(format: "%02X", $0) }.joined()
        case let value?: "\(value)"
        }
    }

    @Test("a store written with another model is refused, naming the file, and left as it was")
    func otherModelRefused() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy("alemar11__CoreDataPlus/SampleModel3_V1.sqlite", into: directory)
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model(Self.cases[0]))
        let error = try #require(throws: ManagedObjectError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.contains(url.path))
        #expect(try Data(contentsOf: url) == before)
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test("an SQLite file that is not a Core Data store is refused and left as it was")
    func plainSQLiteRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Plain.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE t (a INTEGER)") }
        try queue.close()
        let before = try Data(contentsOf: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model(Self.cases[2]))
        let error = try #require(throws: ManagedObjectError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        }
        #expect(error.code == .persistentStoreIncompatibleSchema)
        #expect(error.message.contains(url.path))
        #expect(try Data(contentsOf: url) == before)
        #expect(try rawSQL(url.path, "PRAGMA journal_mode") == "delete")
    }

    @Test("a store Core Data wrote takes new objects, keys from its Z_PRIMARYKEY")
    func writesIntoRealStore() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy("alemar11__CoreDataPlus/SampleModel3_V1.sqlite", into: directory)
        let model = try Self.model(Self.cases[2])
        let context = try sqliteContext(model, at: url)
        try context.performAndWait {
            let user = ManagedObject(entity: model["User"]!, insertInto: context)
            user.setValue("Grace", forKey: "name")
            try context.save()
            #expect(user.objectID.storeNumber == 13)
        }
        #expect(try rawSQL(url.path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'User'") == "13")
        #expect(try rawSQL(url.path, "SELECT Z_ENT, Z_OPT, ZNAME FROM ZUSER WHERE Z_PK = 13") == "1|1|Grace")
        let reader = try sqliteContext(model, at: url)
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest<ManagedObject>(entityName: "User")) } == 13)
    }

    @Test("a corrupt store (SQLite header, damaged pages) is refused with 134080, naming the file, and left as it was")
    func corruptStoreRefused() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.copy("alemar11__CoreDataPlus/SampleModel3_V1.sqlite", into: directory)
        var bytes = try Data(contentsOf: url)
        // Keep the 16-byte header, damage the rest of the first page (the schema's root).
        for index in 16..<min(bytes.count, 4096) { bytes[index] = 0xA5 }
        try bytes.write(to: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model(Self.cases[2]))
        let error = try #require(throws: ManagedObjectError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        }
        #expect(error.code == .persistentStoreOpen)
        #expect(error.message.contains(url.path))
        // SQLite's own error stays with it, as Core Data keeps it under NSUnderlyingErrorKey.
        let underlying = try #require(error.underlyingError as? DatabaseError)
        #expect([.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(underlying.resultCode), "\(underlying)")
        let bridged = try #require((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(bridged.code == Int(underlying.resultCode.rawValue))
        #expect(try Data(contentsOf: url) == bytes)
        #expect(coordinator.persistentStores.isEmpty)
    }
}
