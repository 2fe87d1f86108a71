import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// Core Data's persistent history tables (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`), as
/// the real stores that have them show them (CoreDataPlus's SampleModel2 stores, see
/// `shared/stores/README.md`): a store Core Data wrote with history opens and keeps its history
/// through saves here; with history tracking on, a store made here has the same tables (their
/// columns and indexes are checked with every other table in `RealStoreFidelityTests`).
@Suite("Persistent history tables: kept as Core Data wrote them, made as Core Data makes them")
struct PersistentHistoryStoreTests {
    static let historyStores = [
        "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V1.sqlite",
        "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V2.sqlite",
    ]

    init() {
        RealAppTransformers.registered
    }

    /// Every row of the history tables and their `Z_PRIMARYKEY` rows, read through a connection
    /// of its own.
    static func historyRows(at url: URL) throws -> [String: [Row]] {
        let queue = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [String: [Row]] = [:]
            for table in PersistentHistorySchema.tableNames {
                rows[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY Z_PK")
            }
            rows["Z_PRIMARYKEY"] = try Row.fetchAll(db, sql: "SELECT * FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
            return rows
        }
    }

    @Test("a store Core Data wrote with history opens, with the option on or off, and a save keeps its history rows (adding its own with the option on)",
          arguments: historyStores, [false, true])
    func keepsHistoryThroughASave(_ path: String, tracking: Bool) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(path, into: directory)
        let before = try Self.historyRows(at: url)
        let historySchema = "SELECT sql FROM sqlite_master WHERE tbl_name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING') ORDER BY name"
        let schemaBefore = try rawSQL(url.path, historySchema)
        // The file has history rows: one transaction, its strings, its changes.
        #expect(before["ATRANSACTION"]?.count == 1)
        #expect(before["ATRANSACTIONSTRING"]?.count == 2)
        #expect((before["ACHANGE"]?.count ?? 0) > 100)
        #expect(before["Z_PRIMARYKEY"]?.map { $0["Z_NAME"] as String } == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])

        let store = try #require(RealStoreFidelityTests.stores.first { $0.path == path })
        let model = try RealStoreFidelityTests.writingVersion(of: store, at: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: tracking)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            let feedbacks = try context.fetch(FetchRequest<ManagedObject>(entityName: "Feedback"))
            #expect(feedbacks.count == Int(try rawSQL(url.path, "SELECT COUNT(*) FROM ZFEEDBACK")))
            let first = try #require(feedbacks.first)
            first.setValue("changed here", forKey: "comment")
            let added = ManagedObject(entity: model["Feedback"]!, insertInto: context)
            added.setValue("added here", forKey: "authorAlias")
            added.setValue(UUID(), forKey: "bookID")
            added.setValue(4.5, forKey: "rating")
            try context.save()
        }
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZFEEDBACK WHERE ZCOMMENT = 'changed here' OR ZAUTHORALIAS = 'added here'") == "2")
        let after = try Self.historyRows(at: url)
        if tracking {
            // Core Data's rows stay as they were; the save adds its own transaction after them.
            for table in PersistentHistorySchema.tableNames {
                #expect(Array(after[table, default: []].prefix(before[table, default: []].count)) == before[table])
            }
            #expect(after["ATRANSACTION"]?.count == 2)
            #expect(after["ACHANGE"]?.count == (before["ACHANGE"]?.count ?? 0) + 2)
            // The update names the one property changed; the model preserves no attribute, so
            // the tables keep the columns Core Data declared (no tombstone column added).
            let saved = try context.performAndWait {
                try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.last
            }
            #expect(saved?.changes.first { $0.changeType == .update }?.updatedPropertyNames == ["comment"])
            #expect(saved?.changes.first { $0.changeType == .insert }?.updatedProperties == nil)
        } else {
            #expect(after == before)
        }
        #expect(try rawSQL(url.path, historySchema) == schemaBefore)
    }

    @Test("with history tracking on, a new store has the history entities in Z_PRIMARYKEY as Core Data numbers them")
    func newStoreHasHistoryEntities() throws {
        let directory = try TemporaryDirectory()
        let real = try RealSQLiteStoreTests.copy(Self.historyStores[0], into: directory)
        let store = try #require(RealStoreFidelityTests.stores.first { $0.path == Self.historyStores[0] })
        let model = try RealStoreFidelityTests.writingVersion(of: store, at: real)
        let created = directory.file("Created.sqlite")
        try PersistentStoreCoordinator(managedObjectModel: model)
            .addPersistentStore(type: .sqlite, at: created, persistentHistoryTracking: true)
        let entities = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT"
        #expect(try rawSQL(created.path, entities) == rawSQL(real.path, entities))
        #expect(try rawSQL(created.path, entities) == "16001|CHANGE|0\n16002|TRANSACTION|0\n16003|TRANSACTIONSTRING|0")
        #expect(try rawSQL(created.path, "SELECT COUNT(*) FROM ATRANSACTION") == "0")
    }

    @Test("a store without history gets the tables when opened with tracking on, and not when opened without")
    func historyAddedOnOpenOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Plain.sqlite")
        let model = ManagedObjectModel(Model(entities: [Entity(name: "Item", attributes: [Attribute(name: "name", type: .string, isOptional: true)])]))
        let tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'A%' ORDER BY name"
        _ = try sqliteContext(model, at: url)
        #expect(try rawSQL(url.path, tables) == "")
        _ = try sqliteContext(model, at: url)
        #expect(try rawSQL(url.path, tables) == "")
        try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
        #expect(try rawSQL(url.path, tables) == "ACHANGE\nATRANSACTION\nATRANSACTIONSTRING")
        // Opened again with tracking on, the tables (and their rows) stay as they are.
        try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") == "3")
    }
}
