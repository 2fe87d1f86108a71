import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// What a history change says beyond its type: the properties an update changed
/// (`updatedProperties`, `ACHANGE.ZCOLUMNS`) and the preserved values of a deleted object
/// (`tombstone`, `ACHANGE.ZTOMBSTONE<n>`), for saves and for batch requests, read back by another
/// coordinator. The encoding is inferred (see `PersistentHistoryColumns`); the raw columns are
/// checked so that a change of encoding shows here.
@Suite("Persistent history: updated properties, tombstones, batch requests")
struct PersistentHistoryChangeDetailTests {
    /// Item: `code` and `uid` preserve their values on deletion, `name` and `count` do not;
    /// its properties in name order: code, count, name, owner, uid. Owner: one preserved
    /// attribute, so `ACHANGE` has two tombstone columns (Item's count).
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Item", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "count", type: .integer64, isOptional: true),
            Attribute(name: "code", type: .string, isOptional: true, preserveAfterDeletion: true),
            Attribute(name: "uid", type: .uuid, isOptional: true, preserveAfterDeletion: true),
            Attribute(name: "scratch", type: .string, isOptional: true, isTransient: true),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Owner", inverseName: "items", inverseEntity: "Owner", isOptional: true),
        ]),
        Entity(name: "Owner", attributes: [
            Attribute(name: "label", type: .string, isOptional: true, preserveAfterDeletion: true),
        ], relationships: [
            Relationship(name: "items", destinationEntity: "Item", inverseName: "owner", inverseEntity: "Item",
                         isToMany: true, isOptional: true, deleteRule: .nullify),
        ]),
    ]))

    static func context(at url: URL, author: String? = nil) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        context.transactionAuthor = author
        return context
    }

    static func history(at url: URL) throws -> [PersistentHistoryTransaction] {
        let reader = try context(at: url)
        return try reader.performAndWait {
            try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
        }
    }

    @Test("an update names the properties it changed; a delete keeps the preserved attributes' values")
    func updatedPropertiesAndTombstones() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Detail.sqlite")
        let uid = UUID()
        let context = try Self.context(at: url)
        let (itemID, ownerID) = try context.performAndWait {
            let owner = ManagedObject(entity: Self.model["Owner"]!, insertInto: context)
            owner.setValue("shelf", forKey: "label")
            let item = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
            item.setValue("first", forKey: "name")
            item.setValue("A-1", forKey: "code")
            item.setValue(uid, forKey: "uid")
            item.setValue(Int64(3), forKey: "count")
            try context.save()
            item.setValue("second", forKey: "name")
            item.setValue(Int64(4), forKey: "count")
            item.setValue("not stored", forKey: "scratch")
            try context.save()
            item.setValue(owner, forKey: "owner")
            try context.save()
            context.delete(item)
            try context.save()
            return (item.objectID, owner.objectID)
        }
        let transactions = try Self.history(at: url)
        try #require(transactions.count == 4)
        #expect(transactions[0].changes.allSatisfy { $0.updatedProperties == nil && $0.tombstone == nil })
        let rename = try #require(transactions[1].changes.first)
        #expect(rename.changeType == .update && rename.changedObjectID == itemID)
        #expect(rename.updatedPropertyNames == ["count", "name"])
        // Setting the to-one changes the item's owner and the owner's items.
        let linked = transactions[2].changes
        #expect(Set(linked.map(\.changedObjectID)) == [itemID, ownerID])
        #expect(linked.first { $0.changedObjectID == itemID }?.updatedPropertyNames == ["owner"])
        #expect(linked.first { $0.changedObjectID == ownerID }?.updatedPropertyNames == ["items"])
        let deletion = try #require(transactions[3].changes.first { $0.changedObjectID == itemID })
        #expect(deletion.changeType == .delete && deletion.updatedProperties == nil)
        #expect(deletion.tombstone?.count == 2)
        #expect(deletion.tombstone?["code"] as? String == "A-1")
        #expect(deletion.tombstone?["uid"] as? UUID == uid)
        // The raw rows: code, count, name, owner, uid → count (bit 1) and name (bit 2) from the
        // most significant bit; the tombstones stored as the attributes' own columns store them.
        #expect(try rawSQL(url.path, "SELECT hex(ZCOLUMNS) FROM ACHANGE WHERE ZCHANGETYPE = 1 ORDER BY Z_PK LIMIT 1") == "60")
        #expect(try rawSQL(url.path, "SELECT ZTOMBSTONE0, hex(ZTOMBSTONE1) FROM ACHANGE WHERE ZCHANGETYPE = 2")
            == "A-1|" + withUnsafeBytes(of: uid.uuid) { $0.map { String(format: "%02X", $0) }.joined() })
        #expect(try rawSQL(url.path, "SELECT sql FROM sqlite_master WHERE name = 'ACHANGE'").hasSuffix(
            "ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB )"))
    }

    @Test("history tables without enough tombstone columns get them, their rows kept")
    func tombstoneColumnsAddedToExistingTables() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.file("Tables.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
            try PersistentHistorySchema.create(in: db, tombstoneColumns: 0)
            try db.execute(sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE) VALUES (1, 16001, 0)")
            #expect(try PersistentHistorySchema.tombstoneColumns(in: db).isEmpty)
            #expect(try PersistentHistorySchema.needsChange(in: db, tombstoneColumns: 2))
            try PersistentHistorySchema.create(in: db, tombstoneColumns: 2)
            #expect(try PersistentHistorySchema.tombstoneColumns(in: db) == ["ZTOMBSTONE0", "ZTOMBSTONE1"])
            #expect(try !PersistentHistorySchema.needsChange(in: db, tombstoneColumns: 1))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE WHERE Z_PK = 1 AND ZTOMBSTONE1 IS NULL") == 1)
        }
    }

    @Test("batch insert, update and delete each record one transaction with their changes")
    func batchRequestsRecordHistory() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Batch.sqlite")
        let context = try Self.context(at: url, author: "batcher")
        try context.performAndWait {
            let insert = BatchInsertRequest(entityName: "Item", objects: (0..<5).map { ["name": "item \($0)", "code": "C\($0)", "count": Int64($0)] })
            try context.execute(insert)
            let update = BatchUpdateRequest(entityName: "Item")
            update.predicate = ObjectPredicate("count >= 3")
            update.propertiesToUpdate = ["name": "big"]
            try context.execute(update)
            let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("count < 2")))
            try context.execute(delete)
        }
        let transactions = try Self.history(at: url)
        try #require(transactions.count == 3)
        #expect(transactions.allSatisfy { $0.author == "batcher" })
        #expect(transactions[0].changes.map(\.changeType) == Array(repeating: .insert, count: 5))
        let keys = { (transaction: PersistentHistoryTransaction) in transaction.changes.compactMap(\.changedObjectID.storeNumber).sorted() }
        #expect(keys(transactions[0]) == [1, 2, 3, 4, 5])
        #expect(transactions[1].changes.map(\.changeType) == [.update, .update])
        #expect(keys(transactions[1]) == [4, 5])
        #expect(transactions[1].changes.allSatisfy { $0.updatedPropertyNames == ["name"] })
        #expect(transactions[2].changes.map(\.changeType) == [.delete, .delete])
        #expect(keys(transactions[2]) == [1, 2])
        #expect(Set(transactions[2].changes.compactMap { $0.tombstone?["code"] as? String }) == ["C0", "C1"])
        // As many changes as the rows say.
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ACHANGE") == "9")
    }

    @Test("a batch delete records the objects its delete rule changes as updates of the inverse")
    func batchDeleteRecordsNullifiedObjects() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Nullify.sqlite")
        let context = try Self.context(at: url)
        let (ownerID, itemIDs) = try context.performAndWait {
            let owner = ManagedObject(entity: Self.model["Owner"]!, insertInto: context)
            owner.setValue("gone", forKey: "label")
            let items = (0..<2).map { _ in ManagedObject(entity: Self.model["Item"]!, insertInto: context) }
            for item in items { item.setValue(owner, forKey: "owner") }
            try context.save()
            try context.execute(BatchDeleteRequest(objectIDs: [owner.objectID]))
            return (owner.objectID, items.map(\.objectID))
        }
        let last = try #require(try Self.history(at: url).last)
        #expect(last.changes.first?.changeType == .delete && last.changes.first?.changedObjectID == ownerID)
        #expect(last.changes.first?.tombstone?["label"] as? String == "gone")
        #expect(Set(last.changes.dropFirst().map(\.changedObjectID)) == Set(itemIDs))
        #expect(last.changes.dropFirst().allSatisfy { $0.changeType == .update && $0.updatedPropertyNames == ["owner"] })
    }

    @Test("a ZCOLUMNS naming more properties than the entity has reads as an error naming the row")
    func hostileColumns() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Hostile.sqlite")
        let context = try Self.context(at: url)
        try context.performAndWait {
            let item = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
            try context.save()
            item.setValue("x", forKey: "name")
            try context.save()
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "UPDATE ACHANGE SET ZCOLUMNS = x'0001' WHERE ZCHANGETYPE = 1") }
        try queue.close()
        let error = #expect(throws: ManagedObjectError.self) { try Self.history(at: url) }
        #expect(error?.description.contains("ACHANGE row") == true)
        #expect(error?.description.contains("ZCOLUMNS") == true)
    }
}
