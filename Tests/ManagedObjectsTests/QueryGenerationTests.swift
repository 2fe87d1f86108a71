import Foundation
import Testing
@testable import ManagedObjects

@Suite("Query generations")
struct QueryGenerationTests {
    @Test("a pinned context does not see a concurrent save until it advances", arguments: StoreKind.allCases)
    func pinnedReads(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        let firstID = try writer.performAndWait {
            let tweet = Tweet(context: writer)
            tweet.text = "original"
            try writer.save()
            return tweet.objectID
        }
        try reader.performAndWait {
            #expect(reader.queryGenerationToken == nil)
            try reader.setQueryGenerationFrom(.current)
            let pinned = try #require(reader.queryGenerationToken)
            #expect(pinned != .current)
            #expect(try reader.count(for: Tweet.fetchRequest()) == 1)

            let secondID = try writer.performAndWait {
                let first = try #require(try writer.existingObject(with: firstID) as? Tweet)
                first.text = "changed"
                let second = Tweet(context: writer)
                second.text = "second"
                try writer.save()
                return second.objectID
            }
            let original = FetchRequest<Tweet>(entityName: "Tweet", predicate: ObjectPredicate("text == %@", "original"))
            #expect(try reader.count(for: Tweet.fetchRequest()) == 1)
            #expect(try reader.fetch(original).map(\.objectID) == [firstID])
            #expect(try reader.fetch(original).first?.text == "original")
            #expect(throws: ManagedObjectError.self) { try reader.existingObject(with: secondID) }
            #expect(reader.queryGenerationToken == pinned)

            // Given `.current` again, the context reads the latest state.
            try reader.setQueryGenerationFrom(.current)
            #expect(reader.queryGenerationToken != pinned)
            #expect(try reader.count(for: Tweet.fetchRequest()) == 2)
            #expect(try reader.fetch(original).isEmpty)
            #expect((try reader.existingObject(with: secondID) as? Tweet)?.text == "second")

            try reader.setQueryGenerationFrom(nil)
            #expect(reader.queryGenerationToken == nil)
        }
    }

    @Test("a pinned context advances when it saves", arguments: StoreKind.allCases)
    func saveAdvances(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            try reader.setQueryGenerationFrom(.current)
            let pinned = reader.queryGenerationToken
            try writer.performAndWait {
                Tweet(context: writer).text = "theirs"
                try writer.save()
            }
            #expect(try reader.count(for: Tweet.fetchRequest()) == 0)
            Tweet(context: reader).text = "mine"
            try reader.save()
            #expect(reader.queryGenerationToken != nil && reader.queryGenerationToken != pinned)
            #expect(try reader.count(for: Tweet.fetchRequest()) == 2)
        }
    }

    @Test("a child context cannot pin: it reads through its parent")
    func childCannotPin() throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: container.newBackgroundContext())
        let error = try #require(throws: ManagedObjectError.self) {
            try child.performAndWait { try child.setQueryGenerationFrom(.current) }
        }
        #expect(error.code == .persistentStoreOperation)
    }
}
