// Conflicts between contexts as Core Data code meets them: the error a save throws, read with
// `catch let error as NSError` and Core Data's user-info keys; merge policies; refetching.
import Foundation
import CoreData
import Testing

@Suite struct SaveConflictTests {
    /// Runs `body` on `mine` with a tweet it saved and holds loaded, which `other` has since
    /// changed (its text) and saved.
    private func withTweetChangedElsewhere(
        policy: NSMergePolicy = NSErrorMergePolicy, _ body: (NSManagedObjectContext, Tweet, NSPersistentContainer) throws -> Void
    ) throws {
        let container = PersistenceController(inMemory: true).container
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try mine.performAndWait {
            mine.mergePolicy = policy
            let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "original", postedBy: "paul", in: mine)
            try mine.save()
            try other.performAndWait {
                try other.existingObject(with: tweet.objectID).setValue("theirs", forKey: "text")
                try other.save()
            }
            try body(mine, tweet, container)
        }
    }

    /// The DogWalk book's `saveContext()`: a non-throwing function whose only catch is
    /// `catch let error as NSError`.
    private func saveContext(_ context: NSManagedObjectContext) -> NSError? {
        do {
            try context.save()
        } catch let error as NSError {
            return error
        }
        return nil
    }

    @Test func conflictErrorCarriesItsConflicts() throws {
        try withTweetChangedElsewhere { mine, tweet, _ throws in
            tweet.text = "mine"
            do {
                try mine.save()
                Issue.record("saved over another context's save under NSErrorMergePolicy")
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.code == NSManagedObjectMergeError)
                let conflicts = try #require(error.userInfo["conflictList"] as? [NSMergeConflict])
                #expect((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.count == 1)
                #expect(conflicts.count == 1)
                let conflict = try #require(conflicts.first)
                #expect(conflict.sourceObject === tweet)
                #expect(conflict.objectSnapshot?["text"] as? String == "mine")
                #expect(conflict.cachedSnapshot?["text"] as? String == "original")
                #expect(conflict.persistedSnapshot?["text"] as? String == "theirs")
                #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
            }
            let error = try #require(saveContext(mine))
            #expect(error.code == NSManagedObjectMergeError && error.userInfo["conflictList"] != nil)
        }
    }

    /// DuckDuckGo's CoreDataErrorsParser tests' shape: two background contexts on an SQLite
    /// file; the second reads the object through `object(with:)` (a fault, fired by reading)
    /// and keeps it, the first saves a change, and the second's save of its own change is a
    /// merge conflict carrying the object.
    @Test func conflictThroughAFaultOnAnSQLiteFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SaveConflictTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = NSPersistentContainer(name: "Twitter")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.appendingPathComponent("Twitter.sqlite"))]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let id = try first.performAndWait {
            let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "version 1", postedBy: "paul", in: first)
            try first.save()
            return tweet.objectID
        }
        // Held from here on: a context holds its unchanged objects weakly, and a fault made
        // again after its object was released fires with the newest saved version.
        let read = second.performAndWait { () -> Tweet? in
            let tweet = second.object(with: id) as? Tweet
            #expect(tweet?.text == "version 1")
            return tweet
        }
        try first.performAndWait {
            (first.object(with: id) as? Tweet)?.text = "version 2 from the first context"
            try first.save()
        }
        let error = second.performAndWait { () -> NSError? in
            read?.text = "version 2 from the second context"
            return saveContext(second)
        }
        #expect(error?.code == NSManagedObjectMergeError)
        let conflicts = error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict]
        #expect(conflicts?.first?.sourceObject.entity.name == "Tweet")
    }

    @Test func validationErrorReadThroughCatchAsNSError() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        _ = NSEntityDescription.insertNewObject(forEntityName: "TwitterUser", into: context)  // no name
        let error = try #require(saveContext(context))
        #expect(error.code == NSValidationMissingMandatoryPropertyError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
    }

    @Test func rollbackDiscardsTheLosingChangesAndDeletes() throws {
        try withTweetChangedElsewhere(policy: NSRollbackMergePolicy) { mine, tweet, _ throws in
            tweet.text = "mine"
            try mine.save()
            #expect(tweet.text == "theirs" && !mine.hasChanges)
        }
        try withTweetChangedElsewhere(policy: NSRollbackMergePolicy) { mine, tweet, container throws in
            mine.delete(tweet)
            try mine.save()
            #expect(!tweet.isDeleted && tweet.managedObjectContext === mine && tweet.text == "theirs")
            let reader = container.newBackgroundContext()
            #expect(try reader.performAndWait { try reader.count(for: Tweet.fetchRequest()) } == 1)
        }
    }

    @Test func refetchKeepsValuesUnlessAskedToRefresh() throws {
        try withTweetChangedElsewhere { mine, tweet, _ throws in
            let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
            #expect(!request.shouldRefreshRefetchedObjects)
            #expect(try mine.fetch(request).first === tweet)
            #expect(tweet.text == "original")
            request.shouldRefreshRefetchedObjects = true
            #expect(try mine.fetch(request).first === tweet)
            #expect(tweet.text == "theirs")
            #expect(mine.stalenessInterval < 0)
        }
    }
}
