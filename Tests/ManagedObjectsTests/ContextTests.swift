import DataModel
import Foundation
import Testing
@testable import ManagedObjects

@Suite("ManagedObjectContext")
struct ContextTests {
    @Test("save gives permanent IDs with the store's URI form; the context keeps one object per ID", arguments: StoreKind.allCases)
    func permanentIDs(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let tweet = Tweet(context: context)
            let temporary = tweet.objectID
            #expect(temporary.uriRepresentation.absoluteString.wholeMatch(
                of: /x-coredata:\/\/\/Tweet\/t[0-9A-F-]{36}[0-9]+/) != nil)
            try context.save()
            let permanent = tweet.objectID
            #expect(!permanent.isTemporaryID && permanent != temporary)
            #expect(permanent.uriRepresentation.absoluteString == "x-coredata://\(store.identifier)/Tweet/p1")
            #expect(context.object(with: permanent) === tweet)
            #expect(context.registeredObject(for: temporary) == nil)
            let parsed = container.persistentStoreCoordinator.managedObjectID(
                forURIRepresentation: permanent.uriRepresentation)
            #expect(parsed == permanent)
            #expect(!tweet.hasChanges && !context.hasChanges)

            // Numbers run per entity, in insertion order, as table rows do.
            let users = [TwitterUser(context: context), TwitterUser(context: context)]
            let second = Tweet(context: context)
            try context.save()
            #expect(users.map(\.objectID.storeNumber) == [1, 2])
            #expect(second.objectID.storeNumber == 2)
        }
    }

    @Test("save writes to the store; another context sees it on its next fetch", arguments: StoreKind.allCases)
    func saveIsVisibleElsewhere(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            #expect(try reader.fetch(Tweet.fetchRequest()).isEmpty)
        }
        try writer.performAndWait {
            let joe = TwitterUser(context: writer)
            joe.name = "Joe"
            let tweet = Tweet(context: writer)
            tweet.text = "hello"
            tweet.tweeter = joe
            // Unsaved: the reader does not see it.
            try reader.performAndWait { () throws in #expect(try reader.count(for: Tweet.fetchRequest()) == 0) }
            try writer.save()
        }
        try reader.performAndWait {
            let tweets = try reader.fetch(Tweet.fetchRequest())
            #expect(tweets.map(\.text) == ["hello"])
            #expect(tweets.first?.tweeter?.name == "Joe")
            #expect(tweets.first?.tweeter?.tweets == Set(tweets))
        }
        // A later change by the writer reaches the reader's object (which its relationship
        // cycle keeps registered) on a fetch that refreshes it: a plain refetch keeps a loaded
        // object's values, as in Core Data (see RefetchTests).
        try writer.performAndWait {
            let tweet = try #require(try writer.fetch(Tweet.fetchRequest()).first)
            tweet.text = "edited"
            try writer.save()
        }
        try reader.performAndWait { () throws in
            let request = Tweet.fetchRequest()
            request.shouldRefreshRefetchedObjects = true
            #expect(try reader.fetch(request).first?.text == "edited")
        }
    }

    @Test("rollback: inserts leave, changes and deletes are undone, relationships restored", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            joe.name = "Joe"
            let tweet = Tweet(context: context)
            tweet.text = "saved"
            tweet.tweeter = joe
            try context.save()

            let draft = Tweet(context: context)
            draft.tweeter = joe
            tweet.text = "changed"
            let ann = TwitterUser(context: context)
            tweet.tweeter = ann
            joe.name = "Joseph"
            context.rollback()

            #expect(!context.hasChanges)
            #expect(draft.managedObjectContext == nil)
            #expect(ann.managedObjectContext == nil)
            #expect(tweet.text == "saved" && joe.name == "Joe")
            #expect(tweet.tweeter === joe)
            #expect(joe.tweets == [tweet])
            #expect(context.registeredObjects == [joe, tweet])

            context.delete(joe)
            #expect(tweet.isDeleted)
            context.rollback()
            #expect(!joe.isDeleted && !tweet.isDeleted)
            #expect(joe.tweets == [tweet] && tweet.tweeter === joe)
            #expect(try context.count(for: Tweet.fetchRequest()) == 1)
        }
    }

    @Test("refresh: without merging discards changes and loads the store's values; with merging keeps them", arguments: StoreKind.allCases)
    func refresh(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let context = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        let id = try context.performAndWait {
            let user = TwitterUser(context: context)
            user.name = "Joe"
            user.screenName = "joe"
            try context.save()
            return user.objectID
        }
        try other.performAndWait {
            let user = try #require(try other.existingObject(with: id) as? TwitterUser)
            user.screenName = "joe_s"
            try other.save()
        }
        context.performAndWait {
            let user = context.object(with: id) as! TwitterUser
            user.name = "Local"
            context.refresh(user, mergeChanges: true)
            #expect(user.name == "Local", "merging keeps unsaved changes")
            #expect(user.screenName == "joe_s", "and takes the store's other values")
            #expect(user.isUpdated)
            context.refresh(user, mergeChanges: false)
            #expect(user.name == "Joe" && user.screenName == "joe_s")
            #expect(!user.isUpdated && !context.hasChanges)
        }
    }

    @Test("reset forgets every object", arguments: StoreKind.allCases)
    func reset(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let saved = Tweet(context: context)
            saved.text = "kept in store"
            try context.save()
            let unsaved = Tweet(context: context)
            context.reset()
            #expect(context.registeredObjects.isEmpty && !context.hasChanges)
            #expect(saved.managedObjectContext == nil && unsaved.managedObjectContext == nil)
            let fetched = try context.fetch(Tweet.fetchRequest())
            #expect(fetched.count == 1 && fetched.first !== saved)
            #expect(fetched.first?.text == "kept in store")
        }
    }

    @Test("existingObject(with:) throws 133000 for an ID with no object", arguments: StoreKind.allCases)
    func existingObject(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let tweet = Tweet(context: context)
            try context.save()
            let id = tweet.objectID
            #expect(try context.existingObject(with: id) === tweet)
            context.delete(tweet)
            try context.save()
            let error = try #require(throws: ManagedObjectError.self) { try context.existingObject(with: id) }
            #expect(error.code == .referentialIntegrity && error.code.rawValue == 133000)
        }
    }

    @Test("a store conflict fails the save with 133020 and leaves both sides intact", arguments: StoreKind.allCases)
    func mergeConflict(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        // The first context keeps using its object: an object it no longer held would be
        // released, and a new fault would read the second context's save (no conflict).
        let original = try first.performAndWait {
            let user = TwitterUser(context: first)
            user.name = "original"
            try first.save()
            return user
        }
        let id = original.objectID
        try second.performAndWait {
            let user = second.object(with: id) as! TwitterUser
            user.name = "second"
            try second.save()
        }
        try first.performAndWait {
            let user = first.object(with: id) as! TwitterUser
            #expect(user === original)
            user.name = "first"
            let error = try #require(throws: ManagedObjectError.self) { try first.save() }
            #expect(error.code.rawValue == 133020 && error.objectID == id)
            #expect(user.isUpdated, "the failed save keeps the change")
            first.refresh(user, mergeChanges: true)
            try first.save()
        }
        try second.performAndWait { () throws in
            second.reset()
            #expect((second.object(with: id) as! TwitterUser).name == "first")
        }
    }

    @Test("transient attributes stay in their context: the store keeps nil", arguments: StoreKind.allCases)
    func transientAttributes(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "Draft", attributes: [
                Attribute(name: "text", type: .string, isOptional: true),
                Attribute(name: "cursor", type: .integer32, isOptional: true, isTransient: true),
            ]),
        ]))
        let container = try makeContainer(model, kind: kind, files: files)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let draft = ManagedObject(entity: model["Draft"]!, insertInto: context)
            draft.setValue("hello", forKey: "text")
            draft.setValue(7, forKey: "cursor")
            try context.save()
            #expect(draft.value(forKey: "cursor") as? Int32 == 7)
            #expect(draft.changedValues().isEmpty)
            return draft.objectID
        }
        let other = container.newBackgroundContext()
        other.performAndWait {
            let draft = other.object(with: id)
            #expect(draft.value(forKey: "text") as? String == "hello")
            #expect(draft.value(forKey: "cursor") == nil)
        }
    }
}

