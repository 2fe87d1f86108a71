import CoreData
import Testing

/// A context made with `init(concurrencyType:)` and given its coordinator or parent afterwards
/// (the pre-iOS 10 stack DuckDuckGo and SugarRecord build), and a subclass of the context.
@Suite struct ContextSetupTests {
    private func inMemoryCoordinator() throws -> NSPersistentStoreCoordinator {
        let model = NSPersistentContainer(name: "Twitter").managedObjectModel
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        return coordinator
    }

    @Test func coordinatorSetAfterInit() throws {
        let coordinator = try inMemoryCoordinator()
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(writer.persistentStoreCoordinator == nil)
        writer.persistentStoreCoordinator = coordinator
        #expect(writer.persistentStoreCoordinator === coordinator)
        try writer.performAndWait {
            _ = try Tweet.findOrCreateTweet(matching: "1", text: "set later", postedBy: "paul", in: writer)
            try writer.save()
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        let texts = try reader.performAndWait { try reader.fetch(Tweet.fetchRequest()).map(\.text) }
        #expect(texts == ["set later"])
    }

    @Test func parentSetAfterInit() throws {
        let parent = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        parent.persistentStoreCoordinator = try inMemoryCoordinator()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        #expect(child.parent === parent)
        #expect(child.persistentStoreCoordinator === parent.persistentStoreCoordinator)
        try child.performAndWait {
            _ = try Tweet.findOrCreateTweet(matching: "2", text: "from the child", postedBy: "paul", in: child)
            try child.save()
        }
        let count = try parent.performAndWait { try parent.count(for: Tweet.fetchRequest()) }
        #expect(count == 1)
        #expect(parent.performAndWait { parent.hasChanges }, "the child's save went into the parent, not the store")
    }

    /// SugarRecord's memory context: a subclass whose `save()` writes nothing.
    private final class DiscardingContext: NSManagedObjectContext, @unchecked Sendable {
        override func save() throws {}
    }

    @Test func subclassOverridesSave() throws {
        let coordinator = try inMemoryCoordinator()
        let context = DiscardingContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            _ = try Tweet.findOrCreateTweet(matching: "3", text: "never saved", postedBy: "paul", in: context)
            try context.save()
            #expect(context.hasChanges)
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType, persistentStoreCoordinator: coordinator)
        #expect(try reader.performAndWait { try reader.count(for: Tweet.fetchRequest()) } == 0)
    }
}
