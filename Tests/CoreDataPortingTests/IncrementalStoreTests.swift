// A custom store (RecordStore, an NSIncrementalStore subclass) under Core Data code: registered
// by type name, fetched from with predicates and sorts, saved to, faulted from, related through,
// and failing as the caller of save() and fetch() sees it.
import CoreData
import Foundation
import Testing

@Suite struct IncrementalStoreTests {
    private struct Stack {
        let coordinator: NSPersistentStoreCoordinator
        let store: RecordStore

        /// A new context on the coordinator (a private queue's: tests use it inside `performAndWait`).
        func context() -> NSManagedObjectContext {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
    }

    private func makeStack(at url: URL = URL(fileURLWithPath: "/tmp/records")) throws -> Stack {
        RecordStore.register()
        let model = try #require(RegisteredTwitterModel.model)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(
            ofType: RecordStore.storeType, configurationName: nil, at: url, options: ["answer": 42])
        return Stack(coordinator: coordinator, store: try #require(store as? RecordStore))
    }

    /// Saves paul with tweets "b" (3 retweets), "a" (1) and "c" (5); returns their IDs by text.
    private func saveTweets(in stack: Stack) throws -> [String: NSManagedObjectID] {
        let context = stack.context()
        return try context.performAndWait {
            let paul = TwitterUser(context: context)
            paul.name = "Paul"
            paul.screenName = "paul"
            var tweets: [Tweet] = []
            for (text, retweets) in [("b", 3), ("a", 1), ("c", 5)] {
                let tweet = Tweet(context: context)
                tweet.text = text
                tweet.retweetCount = retweets
                tweet.tweeter = paul
                tweets.append(tweet)
            }
            try context.save()
            var ids = Dictionary(uniqueKeysWithValues: tweets.map { ($0.text!, $0.objectID) })
            ids["paul"] = paul.objectID
            return ids
        }
    }

    @Test func aRegisteredTypeOpensTheStoreClass() throws {
        let stack = try makeStack()
        #expect(stack.coordinator.persistentStores.count == 1)
        #expect(stack.store.persistentStoreCoordinator === stack.coordinator)
        #expect(stack.store.options?["answer"] as? Int == 42)
        #expect(stack.store.url == URL(fileURLWithPath: "/tmp/records"))
        #expect(stack.store.metadata[NSStoreTypeKey] as? String == RecordStore.storeType)
        #expect(stack.store.identifier == stack.store.metadata[NSStoreUUIDKey] as? String)
        #expect(stack.store.type.rawValue == RecordStore.storeType)
    }

    @Test func anErrorFromLoadMetadataReachesAddPersistentStore() throws {
        RecordStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try #require(RegisteredTwitterModel.model))
        #expect(throws: RecordStore.Failure(message: "cannot open /tmp/refused")) {
            try coordinator.addPersistentStore(
                ofType: RecordStore.storeType, configurationName: nil, at: URL(fileURLWithPath: "/tmp/refused"), options: nil)
        }
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func aSaveReachesTheStoreWithPermanentIDsAndValues() throws {
        let stack = try makeStack()
        let ids = try saveTweets(in: stack)
        let saves = stack.store.savesSeen
        #expect(saves.count == 1)
        #expect(saves[0].insertedObjects?.count == 4)
        #expect(saves[0].updatedObjects?.isEmpty == true)
        #expect(saves[0].deletedObjects?.isEmpty == true)
        for id in ids.values { #expect(!id.isTemporaryID) }
        let paulReference = try #require(stack.store.referenceObject(for: ids["paul"]!) as? String)
        let user = try #require(stack.store.records["TwitterUser"]?[paulReference])
        #expect(user["name"] as? String == "Paul")
        let tweetReferences = try ["a", "b", "c"].map { try #require(stack.store.referenceObject(for: ids[$0]!) as? String) }
        #expect(user["tweets"] as? [String] == tweetReferences.sorted())
        let a = try #require(stack.store.records["Tweet"]?[tweetReferences[0]])
        #expect(a["text"] as? String == "a")
        #expect(a["retweetCount"] as? Int64 == 1)
        #expect(a["tweeter"] as? String == paulReference)
    }

    @Test func aFetchGivesTheStoreItsPredicateAndIsSortedAndWindowed() throws {
        let stack = try makeStack()
        _ = try saveTweets(in: stack)
        let context = stack.context()
        try context.performAndWait {
            let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
            request.predicate = NSPredicate(format: "retweetCount > %d", 1)
            request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: false)]
            #expect(try context.fetch(request).map(\.text) == ["c", "b"])
            let seen = try #require(stack.store.fetchesSeen.last)
            #expect(seen.entity?.name == "Tweet")
            #expect(seen.predicate != nil)
            #expect(seen.sortDescriptors?.count == 1)

            // The store returns its matches in its own order (by reference); the window is taken
            // after sorting, and the store is asked for as many objects as the window reaches.
            request.predicate = nil
            request.fetchOffset = 1
            request.fetchLimit = 1
            #expect(try context.fetch(request).map(\.text) == ["b"])
            #expect(stack.store.fetchesSeen.last?.fetchOffset == 0)
            #expect(stack.store.fetchesSeen.last?.fetchLimit == 2)

            let count = NSFetchRequest<NSNumber>(entityName: "Tweet")
            count.predicate = NSPredicate(format: "text != %@", "a")
            #expect(try context.count(for: count) == 2)
            #expect(stack.store.fetchesSeen.last?.resultType == .countResultType)

            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Tweet")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = NSPredicate(format: "text BEGINSWITH %@", "a")
            let found = try context.fetch(ids)
            #expect(found.count == 1)
            #expect((context.object(with: found[0]) as? Tweet)?.text == "a")
        }
    }

