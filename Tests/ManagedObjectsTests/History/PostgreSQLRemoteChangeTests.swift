#if canImport(PostgreSQLStore)
import DataModel
import Foundation
@testable import ManagedObjects
import PostgreSQLStore
import Testing

/// Two processes on one PostgreSQL database, as RemoteChangeNotificationTests has them on one
/// SQLite file: B hears of A's saves and batch deletes through `LISTEN/NOTIFY` as
/// `.NSPersistentStoreRemoteChange`, fetches the history after its last token and merges it.
/// Runs when a server is given (MANAGEDGEN_POSTGRES_URL, which CI sets).
@Suite("Remote change notifications and history on PostgreSQL", .enabled(if: StoreKind.postgreSQLServer != nil))
struct PostgreSQLRemoteChangeTests {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Item", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "code", type: .string, isOptional: true, preserveAfterDeletion: true),
        ]),
    ]))

    static func coordinator(at url: URL, posting: Bool) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try PostgreSQLStore(model: model, url: url, persistentHistoryTracking: true)
        coordinator.addPersistentStore(store)
        if posting { try coordinator.postRemoteChangeNotifications(for: store) }
        return coordinator
    }

    static func names(in context: ManagedObjectContext) throws -> [String] {
        try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "name") as? String }.sorted()
    }

    static func insert(_ names: [String], author: String, into coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        context.transactionAuthor = author
        try context.performAndWait {
            for name in names {
                let item = ManagedObject(entity: model["Item"]!, insertInto: context)
                item.setValue(name, forKey: "name")
                item.setValue("code-\(name)", forKey: "code")
            }
            try context.save()
        }
    }

    static let childURLVariable = "POSTGRES_REMOTE_CHANGE_CHILD_URL"
    static let childPhaseVariable = "POSTGRES_REMOTE_CHANGE_CHILD_PHASE"

    /// Runs process A for one phase and waits for it.
    static func runChild(_ phase: String, url: URL) throws {
        let child = try ChildTestRun.run(
            "PostgreSQLRemoteChangeTests/childWriter", environment: [childURLVariable: url.absoluteString, childPhaseVariable: phase])
        #expect(child.status == 0, "\(child.output)")
    }

    @Test("B is told of A's saves and batch deletes, fetches and merges A's history; authors filter; purging keeps newer transactions; tombstones after delete",
          .timeLimit(.minutes(5)))
    func twoProcesses() async throws {
        let directory = try TemporaryDirectory()
        let url = try StoreKind.postgreSQLURL(for: directory)
        let reader = try Self.coordinator(at: url, posting: true)
        let store = try #require(reader.persistentStores.first)
        try Self.insert(["x"], author: "reader", into: reader)
        let view = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reader)
        // A second context that merges remote changes on its own.
        let automatic = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reader)
        automatic.automaticallyMergesRemoteChanges = true
        let start = try #require(reader.currentPersistentHistoryToken(fromStores: nil))
        var lastToken = start
        let loaded = try view.performAndWait { try view.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        let loadedByAutomatic = try automatic.performAndWait { try automatic.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        let received = RemoteChangeNotificationTests.Received(for: reader)

        // A saves: inserts a and b, renames x (author importer); another of A's contexts inserts c.
        try Self.runChild("save", url: url)
        let saved = try #require(reader.currentPersistentHistoryToken(fromStores: nil))
        #expect(saved > lastToken)
        let afterSave = try await received.waitUntil { $0.contains { RemoteChangeNotificationTests.token(of: $0) == saved } }
        let notification = try #require(afterSave.first { RemoteChangeNotificationTests.token(of: $0) == saved })
        #expect(notification.object as? PersistentStoreCoordinator === reader)
        #expect(notification.userInfo?[PersistentStoreCoordinator.storeURLKey] as? URL == store.url)
        #expect(notification.userInfo?[PersistentStoreCoordinator.storeUUIDKey] as? String == store.identifier)

        try view.performAndWait {
            let all = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions
            #expect(all.map(\.author) == ["importer", "other"])
            // Authors filter: the importer's transactions only.
            let importer = try #require(PersistentHistoryTransaction.fetchRequest)
            importer.predicate = ObjectPredicate("author == %@", "importer")
            let fetch = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            fetch.fetchRequest = importer
            let transactions = try view.execute(fetch).transactions
            #expect(transactions.map(\.author) == ["importer"])
            #expect(transactions.first?.changes.map(\.changeType).sorted { $0.rawValue < $1.rawValue } == [.insert, .insert, .update])
            #expect(transactions.first?.changes.first { $0.changeType == .update }?.updatedPropertyNames == ["name"])
            for transaction in all {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                lastToken = transaction.token
            }
            // Changed: the loaded object shows A's value; inserted: fetched.
            #expect(loaded.first?.value(forKey: "name") as? String == "x2")
            #expect(try Self.names(in: view) == ["a", "b", "c", "x2"])
        }
        #expect(lastToken == saved)

        // A batch deletes a, which B shows.
        let a = try #require(try view.performAndWait {
            try view.fetch(FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("name == 'a'"))).first
        })
        try Self.runChild("batchDelete", url: url)
        let deleted = try #require(reader.currentPersistentHistoryToken(fromStores: nil))
        #expect(deleted > saved)
        let afterDelete = try await received.waitUntil { $0.contains { RemoteChangeNotificationTests.token(of: $0) == deleted } }
        #expect(afterDelete.contains { RemoteChangeNotificationTests.token(of: $0) == deleted })
        try view.performAndWait {
            let transactions = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions
            #expect(transactions.map(\.author) == ["importer"])
            let change = try #require(transactions.first?.changes.first)
            #expect(change.changeType == .delete)
            // The tombstone keeps the preserved attribute's value.
            #expect(change.tombstone?["code"] as? String == "code-a")
            for transaction in transactions { view.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            #expect(a.managedObjectContext == nil)
            #expect(try Self.names(in: view) == ["b", "c", "x2"])
        }

        // The context that merges on its own got there too.
        let deadline = Date().addingTimeInterval(30)
        var automaticNames: [String] = []
        while Date() < deadline {
            automaticNames = try automatic.performAndWait { try Self.names(in: automatic) }
            if automaticNames == ["b", "c", "x2"], automatic.performAndWait({ loadedByAutomatic.first?.value(forKey: "name") as? String }) == "x2" {
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(automaticNames == ["b", "c", "x2"])
        #expect(automatic.performAndWait { loadedByAutomatic.first?.value(forKey: "name") as? String } == "x2")

        // Purging up to the first save keeps the newer transactions.
        try view.performAndWait {
            try view.execute(PersistentHistoryChangeRequest.deleteHistory(before: start))
            let kept = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            #expect(kept.map(\.author) == ["importer", "other", "importer"])
            #expect(kept.allSatisfy { $0.token > start })
            #expect(kept.last?.token == deleted)
        }
    }

    /// Process A of `twoProcesses`, one phase per run. Runs only there (the parent checks what
    /// it saved, so it cannot pass unseen).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childURLVariable] != nil))
    func childWriter() throws {
        let environment = ProcessInfo.processInfo.environment
        let text = try #require(environment[Self.childURLVariable])
        let url = try #require(URL(string: text))
        let coordinator = try Self.coordinator(at: url, posting: false)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        context.transactionAuthor = "importer"
        switch environment[Self.childPhaseVariable] {
        case "save":
            try context.performAndWait {
                let x = try #require(context.fetch(FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("name == 'x'"))).first)
                x.setValue("x2", forKey: "name")
                for name in ["a", "b"] {
                    let item = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
                    item.setValue(name, forKey: "name")
                    item.setValue("code-\(name)", forKey: "code")
                }
                try context.save()
            }
            try Self.insert(["c"], author: "other", into: coordinator)
        case "batchDelete":
            try context.performAndWait {
                _ = try context.execute(BatchDeleteRequest(
                    fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("name == 'a'"))))
            }
        default:
            Issue.record("no phase given")
        }
    }
}
#endif
