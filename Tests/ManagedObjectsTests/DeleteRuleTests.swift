import DataModel
import Foundation
import Testing
@testable import ManagedObjects

@Suite("Delete rules")
struct DeleteRuleTests {
    @Test("nullify: deleting a tweet removes it from its tweeter", arguments: StoreKind.allCases)
    func nullify(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            let (kept, deleted) = (Tweet(context: context), Tweet(context: context))
            joe.tweets = [kept, deleted]
            try context.save()
            context.delete(deleted)
            #expect(deleted.isDeleted)
            #expect(joe.tweets == [kept])
            #expect(context.deletedObjects == [deleted])
            #expect(joe.isUpdated)
            try context.save()
            #expect(try context.fetch(Tweet.fetchRequest()) == [kept])
            #expect(deleted.managedObjectContext == nil)
            #expect(!context.registeredObjects.contains(deleted))
        }
    }

    /// Core Data fires a fault it deletes; the delete then carries the version of the row it
    /// read, and the save does not fail optimistic locking (133020).
    @Test("a fault that was never read deletes and saves", arguments: StoreKind.allCases)
    func deletingAFault(kind: StoreKind) throws {
        // Settings has no relationship: no delete rule reads the object before the save.
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            let settings = try #require(LibraryModel.managedObjectModel["Settings"])
            let kept = ManagedObject(entity: settings, insertInto: context)
            let deleted = ManagedObject(entity: settings, insertInto: context)
            try context.save()
            let (keptID, deletedID) = (kept.objectID, deleted.objectID)
            context.reset()
            let fault = context.object(with: deletedID)
            #expect(fault.isFault)
            context.delete(fault)
            try context.save()
            #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Settings")).map(\.objectID) == [keptID])
        }
    }

    @Test("cascade: deleting a user deletes the tweets, transitively", arguments: StoreKind.allCases)
    func cascade(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            // Author.passport cascades; Dog.walks cascades in the other model.
            let author = Author(context: context)
            author.passport = Passport(context: context)
            try context.save()
            context.delete(author)
            try context.save()
            #expect(try context.count(for: FetchRequest<Passport>(entityName: "Passport")) == 0)
        }
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            let tweets = [Tweet(context: context), Tweet(context: context)]
            joe.addToTweets(Set(tweets))
            try context.save()
            context.delete(joe)
            #expect(tweets.allSatisfy { $0.isDeleted })
            try context.save()
            #expect(try context.count(for: Tweet.fetchRequest()) == 0)
            #expect(try context.count(for: TwitterUser.fetchRequest()) == 0)
        }
        // Transitive: user → tweets (cascade); a second model level via Dog → walks.
        try withContext(DogWalkModel.managedObjectModel, kind: kind) { (context) throws in
            let dog = Dog(context: context)
            for _ in 0..<3 { dog.addToWalks(Walk(context: context)) }
            try context.save()
            context.delete(dog)
            try context.save()
            #expect(try context.count(for: Walk.fetchRequest()) == 0)
        }
    }

    @Test("cascade goes through several levels", arguments: StoreKind.allCases)
    func cascadeTransitive(kind: StoreKind) throws {
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "A", relationships: [
                Relationship(name: "bs", destinationEntity: "B", inverseName: "a", isToMany: true,
                             isOptional: true, deleteRule: .cascade),
            ]),
            Entity(name: "B", relationships: [
                Relationship(name: "a", destinationEntity: "A", inverseName: "bs", isOptional: true),
                Relationship(name: "cs", destinationEntity: "C", inverseName: "b", isToMany: true,
                             isOptional: true, deleteRule: .cascade),
            ]),
            Entity(name: "C", relationships: [
                Relationship(name: "b", destinationEntity: "B", inverseName: "cs", isOptional: true),
            ]),
        ]))
        try withContext(model, kind: kind) { (context) throws in
            let a = ManagedObject(entity: model["A"]!, insertInto: context)
            let b = ManagedObject(entity: model["B"]!, insertInto: context)
            let c = ManagedObject(entity: model["C"]!, insertInto: context)
            b.setValue(a, forKey: "a")
            c.setValue(b, forKey: "b")
            try context.save()
            context.delete(a)
            #expect(b.isDeleted && c.isDeleted)
            try context.save()
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "C")) == 0)
        }
    }

    @Test("deny: a save fails with 1600 while the relationship has objects; nothing is saved", arguments: StoreKind.allCases)
    func deny(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            let library = Library(context: context)
            library.name = "City"
            let book = Book(context: context)
            book.title = "Dune"
            book.library = library
            try context.save()

            context.delete(library)
            #expect(book.library === library, "deny leaves the relationship in place")
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.code == .relationshipDeniedDelete)
            #expect(error.code.rawValue == 1600)
            #expect(error.entityName == "Library" && error.key == "books")
            #expect(library.isDeleted && context.hasChanges, "a failed save leaves the context as it was")

            context.rollback()
            #expect(!library.isDeleted)
            #expect(try context.count(for: FetchRequest<Library>(entityName: "Library")) == 1)

            // Once the books are gone the delete goes through.
            context.delete(book)
            context.delete(library)
            try context.save()
            #expect(try context.count(for: FetchRequest<Library>(entityName: "Library")) == 0)
        }
    }

    @Test("no action: the destination keeps pointing at the deleted object", arguments: StoreKind.allCases)
    func noAction(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            let library = Library(context: context)
            let shelf = Shelf(context: context)
            shelf.library = library
            try context.save()
            context.delete(library)
            #expect(shelf.library === library)
            #expect(shelf.library?.isDeleted == true)
            #expect(!shelf.isUpdated)
            try context.save()
            #expect(try context.count(for: FetchRequest<Library>(entityName: "Library")) == 0)
        }
    }

    @Test("deleting a never-saved object forgets it; prepareForDeletion runs first", arguments: StoreKind.allCases)
    func deleteInserted(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            let tweet = Tweet(context: context)
            tweet.tweeter = joe
            context.delete(tweet)
            #expect(context.insertedObjects == [joe])
            #expect(joe.tweets.isEmpty)
            #expect(tweet.managedObjectContext == nil)
            try context.save()
            #expect(try context.count(for: Tweet.fetchRequest()) == 0)
        }
    }
}