    @Test func faultsFireThroughNewValuesForObject() throws {
        let stack = try makeStack()
        let ids = try saveTweets(in: stack)
        let context = stack.context()
        try context.performAndWait {
            let before = stack.store.nodesMade
            let tweet = try #require(context.object(with: ids["b"]!) as? Tweet)
            #expect(tweet.isFault)
            #expect(stack.store.nodesMade == before)
            #expect(tweet.text == "b")
            #expect(tweet.retweetCount == 3)
            #expect(stack.store.nodesMade == before + 1)
            // The same reference makes the same ID.
            let reference = stack.store.referenceObject(for: ids["b"]!)
            #expect(stack.store.newObjectID(for: tweet.entity, referenceObject: reference) == ids["b"]!)
        }
    }

    @Test func relationshipsResolveThroughTheNodeAndNewValueForRelationship() throws {
        let stack = try makeStack()
        let ids = try saveTweets(in: stack)
        let context = stack.context()
        try context.performAndWait {
            let tweet = try #require(context.object(with: ids["a"]!) as? Tweet)
            #expect(tweet.tweeter?.screenName == "paul")
            #expect(!stack.store.relationshipsAsked.contains("tweeter"))

            let paul = try #require(context.object(with: ids["paul"]!) as? TwitterUser)
            let texts = (paul.tweets ?? []).compactMap { ($0 as? Tweet)?.text }.sorted()
            #expect(texts == ["a", "b", "c"])
            #expect(stack.store.relationshipsAsked == ["tweets"])

            let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
            request.predicate = NSPredicate(format: "tweeter.screenName == %@", "paul")
            #expect(try context.fetch(request).count == 3)
        }
    }

    @Test func aToOneANodeLeavesOutIsAskedOfNewValueForRelationship() throws {
        let stack = try makeStack()
        let ids = try saveTweets(in: stack)
        stack.store.leavesToOnesOut = true
        let context = stack.context()
        try context.performAndWait {
            let tweet = try #require(context.object(with: ids["c"]!) as? Tweet)
            #expect(tweet.text == "c")
            #expect(stack.store.relationshipsAsked == ["tweeter"])
            #expect(tweet.tweeter?.objectID == ids["paul"]!)
            #expect(tweet.tweeter?.name == "Paul")
        }
    }

    @Test func updatesAndDeletesReachTheStore() throws {
        let stack = try makeStack()
        let ids = try saveTweets(in: stack)
        let context = stack.context()
        try context.performAndWait {
            let b = try #require(context.object(with: ids["b"]!) as? Tweet)
            b.text = "B"
            context.delete(context.object(with: ids["c"]!))
            try context.save()
            let save = try #require(stack.store.savesSeen.last)
            #expect(save.updatedObjects?.compactMap { ($0 as? Tweet)?.text }.contains("B") == true)
            #expect(save.deletedObjects?.map(\.objectID) == [ids["c"]!])
        }
        let reader = stack.context()
        try reader.performAndWait {
            let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
            request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
            #expect(try reader.fetch(request).map(\.text) == ["B", "a"])
            let paul = try #require(reader.object(with: ids["paul"]!) as? TwitterUser)
            #expect(paul.tweets?.count == 2)
        }
    }

    @Test func errorsFromTheStoreReachTheCallerOfSaveAndFetch() throws {
        let stack = try makeStack()
        _ = try saveTweets(in: stack)
        let context = stack.context()
        try context.performAndWait {
            let tweet = Tweet(context: context)
            tweet.text = "refused"
            stack.store.saveFailure = RecordStore.Failure(message: "disk full")
            #expect(throws: RecordStore.Failure(message: "disk full")) { try context.save() }
            #expect(context.hasChanges)
            #expect(tweet.text == "refused")
            stack.store.saveFailure = nil
            try context.save()
            #expect(stack.store.records["Tweet"]?.values.contains { $0["text"] as? String == "refused" } == true)

            stack.store.fetchFailure = RecordStore.Failure(message: "offline")
            #expect(throws: RecordStore.Failure(message: "offline")) { try context.fetch(Tweet.fetchRequest()) }
            #expect(throws: RecordStore.Failure(message: "offline")) { try context.count(for: Tweet.fetchRequest()) }
        }
    }

    @Test func permanentIDsComeFromTheStoreBeforeASave() throws {
        let stack = try makeStack()
        let context = stack.context()
        try context.performAndWait {
            let tweet = Tweet(context: context)
            tweet.text = "early"
            try context.obtainPermanentIDs(for: [tweet])
            #expect(!tweet.objectID.isTemporaryID)
            #expect(stack.store.referenceObject(for: tweet.objectID) as? String == "Tweet-1")
            try context.save()
            #expect(stack.store.records["Tweet"]?["Tweet-1"]?["text"] as? String == "early")
        }
    }
}
