import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Saves recording persistent history in Core Data's tables when the store has history
/// tracking on, read back through `PersistentHistoryChangeRequest` by another coordinator.
@Suite("Persistent history: saves record transactions and changes")
struct PersistentHistoryRecordingTests {
    static let model = ManagedObjectModel(Model(entities: [Entity(name: "Item", attributes: [Attribute(name: "name", type: .string, isOptional: true)])]))

    static func context(at url: URL, tracking: Bool) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: tracking)
        return ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    }

    /// Three inserts in one save, then an update and a delete in another; the IDs saved.
    static func saveSome(in context: ManagedObjectContext) throws -> [ManagedObjectID] {
        try context.performAndWait {
            context.transactionAuthor = "importer"
            context.name = "import context"
            let items = (0..<3).map { index in
                let item = ManagedObject(entity: model["Item"]!, insertInto: context)
                item.setValue("item \(index)", forKey: "name")
                return item
            }
            try context.save()
            context.transactionAuthor = "editor"
            items[0].setValue("renamed", forKey: "name")
            context.delete(items[1])
            try context.save()
            return items.map(\.objectID)
        }
    }

    @Test("each save records one transaction with its author, context name, process and one change per object")
    func savesRecordHistory() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("History.sqlite")
        let ids = try Self.saveSome(in: Self.context(at: url, tracking: true))
        let reader = try Self.context(at: url, tracking: true)
        try reader.performAndWait {
            let transactions = try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            try #require(transactions.count == 2)
            let (first, second) = (transactions[0], transactions[1])
            #expect(first.author == "importer" && second.author == "editor")
            #expect(first.contextName == "import context" && second.contextName == "import context")
            #expect(first.processID == ProcessInfo.processInfo.processName)
            #expect(first.timestamp <= second.timestamp && first.token < second.token)
            #expect(first.changes.map(\.changeType) == [.insert, .insert, .insert])
            #expect(Set(first.changes.map(\.changedObjectID)) == Set(ids))
            #expect(second.changes.map(\.changeType) == [.delete, .update])
            #expect(second.changes.map(\.changedObjectID) == [ids[1], ids[0]])
            // After the first transaction's token: the second only.
            #expect(try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: first.token)).transactions == [second])
            #expect(try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: first)).transactions == [second])
            // The objects resolve in the reading context.
            #expect(try reader.existingObject(with: ids[0]).value(forKey: "name") as? String == "renamed")
        }
        // Z_PRIMARYKEY's counters are the tables' highest keys, as Core Data keeps them.
        let counters = try rawSQL(url.path, """
            SELECT p.Z_NAME, p.Z_MAX = (SELECT MAX(Z_PK) FROM ACHANGE) FROM Z_PRIMARYKEY p WHERE p.Z_ENT = 16001
            UNION ALL SELECT p.Z_NAME, p.Z_MAX = (SELECT MAX(Z_PK) FROM ATRANSACTION) FROM Z_PRIMARYKEY p WHERE p.Z_ENT = 16002
            UNION ALL SELECT p.Z_NAME, p.Z_MAX = (SELECT MAX(Z_PK) FROM ATRANSACTIONSTRING) FROM Z_PRIMARYKEY p WHERE p.Z_ENT = 16003
            """)
        #expect(counters == "CHANGE|1\nTRANSACTION|1\nTRANSACTIONSTRING|1")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ACHANGE") == "5")
        // ZCOLUMNS only for the update: Item's one property, `name`, is the first bit.
        #expect(try rawSQL(url.path, "SELECT ZCHANGETYPE, Z_OPT IS NULL, ZCOLUMNS, Z_ENT FROM ACHANGE GROUP BY 1, 2, 3, 4")
            == "0|1||16001\n1|1|80|16001\n2|1||16001")
        // Each name once in ATRANSACTIONSTRING, whichever transactions use it.
        #expect(try rawSQL(url.path, "SELECT COUNT(*) = COUNT(DISTINCT ZNAME) FROM ATRANSACTIONSTRING") == "1")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ATRANSACTIONSTRING WHERE ZNAME IN ('importer', 'editor', 'import context')") == "3")
    }

    @Test("with history tracking off, saves record nothing, even in a store that has the history tables")
    func trackingOffRecordsNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("NoHistory.sqlite")
        _ = try Self.saveSome(in: Self.context(at: url, tracking: false))
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'ATRANSACTION'") == "0")
        let reader = try Self.context(at: url, tracking: false)
        #expect(try reader.performAndWait { try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)) }.transactions.isEmpty)
        let withTables = directory.file("TablesOnly.sqlite")
        _ = try Self.context(at: withTables, tracking: true)
        _ = try Self.saveSome(in: Self.context(at: withTables, tracking: false))
        #expect(try rawSQL(withTables.path, "SELECT (SELECT COUNT(*) FROM ATRANSACTION) + (SELECT COUNT(*) FROM ACHANGE)") == "0")
    }

    /// Item with a sub-entity in its table, and Part in a table of its own.
    static let inheritanceModel = ManagedObjectModel(Model(entities: [
        Entity(name: "Item", attributes: [Attribute(name: "name", type: .string, isOptional: true)]),
        Entity(name: "SpecialItem", parentEntity: "Item", attributes: [Attribute(name: "grade", type: .integer64, isOptional: true)]),
        Entity(name: "Part", attributes: [Attribute(name: "name", type: .string, isOptional: true)]),
    ]))

    @Test("a save's new objects each record one insertion: keys that do not follow each other, sub-entities sharing a table, several entities")
    func insertionsOfEveryRun() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Insertions.sqlite")
        func context() throws -> ManagedObjectContext {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.inheritanceModel)
            try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
            return ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        }
        let (writer, other) = (try context(), try context())
        let model = Self.inheritanceModel
        // Two items take their keys now; another coordinator's save takes the next ones.
        let early = try writer.performAndWait {
            let items = (0..<2).map { _ in ManagedObject(entity: model["Item"]!, insertInto: writer) }
            try writer.obtainPermanentIDs(for: items)
            return items.map(\.objectID)
        }
        let others = try other.performAndWait {
            let items = (0..<2).map { _ in ManagedObject(entity: model["Item"]!, insertInto: other) }
            try other.save()
            return items.map(\.objectID)
        }
        let saved = try writer.performAndWait {
            let late = (0..<2).map { _ in ManagedObject(entity: model["Item"]!, insertInto: writer) }
                + (0..<3).map { _ in ManagedObject(entity: model["SpecialItem"]!, insertInto: writer) }
                + (0..<2).map { _ in ManagedObject(entity: model["Part"]!, insertInto: writer) }
            try writer.save()
            return early + late.map(\.objectID)
        }
        let transactions = try writer.performAndWait {
            try writer.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        }
        try #require(transactions.count == 2)
        #expect(Set(transactions[0].changes.map(\.changedObjectID)) == Set(others))
        let changes = transactions[1].changes
        #expect(changes.count == 9 && changes.allSatisfy { $0.changeType == .insert })
        #expect(Set(changes.map(\.changedObjectID)) == Set(saved))
        #expect(changes.map(\.changedObjectID.entity.name).sorted() == ["Item", "Item", "Item", "Item", "Part", "Part", "SpecialItem", "SpecialItem", "SpecialItem"])
        // Each change names its row's entity; keys follow each other in the table, one per change.
        #expect(try rawSQL(url.path, """
            SELECT COUNT(*) FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY
            WHERE (p.Z_NAME IN ('Item', 'SpecialItem') AND EXISTS (SELECT 1 FROM ZITEM WHERE Z_PK = c.ZENTITYPK AND Z_ENT = c.ZENTITY))
            OR (p.Z_NAME = 'Part' AND EXISTS (SELECT 1 FROM ZPART WHERE Z_PK = c.ZENTITYPK))
            """) == "11")
        #expect(try rawSQL(url.path, "SELECT COUNT(*), COUNT(DISTINCT ZENTITY || '/' || ZENTITYPK), MAX(Z_PK) - MIN(Z_PK) + 1, SUM(ZCOLUMNS IS NULL) FROM ACHANGE")
            == "11|11|11|11")
    }
}
