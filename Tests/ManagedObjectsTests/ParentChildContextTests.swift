import Foundation
import Testing
@testable import ManagedObjects

@Suite("Parent and child contexts")
struct ParentChildContextTests {
    @Test("a background child imports 10,000 objects, pushes them to its parent, which saves them",
          .timeLimit(.minutes(5)), arguments: StoreKind.allCases)
    func importThroughChild(kind: StoreKind) async throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(DogWalkModel.managedObjectModel, kind: kind, files: files)
        let parent = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        #expect(child.parent === parent && child.persistentStoreCoordinator === container.persistentStoreCoordinator)

        let temporaryIDs = try await child.perform {
            var ids: [ManagedObjectID] = []
            for number in 0..<2_000 {
                let dog = Dog(context: child)
                dog.name = "dog \(number)"
                for day in 0..<4 {
                    let walk = Walk(context: child)
                    walk.date = Date(timeIntervalSinceReferenceDate: Double(day * 86_400))
                    dog.addToWalks(walk)
                }
                ids.append(dog.objectID)
            }
            try child.save()
            #expect(!child.hasChanges)
            return ids
        }
        #expect(temporaryIDs.allSatisfy { $0.isTemporaryID })

        // The parent has the changes, unsaved, under the same (temporary) IDs; the store has nothing yet.
        let (parentInserted, sameIDs) = await parent.perform {
            (parent.insertedObjects.count, temporaryIDs.allSatisfy { parent.registeredObject(for: $0) != nil })
        }
        #expect(parentInserted == 10_000 && sameIDs)
        let reader = container.newBackgroundContext()
        #expect(try await reader.perform { try reader.count(for: Dog.fetchRequest()) } == 0)

