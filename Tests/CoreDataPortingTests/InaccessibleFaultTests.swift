import CoreData
import Testing

/// `shouldDeleteInaccessibleFaults`, as Core Data documents it: a fault whose stored object
/// another context deleted reads as empty and is marked deleted (default), or, switched off,
/// only reads as empty (Core Data raises there; the runtime never traps on data).
@Suite struct InaccessibleFaultTests {
    /// A context holding `tweet` as a fault, and the tweet deleted from the store by another.
    private func faultWhoseRowIsGone(deletesInaccessibleFaults: Bool) throws -> (NSManagedObjectContext, Tweet) {
        let container = PersistenceController(inMemory: true).container
        let writer = container.newBackgroundContext()
        let tweetID = try writer.performAndWait {
            let tweet = Tweet(context: writer)
            tweet.text = "soon gone"
            try writer.save()
            return tweet.objectID
        }
        let reader = container.newBackgroundContext()
        reader.shouldDeleteInaccessibleFaults = deletesInaccessibleFaults
        let fault = try #require(reader.performAndWait { reader.object(with: tweetID) as? Tweet })
        #expect(reader.performAndWait { fault.isFault })
        try writer.performAndWait {
            writer.delete(try writer.existingObject(with: tweetID))
            try writer.save()
        }
        return (reader, fault)
    }

    @Test func inaccessibleFaultIsMarkedDeletedAndDiscardedBySave() throws {
        let (context, tweet) = try faultWhoseRowIsGone(deletesInaccessibleFaults: true)
        try context.performAndWait {
            #expect(tweet.text == nil && tweet.retweetCount == 0)
            #expect(tweet.isDeleted && context.deletedObjects.contains(tweet))
            try context.save()
            #expect(tweet.managedObjectContext == nil && !context.hasChanges)
        }
    }

    @Test func withoutDeletingItReadsEmptyAndExistingObjectThrows() throws {
        let (context, tweet) = try faultWhoseRowIsGone(deletesInaccessibleFaults: false)
        context.performAndWait {
            #expect(tweet.text == nil)
            #expect(!tweet.isDeleted && context.deletedObjects.isEmpty)
            #expect(throws: (any Error).self) { try context.existingObject(with: tweet.objectID) }
        }
    }
}
