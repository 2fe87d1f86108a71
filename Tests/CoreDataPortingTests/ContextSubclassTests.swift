import CoreData
import Testing

/// `NSManagedObjectContext` subclassed as Core Data code subclasses it: overrides of fetch,
/// count, insert, delete, permanent IDs, rollback, reset and save, each calling `super`.
@Suite struct ContextSubclassTests {
    /// A context that logs the calls it overrides (used on its own queue only).
    private final class LoggingContext: NSManagedObjectContext, @unchecked Sendable {
        // Unchecked: `calls` is used only on the context's queue.
        var calls: [String] = []

        override func fetch<Result>(_ request: NSFetchRequest<Result>) throws -> [Result] {
            calls.append("fetch \(request.entityName)")
            return try super.fetch(request)
        }

        override func count<Result>(for request: NSFetchRequest<Result>) throws -> Int {
            calls.append("count")
            return try super.count(for: request)
        }

        override func insert(_ object: NSManagedObject) {
            calls.append("insert")
            super.insert(object)
        }

        override func delete(_ object: NSManagedObject) {
            calls.append("delete")
            super.delete(object)
        }

        override func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
            calls.append("obtainPermanentIDs \(objects.count)")
            try super.obtainPermanentIDs(for: objects)
        }

        override func rollback() {
            calls.append("rollback")
            super.rollback()
        }

        override func reset() {
            calls.append("reset")
            super.reset()
        }

        override func save() throws {
            calls.append("save")
            try super.save()
        }
    }

    @Test func overridesAreCalled() throws {
        let container = PersistenceController(inMemory: true).container
        let context = LoggingContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = container.persistentStoreCoordinator
        try context.performAndWait {
            let entity = try #require(NSEntityDescription.entity(forEntityName: "Tweet", in: context))
            let tweet = Tweet(entity: entity, insertInto: nil)
            tweet.text = "hello"
            context.insert(tweet)
            try context.obtainPermanentIDs(for: [tweet])
            try context.save()
            #expect(try context.fetch(Tweet.fetchRequest()).count == 1)
            #expect(try context.count(for: Tweet.fetchRequest()) == 1)
            context.delete(tweet)
            context.rollback()
            context.reset()
        }
        #expect(context.performAndWait { context.calls } == [
            "insert", "obtainPermanentIDs 1", "save", "fetch Tweet", "count", "delete", "rollback", "reset",
        ])
    }
}
