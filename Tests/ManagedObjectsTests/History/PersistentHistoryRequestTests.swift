import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// The history requests beyond fetching after a point: purging (`deleteHistory(before:)`),
/// fetch requests on transactions and changes (`fetchHistory(withFetch:)`), and the
/// coordinator's current token.
@Suite("Persistent history: purging, fetch requests, the current token")
struct PersistentHistoryRequestTests {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Item", attributes: [Attribute(name: "name", type: .string, isOptional: true)]),
    ]))

    static func context(at url: URL) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
        return ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    }

    /// Four transactions: an insert by `importer` (context `import`), an update by `editor`, an
    /// insert by `importer` again, a delete by nobody. Returns the inserted objects' IDs.
    static func saveFour(in context: ManagedObjectContext) throws -> [ManagedObjectID] {
        try context.performAndWait {
            context.name = "import"
            context.transactionAuthor = "importer"
            let first = ManagedObject(entity: model["Item"]!, insertInto: context)
            try context.save()
            context.name = "edit"
            context.transactionAuthor = "editor"
            first.setValue("edited", forKey: "name")
            try context.save()
            context.name = "import"
            context.transactionAuthor = "importer"
            let second = ManagedObject(entity: model["Item"]!, insertInto: context)
            try context.save()
            context.name = nil
            context.transactionAuthor = nil
            context.delete(first)
            try context.save()
            return [first.objectID, second.objectID]
        }
    }

    static func all(_ context: ManagedObjectContext) throws -> [PersistentHistoryTransaction] {
        try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
    }

    @Test("deleteHistory(before:) a token, a transaction or a date removes the older transactions and their changes, and keeps the newer")
    func purging() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Purge.sqlite")
        let context = try Self.context(at: url)
        _ = try Self.saveFour(in: context)
        try context.performAndWait {
            let transactions = try Self.all(context)
            try #require(transactions.count == 4)
            // Up to and including the first transaction's token.
            try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: transactions[0].token))
            #expect(try Self.all(context) == Array(transactions[1...]))
            // A transaction: the same as its token.
            try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: transactions[1]))
            #expect(try Self.all(context) == Array(transactions[2...]))
            // A date: the transactions saved before it.
            try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: transactions[3].timestamp))
            #expect(try Self.all(context).map(\.transactionNumber).contains(transactions[3].transactionNumber))
            #expect(try Self.all(context).allSatisfy { $0.timestamp >= transactions[3].timestamp })
            // Fetching after a purged token still gives what is newer.
            #expect(try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: transactions[0].token)).transactions
                == (try Self.all(context)))
        }
        // The rows left are the rows of the transactions left; the names stay.
        let left = try rawSQL(url.path, "SELECT COUNT(*) FROM ACHANGE WHERE ZTRANSACTIONID NOT IN (SELECT Z_PK FROM ATRANSACTION)")
        #expect(left == "0")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ATRANSACTIONSTRING WHERE ZNAME = 'editor'") == "1")
        // A new save after a purge gets a new, higher number.
        try context.performAndWait {
            try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryToken?))
            #expect(try Self.all(context).isEmpty)
            _ = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
            try context.save()
            #expect(try Self.all(context).map(\.transactionNumber) == [5])
        }
    }

    @Test("deleteHistory(before:) a token of another store throws 134301 and deletes nothing")
    func purgingWithAForeignToken() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(at: directory.file("A.sqlite"))
        _ = try Self.saveFour(in: context)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let foreign = PersistentHistoryToken(storeIdentifier: UUID().uuidString, transactionNumber: 9)
        let error = #expect(throws: ManagedObjectError.self) { try store.deleteHistory(before: .afterToken(foreign)) }
        #expect(error?.code == .persistentHistoryTokenExpired)
        #expect(try context.performAndWait { try Self.all(context) }.count == 4)
    }

    @Test("a fetch request on transactions filters by author and context name; one on changes keeps only the matching changes")
    func fetchRequests() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(at: directory.file("Fetch.sqlite"))
        let ids = try Self.saveFour(in: context)
        try context.performAndWait {
            let byAuthor = try #require(PersistentHistoryTransaction.fetchRequest)
            byAuthor.predicate = ObjectPredicate("author == %@", "importer")
            let imports = try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: byAuthor)).transactions
            #expect(imports.count == 2 && imports.allSatisfy { $0.author == "importer" && $0.changes.count == 1 })
            let notEditor = try #require(PersistentHistoryTransaction.fetchRequest)
            notEditor.predicate = ObjectPredicate("author != %@", "editor")
            // A transaction without an author is not the editor's.
            #expect(try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: notEditor)).transactions.count == 3)
            let byContext = try #require(PersistentHistoryTransaction.fetchRequest)
            byContext.predicate = ObjectPredicate("contextName == 'edit'")
            let edits = try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: byContext)).transactions
            #expect(edits.map(\.author) == ["editor"])

            let changes = try #require(PersistentHistoryChange.fetchRequest)
            changes.predicate = ObjectPredicate("changedObjectID == %@", ids[0])
            let ofFirst = try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: changes)).transactions
            #expect(ofFirst.map { $0.changes.map(\.changeType) } == [[.insert], [.update], [.delete]])
            let deletions = try #require(PersistentHistoryChange.fetchRequest)
            deletions.predicate = ObjectPredicate("changeType == %d AND transaction.author == nil", PersistentHistoryChangeType.delete.rawValue)
            #expect(try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: deletions)).transactions
                .flatMap(\.changes).map(\.changedObjectID) == [ids[0]])

            let updates = try #require(PersistentHistoryChange.fetchRequest)
            updates.predicate = ObjectPredicate(
                "changedEntity == %@ AND changeType == %d", Self.model["Item"]!, PersistentHistoryChangeType.update.rawValue)
            #expect(try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: updates)).transactions
                .map { $0.changes.map(\.changeType) } == [[.update]])

            let other = FetchRequest<ManagedObject>(entityName: "Item")
            let error = #expect(throws: ManagedObjectError.self) {
                try context.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: other))
            }
            #expect(error?.code == .invalidFetchRequest && error?.description.contains("Item") == true)
        }
    }

    @Test("the coordinator's current token is the newest transaction's, and none for a store without history")
    func currentToken() throws {
        let directory = try TemporaryDirectory()
        let context = try Self.context(at: directory.file("Token.sqlite"))
        let coordinator = try #require(context.persistentStoreCoordinator)
        let empty = try #require(coordinator.currentPersistentHistoryToken(fromStores: nil))
        #expect(try context.performAndWait { try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: empty)) }.transactions.isEmpty)
        _ = try Self.saveFour(in: context)
        let token = try #require(coordinator.currentPersistentHistoryToken(fromStores: coordinator.persistentStores))
        #expect(token == (try context.performAndWait { try Self.all(context) }.last?.token))
        #expect(token > empty)
        // After the empty store's first token: everything saved since.
        #expect(try context.performAndWait { try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: empty)) }.transactions.count == 4)
        // Encoded and decoded (an app keeps it between launches), it still starts the history.
        let kept = try JSONDecoder().decode(PersistentHistoryToken.self, from: JSONEncoder().encode(token))
        #expect(kept == token)
        let plain = PersistentStoreCoordinator(managedObjectModel: Self.model)
        try plain.addPersistentStore(type: .sqlite, at: directory.file("Plain.sqlite"))
        #expect(plain.currentPersistentHistoryToken(fromStores: nil) == nil)
    }
}