        let (dogs, walksLinked, permanent) = try await parent.perform {
            try parent.save()
            let dogs = try parent.fetch(Dog.fetchRequest())
            return (dogs.count, dogs.allSatisfy { dog in dog.walks.count == 4 && dog.walks.allSatisfy { $0.dog === dog } },
                    dogs.allSatisfy { !$0.objectID.isTemporaryID })
        }
        #expect(dogs == 2_000 && walksLinked && permanent)
        let (storedDogs, storedWalks, linked) = try await reader.perform {
            let dogs = try reader.fetch(Dog.fetchRequest())
            return (dogs.count, try reader.count(for: Walk.fetchRequest()),
                    dogs.allSatisfy { dog in dog.walks.count == 4 && dog.walks.allSatisfy { $0.dog === dog } })
        }
        #expect(storedDogs == 2_000 && storedWalks == 8_000 && linked)
        // The child's objects keep their temporary IDs (as in Core Data).
        #expect(await child.perform { child.registeredObject(for: temporaryIDs[0]) != nil })
    }

    @Test("a background child of the main-queue view context pushes into it; the view context saves",
          .timeLimit(.minutes(5)))
    func childOfViewContext() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let viewContext = container.viewContext
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: viewContext)
        let changed = viewContext.notifications(named: [.objectsDidChange])
        try await child.perform {
            for number in 0..<100 { TwitterUser(context: child).name = "user \(number)" }
            try child.save()
        }
        var iterator = changed.makeAsyncIterator()
        let announced = try #require(await iterator.next())
        #expect(announced.insertedObjectIDs.count == 100)
        let (inserted, stored) = try await viewContext.perform {
            let inserted = viewContext.insertedObjects.count
            try viewContext.save()
            return (inserted, try viewContext.count(for: TwitterUser.fetchRequest()))
        }
        #expect(inserted == 100 && stored == 100)
    }

    @Test("a child's fetch sees its parent's unsaved inserts, changes and deletes", .timeLimit(.minutes(5)), arguments: StoreKind.allCases)
    func childSeesParentState(kind: StoreKind) async throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let parent = container.newBackgroundContext()
        let (changedID, deletedID) = try await parent.perform {
            let changed = TwitterUser(context: parent)
            changed.name = "Ann"
            let deleted = TwitterUser(context: parent)
            deleted.name = "Bob"
            let kept = TwitterUser(context: parent)
            kept.name = "Cid"
            try parent.save()
            changed.name = "Ann (unsaved)"
            parent.delete(deleted)
            let added = TwitterUser(context: parent)
            added.name = "Dee (unsaved)"
            return (changed.objectID, deleted.objectID)
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        let (names, count, deletedGone, changedName) = try await child.perform {
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "name", ascending: true)]
            let names = try child.fetch(request).compactMap(\.name)
            let matching = FetchRequest<TwitterUser>(entityName: "TwitterUser", predicate: ObjectPredicate("name CONTAINS %@", "unsaved"))
            let deletedGone = (try? child.existingObject(with: deletedID)) == nil
            let changed = child.object(with: changedID) as? TwitterUser
            return (names, try child.count(for: matching), deletedGone, changed?.name)
        }
        #expect(names == ["Ann (unsaved)", "Cid", "Dee (unsaved)"])
        #expect(count == 2)
        #expect(deletedGone)
        #expect(changedName == "Ann (unsaved)")
    }

    @Test("a child follows its parent's unsaved relationships, in predicates and from objects", arguments: StoreKind.allCases)
    func childSeesParentRelationships(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let parent = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try parent.performAndWait {
            let ann = TwitterUser(context: parent)
            ann.name = "Ann"
            for text in ["one", "two"] {
                let tweet = Tweet(context: parent)
                tweet.text = text
                tweet.tweeter = ann
            }
            try child.performAndWait {
                let request = FetchRequest<Tweet>(entityName: "Tweet", predicate: ObjectPredicate("tweeter.name == %@", "Ann"))
                request.sortDescriptors = [ObjectSortDescriptor(key: "text", ascending: true)]
                let tweets = try child.fetch(request)
                #expect(tweets.map(\.text) == ["one", "two"])
                let user = try #require(tweets.first?.tweeter)
                #expect(user.name == "Ann" && user.objectID.isTemporaryID && user.tweets.count == 2)
                #expect(try child.count(for: FetchRequest<TwitterUser>(entityName: "TwitterUser", predicate: ObjectPredicate("tweets.@count == 2"))) == 1)
            }
        }
    }

    @Test("a child's save updates and deletes the parent's objects; the parent then has the changes", .timeLimit(.minutes(5)))
    func childSaveChangesParent() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let parent = container.newBackgroundContext()
        let (annID, bobID) = try await parent.perform {
            let ann = TwitterUser(context: parent)
            ann.name = "Ann"
            ann.screenName = "ann"
            let bob = TwitterUser(context: parent)
            bob.name = "Bob"
            let tweet = Tweet(context: parent)
            tweet.text = "hello"
            tweet.tweeter = bob
            try parent.save()
            ann.screenName = "ann (parent, unsaved)"
            return (ann.objectID, bob.objectID)
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try await child.perform {
            let ann = try #require(try child.existingObject(with: annID) as? TwitterUser)
            ann.name = "Ann (child)"
            child.delete(try child.existingObject(with: bobID))
            try child.save()
        }
        let (name, screenName, annUpdated, bobDeleted, tweetOrphaned) = await parent.perform {
            let ann = parent.object(with: annID) as? TwitterUser
            let bob = parent.object(with: bobID)
            let tweet = parent.registeredObjects.compactMap { $0 as? Tweet }.first
            return (ann?.name, ann?.screenName, ann.map(parent.updatedObjects.contains) ?? false,
                    bob.isDeleted && parent.deletedObjects.contains(bob), tweet?.tweeter == nil)
        }
        // The child's change lands on the parent's object, beside the parent's own change.
        #expect(name == "Ann (child)" && screenName == "ann (parent, unsaved)" && annUpdated)
        #expect(bobDeleted && tweetOrphaned)
        try await parent.perform { try parent.save() }
        let reader = container.newBackgroundContext()
        let stored = try await reader.perform {
            try reader.fetch(TwitterUser.fetchRequest()).map { "\($0.name ?? "") \($0.screenName ?? "")" }
        }
        #expect(stored == ["Ann (child) ann (parent, unsaved)"])
    }

    @Test("obtainPermanentIDs gives a child's objects the IDs they keep in the parent and the store", .timeLimit(.minutes(5)))
    func permanentIDsBeforeSave() async throws {
        let container = try makeContainer(DogWalkModel.managedObjectModel)
        let parent = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        let id = try await child.perform {
            let dog = Dog(context: child)
            dog.name = "Rex"
            try child.obtainPermanentIDs(for: [dog])
            #expect(!dog.objectID.isTemporaryID && child.registeredObject(for: dog.objectID) === dog)
            try child.save()
            return dog.objectID
        }
        try parent.performAndWait {
            let dog = try #require(parent.registeredObject(for: id) as? Dog)
            #expect(dog.name == "Rex" && dog.isInserted)
            try parent.save()
            #expect(dog.objectID == id && !dog.isInserted)
        }
        let reader = container.newBackgroundContext()
        #expect(try await reader.perform { (try reader.existingObject(with: id) as? Dog)?.name } == "Rex")
    }

    @Test("after the parent saved, a child's changes to objects it names by temporary IDs reach the saved objects",
          arguments: StoreKind.allCases)
    func childChangesAfterParentSave(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(DogWalkModel.managedObjectModel, kind: kind, files: files)
        let parent = container.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            let dog = Dog(context: child)
            dog.name = "Rex"
            try child.save()
            try parent.performAndWait { try parent.save() }
            #expect(dog.objectID.isTemporaryID)
            dog.name = "Rex II"
            dog.addToWalks(Walk(context: child))
            try child.save()
            child.refresh(dog, mergeChanges: false)
            #expect(dog.name == "Rex II" && dog.walks.count == 1)
            try parent.performAndWait {
                let dogs = try parent.fetch(Dog.fetchRequest())
                #expect(dogs.map(\.name) == ["Rex II"] && dogs.first?.walks.count == 1 && parent.hasChanges)
                try parent.save()
            }
        }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait { try reader.fetch(Dog.fetchRequest()).map { "\($0.name ?? "") \($0.walks.count)" } }
        #expect(stored == ["Rex II 1"])
    }

    @Test("a child that merges from its parent learns of the parent's saves", .timeLimit(.minutes(5)))
    func childMergesParentSaves() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let parent = container.newBackgroundContext()
        let id = try await parent.perform {
            let user = TwitterUser(context: parent)
            user.name = "Ann"
            try parent.save()
            return user.objectID
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        let merged = child.notifications(named: [.objectsDidChange])
        let held = try child.performAndWait {
            child.automaticallyMergesChangesFromParent = true
            let user = try #require(child.object(with: id) as? TwitterUser)
            #expect(user.name == "Ann")
            return user
        }
        try await parent.perform {
            (parent.object(with: id) as? TwitterUser)?.name = "Ann, renamed"
            try parent.save()
        }
        for await notification in merged where notification.refreshedObjectIDs.contains(id) { break }
        #expect(child.performAndWait { held.name } == "Ann, renamed")
    }

    @Test("a sibling on the coordinator still merges another context's save", .timeLimit(.minutes(5)))
    func siblingMergesThroughCoordinator() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let writer = container.newBackgroundContext()
        let sibling = container.newBackgroundContext()
        let id = try await writer.perform {
            let user = TwitterUser(context: writer)
            user.name = "Ann"
            try writer.save()
            return user.objectID
        }
        let merged = sibling.notifications(named: [.objectsDidChange])
        let held = try sibling.performAndWait {
            sibling.automaticallyMergesChangesFromParent = true
            let user = try #require(sibling.object(with: id) as? TwitterUser)
            #expect(user.name == "Ann")
            return user
        }
        try await writer.perform {
            (writer.object(with: id) as? TwitterUser)?.name = "Ann, renamed"
            try writer.save()
        }
        for await notification in merged where notification.refreshedObjectIDs.contains(id) { break }
        #expect(sibling.performAndWait { held.name } == "Ann, renamed")
    }

    @Test("performBackgroundTask and newBackgroundContext give private-queue contexts on the container's coordinator",
          .timeLimit(.minutes(5)))
    func backgroundContexts() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let background = container.newBackgroundContext()
        #expect(background.concurrencyType == .privateQueue && background.parent == nil)
        let count = try await container.performBackgroundTask { context in
            #expect(context.concurrencyType == .privateQueue && context.isOnQueue)
            TwitterUser(context: context).name = "Ann"
            try context.save()
            return try context.count(for: TwitterUser.fetchRequest())
        }
        #expect(count == 1)
        #expect(try await background.perform { try background.count(for: TwitterUser.fetchRequest()) } == 1)
    }

    @Test("mergeChanges(fromContextDidSave:) applies another context's save by hand", .timeLimit(.minutes(5)))
    func mergeByHand() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let writer = container.newBackgroundContext()
        let reader = container.newBackgroundContext()
        let (id, goneID) = try await writer.perform {
            let user = TwitterUser(context: writer)
            user.name = "Ann"
            let gone = TwitterUser(context: writer)
            gone.name = "Bob"
            try writer.save()
            return (user.objectID, gone.objectID)
        }
        let held = reader.performAndWait {
            [reader.object(with: id), reader.object(with: goneID)].compactMap { $0 as? TwitterUser }.filter { $0.name != nil }
        }
        #expect(held.count == 2)
        let saved = writer.notifications(named: [.didSave])
        try await writer.perform {
            (writer.object(with: id) as? TwitterUser)?.name = "Ann, renamed"
            writer.delete(writer.object(with: goneID))
            try writer.save()
        }
        var iterator = saved.makeAsyncIterator()
        let notification = try #require(await iterator.next())
        let (name, goneRegistered) = reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: notification)
            return (held[0].name, reader.registeredObject(for: goneID) != nil)
        }
        #expect(name == "Ann, renamed" && !goneRegistered && held[1].managedObjectContext == nil)
    }
}
