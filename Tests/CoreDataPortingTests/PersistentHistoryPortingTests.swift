import CoreData
import Testing

/// Persistent history as Core Data code syncs two stacks on one store with it: the coordinator's
/// current token, a change request after a token narrowed by a transaction fetch request on the
/// author, `objectIDNotification()` merged with `mergeChanges(fromContextDidSave:)`, and the
/// merged history purged with `deleteHistory(before:)`. Written with Core Data's names only.
@Suite struct PersistentHistoryPortingTests {
    static func container(at url: URL) -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Twitter")
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        return container
    }

    @Test func historySyncsAnotherStack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("PersistentHistoryPortingTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Shared.sqlite")
        let app = Self.container(at: url)
        let widget = Self.container(at: url)
        let reader = widget.newBackgroundContext()
        reader.transactionAuthor = "widget"
        var lastToken: NSPersistentHistoryToken? = widget.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)

        let writer = app.newBackgroundContext()
        try writer.performAndWait {
            writer.transactionAuthor = "app"
            _ = try Tweet.findOrCreateTweet(matching: "1", text: "from the app", postedBy: "paul", in: writer)
            try writer.save()
        }
        try reader.performAndWait {
            #expect(try reader.count(for: Tweet.fetchRequest()) == 1)
            _ = try Tweet.findOrCreateTweet(matching: "2", text: "from the widget", postedBy: "ann", in: reader)
            try reader.save()

            let fetchRequest = NSPersistentHistoryTransaction.fetchRequest!
            fetchRequest.predicate = NSPredicate(format: "%K != %@", "author", "widget")
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            request.fetchRequest = fetchRequest
            // Through the untyped `execute(_:)`, as Core Data code calls it.
            let result = try reader.execute(request as NSPersistentStoreRequest) as? NSPersistentHistoryResult
            let transactions = try #require(result?.result as? [NSPersistentHistoryTransaction])
            #expect(transactions.map(\.author) == ["app"])
            for transaction in transactions {
                reader.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                lastToken = transaction.token
            }
            let changes = transactions.flatMap { $0.changes ?? [] }
            #expect(changes.allSatisfy { $0.changeType == .insert && $0.updatedProperties == nil })

            try reader.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: lastToken))
            let left = try reader.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
            #expect((left.result as? [NSPersistentHistoryTransaction])?.map(\.author) == ["widget"])
        }
    }
}
