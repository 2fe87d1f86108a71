import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Reading persistent history (`PersistentHistoryChangeRequest`) from the real stores Core Data
/// wrote with history on (CoreDataPlus's SampleModel2 stores): what is read is what the rows
/// hold, counted and compared through raw SQL, and each change names an object of the store.
@Suite("Persistent history: read from the stores Core Data wrote")
struct PersistentHistoryFetchTests {
    init() {
        RealAppTransformers.registered
    }

    /// A context on a copy of the real store at `path` (in `directory`), and the copy's URL.
    static func openCopy(_ path: String, in directory: TemporaryDirectory) throws -> (ManagedObjectContext, URL) {
        let url = try RealSQLiteStoreTests.copy(path, into: directory)
        let store = try #require(RealStoreFidelityTests.stores.first { $0.path == path })
        let model = try RealStoreFidelityTests.writingVersion(of: store, at: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
        return (ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator), url)
    }

    @Test("transactions and changes read with the counts, types, names and objects the rows hold",
          arguments: PersistentHistoryStoreTests.historyStores)
    func readsRealHistory(_ path: String) throws {
        let directory = try TemporaryDirectory()
        let (context, url) = try Self.openCopy(path, in: directory)
        try context.performAndWait {
            let transactions = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            #expect(transactions.count == Int(try rawSQL(url.path, "SELECT COUNT(*) FROM ATRANSACTION")))
            let changes = transactions.flatMap(\.changes)
            #expect(changes.count == Int(try rawSQL(url.path, "SELECT COUNT(*) FROM ACHANGE")))
            #expect(changes.count > 100)
            // Per entity and change type, as the rows say.
            let counted = Dictionary(grouping: changes) { "\($0.changeType.rawValue)|\($0.changedObjectID.entity.name)" }
                .map { "\($0.key)|\($0.value.count)" }.sorted().joined(separator: "\n")
            let raw = try rawSQL(url.path, """
                SELECT c.ZCHANGETYPE, p.Z_NAME, COUNT(*) FROM ACHANGE c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.ZENTITY
                GROUP BY c.ZCHANGETYPE, p.Z_NAME ORDER BY 1, 2
                """)
            #expect(counted == raw.split(separator: "\n").sorted().joined(separator: "\n"))
            let transaction = try #require(transactions.first)
            #expect(transaction.processID == (try rawSQL(url.path, "SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZPROCESSIDTS")))
            #expect(transaction.bundleID == (try rawSQL(url.path, "SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZBUNDLEIDTS")))
            #expect(transaction.processID == "xctest")
            #expect(transaction.author == nil && transaction.contextName == nil)
            #expect(String(transaction.timestamp.timeIntervalSinceReferenceDate) == (try rawSQL(url.path, "SELECT ZTIMESTAMP FROM ATRANSACTION")))
            // Every change's object is one of the store's, of the entity the change names.
            for change in changes {
                let object = try context.existingObject(with: change.changedObjectID)
                #expect(object.entity === change.changedObjectID.entity)
            }
            // After the last token: nothing; after a date before the transaction: all of it.
            #expect(try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: transaction.token)).transactions.isEmpty)
            let before = transaction.timestamp.addingTimeInterval(-1)
            #expect(try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: before)).transactions == transactions)
            #expect(try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: transaction.timestamp)).transactions.isEmpty)
        }
    }

    @Test("a token survives encoding, and a token of another store throws Core Data's 134301 naming the store")
    func tokens() throws {
        let directory = try TemporaryDirectory()
        let (context, _) = try Self.openCopy(PersistentHistoryStoreTests.historyStores[1], in: directory)
        let token = try context.performAndWait {
            try #require(context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.last?.token)
        }
        let decoded = try JSONDecoder().decode(PersistentHistoryToken.self, from: JSONEncoder().encode(token))
        #expect(decoded == token)
        #expect(PersistentHistoryToken(storeIdentifier: token.storeIdentifier, transactionNumber: 0) < token)
        let otherDirectory = try TemporaryDirectory()
        let (other, _) = try Self.openCopy(PersistentHistoryStoreTests.historyStores[0], in: otherDirectory)
        let store = try #require(other.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let error = #expect(throws: ManagedObjectError.self) { try store.fetchHistory(after: .afterToken(token)) }
        #expect(error?.code == .persistentHistoryTokenExpired)
        #expect(error?.description.contains(token.storeIdentifier) == true)
    }
}
