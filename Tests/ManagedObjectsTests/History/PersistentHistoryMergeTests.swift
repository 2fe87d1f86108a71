import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Two coordinators on one SQLite file, as two processes would have them: A saves, B reads the
/// history after its last token and merges each transaction into its view context.
@Suite("Persistent history: another coordinator's saves merged through history")
struct PersistentHistoryMergeTests {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Item", attributes: [Attribute(name: "name", type: .string, isOptional: true)]),
    ]))

    static func coordinator(at url: URL) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
        return coordinator
    }

    static func names(in context: ManagedObjectContext) throws -> [String] {
        try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "name") as? String }.sorted()
    }

    @Test("inserted objects appear, deleted ones go, updated ones show their new values; the reader's own transactions are filtered out by author",
          .timeLimit(.minutes(5)))
    func mergesAnotherCoordinatorsSaves() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Shared.sqlite")
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url))
        writer.transactionAuthor = "app"
        let readerCoordinator = try Self.coordinator(at: url)
        let view = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: readerCoordinator)
        view.transactionAuthor = "reader"

        let items = try writer.performAndWait {
            let items = ["a", "b", "c"].map { name in
                let item = ManagedObject(entity: Self.model["Item"]!, insertInto: writer)
                item.setValue(name, forKey: "name")
                return item
            }
            try writer.save()
            return items
        }
        // B reads everything once (its objects and its cached rows now hold A's first save) and
        // notes where the history is.
        var lastToken = try #require(readerCoordinator.currentPersistentHistoryToken(fromStores: nil))
        let loaded = try view.performAndWait {
            #expect(try Self.names(in: view) == ["a", "b", "c"])
            return try items.map { try view.existingObject(with: $0.objectID) }
        }

        // A updates a, deletes b, inserts d; B saves something of its own meanwhile.
        try writer.performAndWait {
            items[0].setValue("a2", forKey: "name")
            writer.delete(items[1])
            ManagedObject(entity: Self.model["Item"]!, insertInto: writer).setValue("d", forKey: "name")
            try writer.save()
        }
        try view.performAndWait {
            ManagedObject(entity: Self.model["Item"]!, insertInto: view).setValue("own", forKey: "name")
            try view.save()
        }

        var announced: [ContextNotification] = []
        let observation = view.addObserver(for: [.objectsDidChange]) { announced.append($0) }
        defer { observation.cancel() }
        try view.performAndWait {
            // Without a merge, the loaded object still shows what B read.
            #expect(loaded[0].value(forKey: "name") as? String == "a")
            let all = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions
            #expect(all.map(\.author) == ["app", "reader"])
            // As Core Data code filters out its own transactions: a transaction fetch request
            // on a request for the history after the last token.
            let others = try #require(PersistentHistoryTransaction.fetchRequest)
            others.predicate = ObjectPredicate("author != %@", "reader")
            let fetch = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            fetch.fetchRequest = others
            let transactions = try view.execute(fetch).transactions
            #expect(transactions.map(\.author) == ["app"])
            for transaction in transactions {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                lastToken = transaction.token
            }
            // Updated: the registered object shows A's value without a refetch.
            #expect(loaded[0].value(forKey: "name") as? String == "a2")
            // Deleted: the object left the context.
            #expect(loaded[1].managedObjectContext == nil)
            #expect(view.registeredObject(for: items[1].objectID) == nil)
            // Inserted: announced, and fetched.
            #expect(try Self.names(in: view) == ["a2", "c", "d", "own"])
        }
        let merge = try #require(announced.last)
        #expect(merge.insertedObjectIDs.count == 1)
        #expect(merge.refreshedObjectIDs == [items[0].objectID])
        #expect(merge.deletedObjectIDs == [items[1].objectID])
        // The last token merged is A's transaction: after it, only B's own.
        #expect(try view.performAndWait { try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)) }
            .transactions.map(\.author) == ["reader"])
    }

    @Test("a transaction's changes as a value merge the same way, for code without NotificationCenter", .timeLimit(.minutes(5)))
    func mergesObjectIDChanges() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Value.sqlite")
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url))
        let item = try writer.performAndWait {
            let item = ManagedObject(entity: Self.model["Item"]!, insertInto: writer)
            item.setValue("before", forKey: "name")
            try writer.save()
            return item
        }
        let view = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url))
        let token = try #require(view.persistentStoreCoordinator?.currentPersistentHistoryToken(fromStores: nil))
        let loaded = try view.performAndWait { try view.existingObject(with: item.objectID) }
        #expect(view.performAndWait { loaded.value(forKey: "name") as? String } == "before")
        try writer.performAndWait {
            item.setValue("after", forKey: "name")
            try writer.save()
        }
        try view.performAndWait {
            let transaction = try #require(view.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions.first)
            #expect(transaction.objectIDChanges.updated == [item.objectID])
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: transaction.objectIDChanges, into: [view])
            #expect(loaded.value(forKey: "name") as? String == "after")
        }
    }
}
