import Foundation
@testable import ManagedObjects
import Testing

@Suite("Saved objects: kept once, related by ID, released when unused")
struct SavedObjectReleaseTests {
    @Test("after a save, objects related only to each other are released; a held one keeps its identity, values and relationships", arguments: StoreKind.allCases)
    func savedGraphIsReleased(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { context in
            var user: TwitterUser? = TwitterUser(context: context)
            user!.name = "ann"
            var tweets: [Tweet]? = (0..<3).map { number in
                let tweet = Tweet(context: context)
                tweet.text = "tweet \(number)"
                tweet.tweeter = user
                return tweet
            }
            let kept = tweets![0]
            weak let released = tweets![1]
            weak let releasedUser = user
            let userID = user!.objectID
            tweets = nil
            user = nil
            // Unsaved, they are held by the context (inserted) and by each other.
            #expect(released != nil && releasedUser != nil)

            try context.save()
            // Saved: the context no longer holds them and the tweet-user cycle is gone.
            #expect(released == nil)
            #expect(releasedUser == nil, "held before the save only by its tweets' to-one")
            let savedUserID = try #require(kept.tweeter?.objectID)
            #expect(!savedUserID.isTemporaryID && savedUserID != userID)

            // The held tweet reads its saved values and its relationship by ID, from the store.
            #expect(!kept.isFault && !kept.hasChanges)
            #expect(kept.text == "tweet 0")
            let tweeter = try #require(kept.tweeter)
            #expect(tweeter.name == "ann")
            #expect(tweeter.tweets.map { $0.text ?? "" }.sorted() == ["tweet 0", "tweet 1", "tweet 2"])
            #expect(tweeter.tweets.contains(kept), "the held object is the one the context hands out")
            #expect(kept.committedValues(forKeys: ["text"])["text"] as? String == "tweet 0")

            // Changing it after the save is tracked against the saved values, and saves.
            kept.text = "edited"
            #expect(kept.isUpdated && kept.changedValues().keys.sorted() == ["text"])
            try context.save()
            let fresh: PersistentStoreCoordinator = context.persistentStoreCoordinator
            let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: fresh)
            let texts = try reader.performAndWait { try reader.fetch(Tweet.fetchRequest()).map { $0.text ?? "" }.sorted() }
            #expect(texts == ["edited", "tweet 1", "tweet 2"])
        }
    }
}