@Suite("Uniqueness constraints")
struct UniquenessTests {
    @Test("a save that would duplicate a constrained value fails with 133021 and writes nothing", arguments: StoreKind.allCases)
    func duplicateFails(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(EnrouteModel.managedObjectModel, kind: kind, files: files)
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        try first.performAndWait { () throws in
            let airport = Airport(context: first)
            airport.icao = "KSFO"
            try first.save()
        }
        try second.performAndWait { () throws in
            // Unaware of the first context's airport (a direct insert, not find-or-insert).
            let duplicate = Airport(context: second)
            duplicate.icao = "KSFO"
            let other = Airport(context: second)
            other.icao = "KJFK"
            let error = try #require(throws: ManagedObjectError.self) { try second.save() }
            #expect(error.code == .constraintConflict && error.code.rawValue == 133021)
            #expect(error.objectID == duplicate.objectID && error.key == "icao_")
            #expect(second.hasChanges && other.objectID.isTemporaryID)
            // Fixing the value lets the save through.
            duplicate.icao = "EGLL"
            try second.save()
            #expect(try Airport.count(in: second) == 3)
            // Changing a saved object onto a taken value fails too; nil is never a conflict.
            other.icao = "KSFO"
            #expect(throws: ManagedObjectError.self) { try second.save() }
            other.icao_ = nil
            duplicate.icao_ = nil
            try second.save()
        }
    }

