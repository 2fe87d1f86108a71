import CoreData
import Testing

/// Core Data's context notifications through `NotificationCenter.default` (SugarRecord's
/// observers): names, `object`, `userInfo` sets, and `mergeChanges(fromContextDidSave:)`.
@Suite struct ContextNotificationCenterTests {
    /// The notifications one observer received, in order.
    private final class Received: @unchecked Sendable {
        // Unchecked: `notifications` is used only while holding `lock`.
        private let lock = NSLock()
        private var notifications: [Notification] = []
        func append(_ notification: Notification) { lock.withLock { notifications.append(notification) } }
        var all: [Notification] { lock.withLock { notifications } }
    }

    private func loadedContainer() -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Twitter")
        container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
        container.loadPersistentStores { _, error in #expect(error == nil) }
        return container
    }

    private func observe(_ name: Notification.Name, of context: NSManagedObjectContext, into received: Received) -> NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { received.append($0) }
    }

    private func tweets(_ notification: Notification?, _ key: String) -> [String]? {
        (notification?.userInfo?[key] as? Set<NSManagedObject>)?.compactMap { ($0 as? Tweet)?.unique }.sorted()
    }

    @Test func saveIsAnnounced() throws {
        let context = loadedContainer().newBackgroundContext()
        let willSave = Received(), didSave = Received(), didChange = Received()
        let observers = [
            observe(.NSManagedObjectContextWillSave, of: context, into: willSave),
            observe(.NSManagedObjectContextDidSave, of: context, into: didSave),
            observe(.NSManagedObjectContextObjectsDidChange, of: context, into: didChange),
        ]
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try context.performAndWait {
            for unique in ["1", "2"] {
                _ = try Tweet.findOrCreateTweet(matching: unique, text: "tweet \(unique)", postedBy: "paul", in: context)
            }
            try context.save()
        }
        #expect(willSave.all.count == 1 && willSave.all.first?.object as? NSManagedObjectContext === context)
        #expect(didChange.all.count == 1)
        #expect(tweets(didChange.all.first, NSInsertedObjectsKey) == ["1", "2"])
        #expect(didChange.all.first?.userInfo?[NSDeletedObjectsKey] == nil, "a change notification has only the keys that name objects")
        let firstSave = didSave.all.first
        #expect(firstSave?.object as? NSManagedObjectContext === context)
        #expect(tweets(firstSave, NSInsertedObjectsKey) == ["1", "2"])
        #expect(tweets(firstSave, NSUpdatedObjectsKey) == [] && tweets(firstSave, NSDeletedObjectsKey) == [])

        try context.performAndWait {
            let saved = try context.fetch(Tweet.fetchRequest()).sorted { ($0.unique ?? "") < ($1.unique ?? "") }
            saved[0].text = "edited"
            context.delete(saved[1])
            try context.save()
        }
        #expect(didSave.all.count == 2)
        #expect(tweets(didSave.all.last, NSUpdatedObjectsKey) == ["1"])
        #expect(tweets(didSave.all.last, NSDeletedObjectsKey) == ["2"])
        #expect(tweets(didSave.all.last, NSInsertedObjectsKey) == [])
    }

    @Test func otherContextMergesTheDidSaveNotification() throws {
        let container = loadedContainer()
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        let uniqueID = try writer.performAndWait {
            let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "before", postedBy: "paul", in: writer)
            try writer.save()
            return tweet.objectID
        }
        let kept = try reader.performAndWait { () throws -> Tweet in
            let tweet = try #require(try reader.existingObject(with: uniqueID) as? Tweet)
            #expect(tweet.text == "before")
            return tweet
        }
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) { notification in
            reader.performAndWait { reader.mergeChanges(fromContextDidSave: notification) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            let tweet = try #require(try writer.existingObject(with: uniqueID) as? Tweet)
            tweet.text = "after"
            try writer.save()
        }
        #expect(reader.performAndWait { kept.text } == "after")
    }

    /// Core Data posts whether or not the program ever names `Notification.Name`'s constants:
    /// an observer of the raw name (Objective-C's string constant) receives every save.
    @Test func observerOfTheRawNameReceivesTheSave() throws {
        #expect(ManagedObjectContext.postsToNotificationCenter, "contexts post unless a program switches it off")
        let context = loadedContainer().newBackgroundContext()
        let didSave = Received()
        let observer = NotificationCenter.default.addObserver(
            forName: Notification.Name("NSManagedObjectContextDidSaveNotification"), object: context, queue: nil
        ) { didSave.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            _ = try Tweet.findOrCreateTweet(matching: "1", text: "tweet", postedBy: "paul", in: context)
            try context.save()
        }
        #expect(tweets(didSave.all.first, NSInsertedObjectsKey) == ["1"])
    }

    /// `reset()` posts a change notification with `NSInvalidatedAllObjectsKey` (a fetched
    /// results controller refetches on it), naming the objects the context held; a reset of a
    /// context that holds nothing changes nothing and posts nothing.
    @Test func resetInvalidatesAllObjects() throws {
        let context = loadedContainer().newBackgroundContext()
        let didChange = Received()
        let observer = observe(.NSManagedObjectContextObjectsDidChange, of: context, into: didChange)
        defer { NotificationCenter.default.removeObserver(observer) }
        // Held here: a context holds unchanged objects weakly.
        let tweet = try context.performAndWait { () throws -> Tweet in
            let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "tweet", postedBy: "paul", in: context)
            try context.save()
            return tweet
        }
        let changesBeforeReset = didChange.all.count
        context.performAndWait { context.reset() }
        #expect(didChange.all.count == changesBeforeReset + 1)
        let invalidated = didChange.all.last?.userInfo?[NSInvalidatedAllObjectsKey] as? [NSManagedObjectID]
        #expect(invalidated?.contains(tweet.objectID) == true)
        #expect(tweet.managedObjectContext == nil)
        #expect(didChange.all.last?.userInfo?[NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue] != nil)
        context.performAndWait { context.reset() }
        #expect(didChange.all.count == changesBeforeReset + 1, "nothing left to invalidate")
    }
}
