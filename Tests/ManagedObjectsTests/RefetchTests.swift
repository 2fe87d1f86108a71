import Foundation
import Testing
@testable import ManagedObjects

/// What a fetch does to objects the context already has, and when a fault reads the store again:
/// Core Data's `shouldRefreshRefetchedObjects` and `stalenessInterval`.
@Suite("Refetching and staleness")
struct RefetchTests {
    /// A saved tweet that `mine` holds loaded, then changed and saved by another context.
    func tweetChangedElsewhere(
        kind: StoreKind, files: TemporaryDirectory, _ body: (ManagedObjectContext, Tweet) throws -> Void
    ) throws {
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try mine.performAndWait {
            let tweet = Tweet(context: mine)
            tweet.text = "original"
            tweet.unique = "1"
            try mine.save()
            #expect(tweet.text == "original" && !tweet.isFault)
            try other.performAndWait {
                let theirs = try #require(try other.existingObject(with: tweet.objectID) as? Tweet)
                theirs.text = "theirs"
                try other.save()
            }
            try body(mine, tweet)
        }
    }

    @Test("a refetch keeps the values of a loaded object; the save then conflicts", arguments: StoreKind.allCases)
    func refetchKeepsValues(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        try tweetChangedElsewhere(kind: kind, files: files) { mine, tweet throws in
            let fetched = try mine.fetch(Tweet.fetchRequest())
            #expect(fetched.count == 1 && fetched.first === tweet)
            #expect(tweet.text == "original", "Core Data keeps registered objects' values on a refetch")
            #expect(try mine.existingObject(with: tweet.objectID) === tweet && tweet.text == "original")
            tweet.unique = "mine"
            let error = try #require(throws: ManagedObjectError.self) { try mine.save() }
            #expect(error.code == .mergeConflict)
        }
    }

    @Test("shouldRefreshRefetchedObjects brings a loaded object up to date, its unsaved changes kept",
          arguments: StoreKind.allCases)
    func refetchRefreshes(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        try tweetChangedElsewhere(kind: kind, files: files) { mine, tweet throws in
            tweet.unique = "mine"
            let request = Tweet.fetchRequest()
            request.shouldRefreshRefetchedObjects = true
            #expect(try mine.fetch(request).first === tweet)
            #expect(tweet.text == "theirs" && tweet.unique == "mine" && tweet.hasChanges)
            // It now holds the stored version: the save goes through under the error policy.
            try mine.save()
            #expect(!mine.hasChanges)
            mine.refresh(tweet, mergeChanges: false)
            #expect(tweet.text == "theirs" && tweet.unique == "mine")
        }
    }

    @Test("an unchanged object refetched with shouldRefreshRefetchedObjects takes the stored values",
          arguments: StoreKind.allCases)
    func refetchRefreshesUnchanged(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        try tweetChangedElsewhere(kind: kind, files: files) { mine, tweet throws in
            let request = Tweet.fetchRequest()
            request.shouldRefreshRefetchedObjects = true
            _ = try mine.fetch(request)
            #expect(tweet.text == "theirs" && !tweet.hasChanges)
        }
    }

    /// Two stacks on one SQLite file: the second one's save does not reach the first's row
    /// cache, as another process's would not.
    @Test("a fault fires from the row cache until stalenessInterval says the row is too old")
    func stalenessInterval() throws {
        let files = try TemporaryDirectory()
        let first = try makeContainer(TwitterModel.managedObjectModel, kind: .sqlite, files: files)
        let second = try makeContainer(TwitterModel.managedObjectModel, kind: .sqlite, files: files)
        let writer = first.newBackgroundContext()
        try writer.performAndWait {
            for unique in ["1", "2"] {
                let tweet = Tweet(context: writer)
                tweet.unique = unique
                tweet.text = "original"
            }
            try writer.save()
        }
        let reader = first.newBackgroundContext()
        try reader.performAndWait {
            #expect(reader.stalenessInterval < 0, "Core Data's default: any cached row will do")
            let request = Tweet.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "unique", ascending: true)]
            let tweets = try reader.fetch(request)
            #expect(tweets.count == 2 && tweets.allSatisfy(\.isFault))
            let other = second.newBackgroundContext()
            try other.performAndWait {
                for tweet in try other.fetch(Tweet.fetchRequest()) { tweet.text = "theirs" }
                try other.save()
            }
            #expect(tweets[0].text == "original", "fired from the cached row")
            reader.stalenessInterval = 0
            #expect(tweets[1].text == "theirs", "no staleness accepted: read from the store")
        }
    }

    /// Two stacks on one SQLite file, as in `stalenessInterval()`.
    @Test("a refetch gives faults that already hold a row the version it read")
    func refetchUpdatesFaultRows() throws {
        let files = try TemporaryDirectory()
        let first = try makeContainer(TwitterModel.managedObjectModel, kind: .sqlite, files: files)
        let second = try makeContainer(TwitterModel.managedObjectModel, kind: .sqlite, files: files)
        let writer = first.newBackgroundContext()
        try writer.performAndWait {
            Tweet(context: writer).text = "original"
            try writer.save()
        }
        let reader = first.newBackgroundContext()
        try reader.performAndWait {
            let tweet = try #require(try reader.fetch(Tweet.fetchRequest()).first)
            #expect(tweet.isFault)
            let other = second.newBackgroundContext()
            try other.performAndWait {
                for tweet in try other.fetch(Tweet.fetchRequest()) { tweet.text = "theirs" }
                try other.save()
            }
            #expect(try reader.fetch(Tweet.fetchRequest()).first === tweet && tweet.isFault)
            #expect(tweet.text == "theirs", "the fault fires with the row the refetch read")
        }
    }
}
