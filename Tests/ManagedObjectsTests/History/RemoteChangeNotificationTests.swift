import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Two coordinators on one SQLite file, as two processes would have them: with the option on,
/// B hears of A's saves (and not of its own) through NotificationCenter and `remoteChanges`.
@Suite("Remote change notifications on SQLite")
struct RemoteChangeNotificationTests {
    static let model = PersistentHistoryMergeTests.model

    static func coordinator(at url: URL, posting: Bool) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, persistentHistoryTracking: true)
        if posting { try coordinator.postRemoteChangeNotifications(for: store) }
        return coordinator
    }

    static func insert(_ name: String, into context: ManagedObjectContext) throws {
        try context.performAndWait {
            ManagedObject(entity: model["Item"]!, insertInto: context).setValue(name, forKey: "name")
            try context.save()
        }
    }

    /// The remote change notifications posted for `coordinator` while observed.
    final class Received: @unchecked Sendable {
        // Unchecked: `notifications` is read and written only while holding `lock`.
        private let lock = NSLock()
        private var notifications: [Notification] = []
        private var observation: (any NSObjectProtocol)?

        init(for coordinator: PersistentStoreCoordinator) {
            observation = NotificationCenter.default.addObserver(
                forName: PersistentStoreCoordinator.remoteChangeNotification, object: coordinator, queue: nil
            ) { [weak self] notification in
                guard let self else { return }
                lock.withLock { notifications.append(notification) }
            }
        }

        var all: [Notification] { lock.withLock { notifications } }

        /// Waits until the notifications received satisfy `condition`, or `seconds` have passed;
        /// the ones there then. The wait is long: under a loaded test run a poll or this loop may
        /// wait seconds for a thread, and how soon a change is told is not what these tests check.
        func waitUntil(seconds: Double = 30, _ condition: ([Notification]) -> Bool) async throws -> [Notification] {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition(all), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return all
        }

        /// Waits for `count` notifications (see `waitUntil`).
        func waitFor(_ count: Int) async throws -> [Notification] {
            try await waitUntil { $0.count >= count }
        }

        deinit {
            if let observation { NotificationCenter.default.removeObserver(observation) }
        }
    }

    @Test("B is told of A's save, with the store's URL, UUID and history token, and merges A's history",
          .timeLimit(.minutes(5)))
    func notifiesOfAnotherCoordinatorsSave() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Remote.sqlite")
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url, posting: false))
        writer.transactionAuthor = "app"
        try Self.insert("a", into: writer)
        let readerCoordinator = try Self.coordinator(at: url, posting: true)
        let store = try #require(readerCoordinator.persistentStores.first)
        let view = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: readerCoordinator)
        var lastToken = try #require(readerCoordinator.currentPersistentHistoryToken(fromStores: nil))
        let received = Received(for: readerCoordinator)

        try Self.insert("b", into: writer)
        let notifications = try await received.waitFor(1)
        let notification = try #require(notifications.first)
        #expect(notification.object as? PersistentStoreCoordinator === readerCoordinator)
        let info = try #require(notification.userInfo)
        #expect(info[PersistentStoreCoordinator.storeURLKey] as? URL == url)
        #expect(info[PersistentStoreCoordinator.storeUUIDKey] as? String == store.identifier)
        let token = try #require(info[PersistentStoreCoordinator.historyTokenKey] as? PersistentHistoryToken)
        #expect(token == writer.persistentStoreCoordinator?.currentPersistentHistoryToken(fromStores: nil))
        #expect(token > lastToken)

        // B fetches the history after its last token and merges it.
        try view.performAndWait {
            let transactions = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions
            #expect(transactions.map(\.author) == ["app"])
            for transaction in transactions {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                lastToken = transaction.token
            }
            #expect(try PersistentHistoryMergeTests.names(in: view) == ["a", "b"])
        }
        #expect(lastToken == token)
    }

    @Test("B is not told of its own saves, nor of anything with the option off", .timeLimit(.minutes(5)))
    func ownSavesAndOptionOff() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Own.sqlite")
        let posting = try Self.coordinator(at: url, posting: true)
        let silent = try Self.coordinator(at: url, posting: false)
        let heardByPosting = Received(for: posting)
        let heardBySilent = Received(for: silent)
        // Two contexts of the posting coordinator save: both are its own.
        try Self.insert("own 1", into: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: posting))
        try Self.insert("own 2", into: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: posting))
        try await Task.sleep(for: .milliseconds(600))
        #expect(heardByPosting.all.isEmpty)
        // The silent coordinator is written to by the other one, and posts nothing.
        #expect(heardBySilent.all.isEmpty)
        // A control that the wait was long enough: the silent coordinator's save reaches the posting one.
        try Self.insert("other", into: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: silent))
        #expect(try await heardByPosting.waitFor(1).count == 1)
        #expect(heardBySilent.all.isEmpty)
    }

    @Test("the same as an AsyncSequence, and nothing after the store is removed", .timeLimit(.minutes(5)))
    func asyncSequenceAndRemoval() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Stream.sqlite")
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url, posting: false))
        let reader = try Self.coordinator(at: url, posting: true)
        let store = try #require(reader.persistentStores.first)
        var changes = reader.remoteChanges.makeAsyncIterator()
        try Self.insert("a", into: writer)
        let change = try #require(await changes.next())
        #expect(change.storeURL == url)
        #expect(change.storeIdentifier == store.identifier)
        #expect(change.historyToken == writer.persistentStoreCoordinator?.currentPersistentHistoryToken(fromStores: nil))

        let received = Received(for: reader)
        try reader.remove(store)
        try Self.insert("b", into: writer)
        try await Task.sleep(for: .milliseconds(600))
        #expect(received.all.isEmpty)
    }

    @Test("a batch delete by another coordinator is posted too, and merging its history removes the objects", .timeLimit(.minutes(5)))
    func notifiesOfAnotherCoordinatorsBatchDelete() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Batch.sqlite")
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url, posting: false))
        try Self.insert("a", into: writer)
        try Self.insert("b", into: writer)
        let reader = try Self.coordinator(at: url, posting: true)
        let view = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reader)
        let lastToken = try #require(reader.currentPersistentHistoryToken(fromStores: nil))
        let loaded = try view.performAndWait { try view.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        #expect(loaded.count == 2)
        let received = Received(for: reader)

        try writer.performAndWait {
            _ = try writer.execute(BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("name == 'a'"))))
        }
        #expect(try await received.waitFor(1).count == 1)
        try view.performAndWait {
            for transaction in try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            #expect(loaded.filter { $0.managedObjectContext == nil }.count == 1)
            #expect(try PersistentHistoryMergeTests.names(in: view) == ["b"])
        }
    }

    @Test("a context that merges remote changes on its own shows another coordinator's inserts, updates and deletes; off, it does not",
          .timeLimit(.minutes(5)))
    func mergesRemoteChangesOnItsOwn() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Automatic.sqlite")
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url, posting: false))
        try Self.insert("a", into: writer)
        try Self.insert("b", into: writer)
        let reader = try Self.coordinator(at: url, posting: true)
        let view = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reader)
        let untouched = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reader)
        #expect(!view.automaticallyMergesRemoteChanges)
        view.automaticallyMergesRemoteChanges = true
        #expect(view.automaticallyMergesRemoteChanges)
        let loaded = try view.performAndWait { try view.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        // Read, not left as faults (a fault would fire from the store after the change).
        let loadedByUntouched = try untouched.performAndWait {
            let items = try untouched.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            #expect(items.compactMap { $0.value(forKey: "name") as? String }.sorted() == ["a", "b"])
            return items
        }
        var announced: [ContextNotification] = []
        let observation = view.addObserver(for: [.objectsDidChange]) { announced.append($0) }
        defer { observation.cancel() }

        try writer.performAndWait {
            let items = try writer.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            items.first { $0.value(forKey: "name") as? String == "a" }?.setValue("a2", forKey: "name")
            if let b = items.first(where: { $0.value(forKey: "name") as? String == "b" }) { writer.delete(b) }
            ManagedObject(entity: Self.model["Item"]!, insertInto: writer).setValue("c", forKey: "name")
            try writer.save()
        }
        // Nothing is asked of the view: it merges on its own queue when the change is told.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, view.performAndWait({ loaded.contains { $0.managedObjectContext != nil && $0.value(forKey: "name") as? String == "b" } }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(view.performAndWait { loaded.compactMap { $0.managedObjectContext == nil ? nil : $0.value(forKey: "name") as? String }.sorted() } == ["a2"])
        #expect(try view.performAndWait { try PersistentHistoryMergeTests.names(in: view) } == ["a2", "c"])
        #expect(announced.contains { !$0.insertedObjectIDs.isEmpty })
        // A context without the option still shows what it read.
        #expect(untouched.performAndWait { loadedByUntouched.compactMap { $0.value(forKey: "name") as? String }.sorted() } == ["a", "b"])

        // Turned off, it merges nothing more.
        view.automaticallyMergesRemoteChanges = false
        let received = Received(for: reader)
        try writer.performAndWait {
            try writer.fetch(FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("name == 'a2'"))).first?.setValue("a3", forKey: "name")
            try writer.save()
        }
        _ = try await received.waitFor(1)
        try await Task.sleep(for: .milliseconds(300))
        #expect(view.performAndWait { loaded.compactMap { $0.managedObjectContext == nil ? nil : $0.value(forKey: "name") as? String } } == ["a2"])
    }

    static let childStoreVariable = "REMOTE_CHANGE_CHILD_STORE"

    @Test("B is told of a save by another process and merges it from history", .timeLimit(.minutes(5)))
    func notifiesOfAnotherProcesssSave() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Process.sqlite")
        let reader = try Self.coordinator(at: url, posting: true)
        let view = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reader)
        let lastToken = try #require(reader.currentPersistentHistoryToken(fromStores: nil))
        let received = Received(for: reader)
        let child = try ChildTestRun.run("RemoteChangeNotificationTests/childWriter", environment: [Self.childStoreVariable: url.path])
        #expect(child.status == 0, "\(child.output)")
        let transactions = try view.performAndWait {
            try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions
        }
        #expect(transactions.map(\.author) == ["child"])
        // The child's opening of the store may be told first (with the token before its save),
        // when a poll falls between the two: what must come is a notification with its save's token.
        let saved = try #require(transactions.last?.token)
        let notifications = try await received.waitUntil { $0.contains { Self.token(of: $0) == saved } }
        #expect(notifications.contains { Self.token(of: $0) == saved }, "no notification with the child's token \(saved)")
        let names = try view.performAndWait {
            for transaction in transactions { view.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            return try PersistentHistoryMergeTests.names(in: view)
        }
        #expect(names == ["from the child"])
    }

    static func token(of notification: Notification) -> PersistentHistoryToken? {
        notification.userInfo?[PersistentStoreCoordinator.historyTokenKey] as? PersistentHistoryToken
    }

    /// The child process of `notifiesOfAnotherProcesssSave`: saves one object to the store it is
    /// given. Runs only there (the parent checks what it saved, so it cannot pass unseen).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childStoreVariable] != nil))
    func childWriter() throws {
        let url = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[Self.childStoreVariable]))
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try Self.coordinator(at: url, posting: false))
        writer.transactionAuthor = "child"
        try Self.insert("from the child", into: writer)
    }
}
