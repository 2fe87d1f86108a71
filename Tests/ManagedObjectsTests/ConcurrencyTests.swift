import ModelFileLoading
import Foundation
import Testing
@testable import ManagedObjects

@Suite("Contexts on their queues")
struct ConcurrencyTests {
    @Test("background contexts inserting at the same time do not corrupt each other", .timeLimit(.minutes(5)), arguments: StoreKind.allCases)
    func parallelInserts(kind: StoreKind) async throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(DogWalkModel.managedObjectModel, kind: kind, files: files)
        let contexts = (0..<8).map { _ in container.newBackgroundContext() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, context) in contexts.enumerated() {
                group.addTask {
                    for batch in 0..<10 {
                        try await context.perform {
                            let dog = Dog(context: context)
                            dog.name = "dog \(number)-\(batch)"
                            for _ in 0..<3 { dog.addToWalks(Walk(context: context)) }
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let reader = container.newBackgroundContext()
        let (dogs, walks, names, allLinked) = try await reader.perform {
            let dogs = try reader.fetch(Dog.fetchRequest())
            let walks = try reader.fetch(Walk.fetchRequest())
            let linked = dogs.allSatisfy { dog in dog.walks.count == 3 && dog.walks.allSatisfy { $0.dog === dog } }
            return (dogs.count, walks.count, Set(dogs.compactMap(\.name)).count, linked)
        }
        #expect(dogs == 80 && walks == 240 && names == 80)
        #expect(allLinked)
        // Every object has its own permanent ID.
        let ids = try await reader.perform {
            let request = FetchRequest<ManagedObjectID>(entityName: "Walk")
            request.resultType = .managedObjectID
            return try reader.fetch(request)
        }
        #expect(Set(ids).count == 240)
    }

    @Test("each context has its own objects for the same ID", .timeLimit(.minutes(5)))
    func separateObjects() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let id = try await first.perform {
            let user = TwitterUser(context: first)
            user.name = "Joe"
            try first.save()
            return user.objectID
        }
        try await second.perform {
            let user = try #require(try second.existingObject(with: id) as? TwitterUser)
            user.name = "Changed in second, unsaved"
        }
        let name = await first.perform { (first.object(with: id) as? TwitterUser)?.name }
        #expect(name == "Joe")
    }

    @Test("performBackgroundTask runs on a private queue and its save reaches other contexts", .timeLimit(.minutes(5)), arguments: StoreKind.allCases)
    func backgroundTask(kind: StoreKind) async throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let count = try await container.performBackgroundTask { context in
            let tweet = Tweet(context: context)
            tweet.text = "from the background"
            #expect(context.concurrencyType == .privateQueue)
            #expect(context.isOnQueue && !container.viewContext.isOnQueue)
            try context.save()
            return try context.count(for: Tweet.fetchRequest())
        }
        #expect(count == 1)
        let reader = container.newBackgroundContext()
        let texts = try await reader.perform { try reader.fetch(Tweet.fetchRequest()).map(\.text) }
        #expect(texts == ["from the background"])
    }

    @Test("performAndWait runs at once on the context's own queue (reentrant)")
    func reentrantPerformAndWait() throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let context = container.newBackgroundContext()
        let depth = context.performAndWait {
            context.performAndWait { context.performAndWait { 3 } }
        }
        #expect(depth == 3)
    }

    @Test("the view context runs perform blocks on the main queue and merges background saves automatically",
          .timeLimit(.minutes(5)))
    func viewContextMerges() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let viewContext = container.viewContext
        #expect(viewContext.concurrencyType == .mainQueue)
        let id = try await viewContext.perform {
            #expect(viewContext.isOnQueue)
            viewContext.automaticallyMergesChangesFromParent = true
            let user = TwitterUser(context: viewContext)
            user.name = "Joe"
            try viewContext.save()
            return user.objectID
        }
        try await container.performBackgroundTask { context in
            let user = try #require(try context.existingObject(with: id) as? TwitterUser)
            user.name = "Joe (edited in background)"
            try context.save()
        }
        // The merge was queued on the main queue before this block.
        let name = await viewContext.perform { (viewContext.object(with: id) as? TwitterUser)?.name }
        #expect(name == "Joe (edited in background)")
    }

    @Test("a merged delete takes the object out of the other context and its relationships",
          .timeLimit(.minutes(5)))
    func mergedDelete() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let viewer = container.newBackgroundContext()
        // The viewer keeps its objects in use (a context holds unchanged objects weakly, and a
        // merge only concerns objects registered there).
        let inUse = ObjectsInUse()
        let (userID, tweetID) = try await viewer.perform {
            viewer.automaticallyMergesChangesFromParent = true
            let joe = TwitterUser(context: viewer)
            let tweet = Tweet(context: viewer)
            tweet.tweeter = joe
            try viewer.save()
            inUse.objects = [joe, tweet]
            return (joe.objectID, tweet.objectID)
        }
        let heard = viewer.notifications(named: [.objectsDidChange])
        try await container.performBackgroundTask { context in
            context.delete(try context.existingObject(with: tweetID))
            try context.save()
        }
        var iterator = heard.makeAsyncIterator()
        let merged = try #require(await iterator.next())
        #expect(merged.deletedObjectIDs == [tweetID])
        let (registered, tweets, changed) = await viewer.perform {
            let joe = viewer.object(with: userID) as! TwitterUser
            return (viewer.registeredObject(for: tweetID) != nil, joe.tweets.count, viewer.hasChanges)
        }
        #expect(!registered && tweets == 0 && !changed)
    }

    @Test("a file that is not an SQLite store is reported, named, and left as it was")
    func sqliteFileThatIsNotAStore() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Tweets.sqlite")
        let garbage = Data("this is not a database, just some text that is long enough".utf8)
        try garbage.write(to: url)
        let container = PersistentContainer(name: "Tweets", managedObjectModel: TwitterModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var reported: (any Error)?
        container.loadPersistentStores { description, error in
            #expect(description.type == .sqlite)
            reported = error
        }
        let error = try #require(reported as? ManagedObjectError)
        #expect(error.code == .persistentStoreOpen)
        #expect(error.message.contains(url.path))
        #expect(try Data(contentsOf: url) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Tweets.sqlite"])
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
        #expect(throws: ManagedObjectError.self) { try container.loadPersistentStores() }
        // Saving without a store fails clearly instead of losing data.
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            _ = Tweet(context: context)
            #expect(throws: ManagedObjectError.self) { try context.save() }
        }
    }
}

/// Objects a test keeps alive across a context's `perform` blocks; used only on that
/// context's queue.
final class ObjectsInUse: @unchecked Sendable {
    var objects: [ManagedObject] = []
}