    // The SQLite store checks versions in its UPDATE and DELETE statements as it writes, so
    // the update that breaks the constraint runs before the conflicting ones are found.
    @Test("version conflicts of updates and deletes, all of them, come before a broken constraint; nothing is written",
          arguments: StoreKind.allCases)
    func versionConflictsBeforeConstraint(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(EnrouteModel.managedObjectModel, kind: kind, files: files)
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        let airports = try mine.performAndWait {
            let airports = ["EGLL", "KJFK", "KSFO", "LFPG"].map { code in
                let airport = Airport(context: mine)
                airport.icao = code
                return airport
            }
            try mine.save()
            return airports
        }
        let changedByOther = [airports[1].objectID, airports[2].objectID]
        try other.performAndWait {
            for (id, code) in zip(changedByOther, ["OTHER1", "OTHER2"]) {
                let airport = try other.existingObject(with: id) as? Airport
                airport?.icao = code
            }
            try other.save()
        }
        let error = try mine.performAndWait {
            airports[0].icao = "LFPG"
            airports[1].icao = "MINE"
            mine.delete(airports[2])
            return try #require(throws: ManagedObjectError.self) { try mine.save() }
        }
        #expect(error.code == .mergeConflict)
        let conflicting = Set(error.detailedErrors.compactMap { $0.objectID })
        #expect(conflicting == Set(changedByOther))
        let reader = container.newBackgroundContext()
        let codes = try reader.performAndWait { try reader.fetch(Airport.fetchRequest()).compactMap { $0.icao_ }.sorted() }
        #expect(codes == ["EGLL", "LFPG", "OTHER1", "OTHER2"])
    }

    // The SQLite store inserts a large save's rows many to a statement; the error must still
    // name the one object, whichever statement and place in it the object falls on.
    @Test("a duplicate deep in a large save names its object, and none of the save is stored", arguments: StoreKind.allCases)
    func duplicateInLargeSave(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(EnrouteModel.managedObjectModel, kind: kind, files: files)
        let first = container.newBackgroundContext()
        try first.performAndWait { () throws in
            Airport(context: first).icao = "TAKEN"
            try first.save()
        }
        func storedCount() throws -> Int {
            let reader = container.newBackgroundContext()
            return try reader.performAndWait { try Airport.count(in: reader) }
        }
        let second = container.newBackgroundContext()
        try second.performAndWait { () throws in
            let airports = (0..<350).map { number in
                let airport = Airport(context: second)
                airport.icao = "A\(number)"
                return airport
            }
            for place in [0, 99, 100, 173, 349] {
                let duplicate = airports[place]
                duplicate.icao = "TAKEN"
                let error = try #require(throws: ManagedObjectError.self) { try second.save() }
                #expect(error.code == .constraintConflict)
                #expect(error.objectID == duplicate.objectID)
                #expect(try storedCount() == 1)
                #expect(airports.allSatisfy { $0.objectID.isTemporaryID })
                duplicate.icao = "A\(place)"
            }
            try second.save()
            #expect(try storedCount() == 351)
        }
    }
}
