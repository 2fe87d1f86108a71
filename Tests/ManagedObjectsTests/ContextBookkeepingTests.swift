import Foundation
import Testing
@testable import ManagedObjects

/// The tables a context keeps its objects in: the registry by ID and the change lists, each
/// with its own fast path (packed IDs, object-held slots) and the cases that path does not take.
@Suite("Context bookkeeping")
struct ContextBookkeepingTests {
    private let model = TwitterModel.managedObjectModel
    private var user: EntityDescription { model["TwitterUser"]! }
    private var tweet: EntityDescription { model["Tweet"]! }

    // MARK: Change lists

    @Test("a change list keeps order, each object once, through removals that close it up")
    func changeListOrder() {
        let objects = (0..<100).map { _ in ManagedObject(entity: user, insertInto: nil) }
        var list: ChangeList = []
        for object in objects + objects.prefix(10) { list.append(object) }
        #expect(list.count == 100)
        // 60 removals empty more than half the slots, which closes the list up.
        let removed = Set(objects.indices.filter { $0 % 5 != 0 && $0 < 75 }.map { ObjectIdentifier(objects[$0]) })
        #expect(removed.count == 60)
        for object in objects where removed.contains(ObjectIdentifier(object)) {
            let wasThere = list.remove(object)
            #expect(wasThere)
        }
        let removedTwice = list.remove(objects[1])
        #expect(!removedTwice, "already removed")
        let kept = objects.filter { !removed.contains(ObjectIdentifier($0)) }
        #expect(list.elements.map(ObjectIdentifier.init) == kept.map(ObjectIdentifier.init))
        #expect(Array(list).count == 40)
        for object in objects {
            #expect(list.contains(object) == !removed.contains(ObjectIdentifier(object)))
        }
        // Slots found again after the close-up: removing and adding still work.
        let removedAgain = list.remove(kept[3])
        #expect(removedAgain)
        list.append(kept[3])
        #expect(list.elements.last === kept[3])
    }

    @Test("the mark of a change list survives a close-up: objects after it stay after it")
    func changeListMark() {
        let objects = (0..<64).map { _ in ManagedObject(entity: user, insertInto: nil) }
        var list: ChangeList = []
        func takeAfterMark() -> [ManagedObject] {
            var taken: [ManagedObject] = []
            list.moveMark { taken.append($0) }
            return taken
        }
        for object in objects.prefix(40) { list.append(object) }
        let first = takeAfterMark()
        #expect(first.count == 40)
        for object in objects.suffix(24) { list.append(object) }
        // Remove 35 of the 40 before the mark: fewer than half the slots are taken, and the
        // list closes up.
        for object in objects.prefix(35) { list.remove(object) }
        #expect(!list.isAfterMark(objects[37]))
        #expect(list.isAfterMark(objects[50]))
        let second = takeAfterMark()
        #expect(second.map(ObjectIdentifier.init) == objects.suffix(24).map(ObjectIdentifier.init))
        let third = takeAfterMark()
        #expect(third.isEmpty)
        #expect(list.count == 29)
    }

    @Test("an object in one context's list is not in another's, whatever slot it remembers")
    func changeListIdentity() {
        let first = ManagedObject(entity: user, insertInto: nil)
        let second = ManagedObject(entity: user, insertInto: nil)
        var one: ChangeList = [first]
        var other: ChangeList = [second]
        // `first` remembers slot 0, which `other` holds for `second`.
        #expect(!other.contains(first))
        let removed = other.remove(first)
        #expect(!removed)
        #expect(other.count == 1)
        one = []
        #expect(!one.contains(first))
    }

    @Test("inserts deleted before they are announced are never announced, after it as deletes", arguments: StoreKind.allCases)
    func insertsDeletedAroundAnnouncement(kind: StoreKind) throws {
        try withContext(model, kind: kind) { (context) throws in
            var received: [ContextNotification] = []
            let observation = context.addObserver(for: [.objectsDidChange]) { received.append($0) }
            defer { observation.cancel() }
            let announced = (0..<50).map { _ in TwitterUser(context: context) }
            context.processPendingChanges()
            #expect(received.last?.insertedObjectIDs.count == 50)

            let unannounced = (0..<20).map { _ in TwitterUser(context: context) }
            // 40 of the announced inserts leave: the inserted list closes up before the next
            // announcement, which must still name only the 20 new ones, in order, less those
            // deleted before it.
            for user in announced.prefix(40) { context.delete(user) }
            for user in unannounced.prefix(5) { context.delete(user) }
            context.processPendingChanges()
            #expect(received.last?.insertedObjectIDs == unannounced.dropFirst(5).map(\.objectID))
            #expect(Set(received.last?.deletedObjectIDs ?? []) == Set(announced.prefix(40).map(\.objectID)))
            #expect(context.insertedObjects.count == 25)

            try context.save()
            #expect(context.insertedObjects.isEmpty)
            let request = FetchRequest<TwitterUser>(entityName: "TwitterUser")
            #expect(try context.count(for: request) == 25)
        }
    }

    // MARK: Values in place

    @Test("a to-many changes where it lies; a slot of another type or not loaded is left alone")
    func toManyInPlace() throws {
        let context = try makeContainer(model).newBackgroundContext()
        try context.performAndWait {
            let joe = TwitterUser(context: context)
            let tweets = (0..<3).map { _ in Tweet(context: context) }
            let index = try #require(user.properties.first { $0.name == "tweets" }).index
            let nameIndex = try #require(user.properties.first { $0.name == "name" }).index
            joe.name = "Joe"
            for tweet in tweets {
                let changed = joe.modifyInPlace(at: index, as: OrderedSet<ManagedObject>.self) { $0.append(tweet) }
                #expect(changed)
            }
            #expect(joe.resolvedToMany(at: index).elements.map(ObjectIdentifier.init) == tweets.map(ObjectIdentifier.init))
            let removed = joe.modifyInPlace(at: index, as: OrderedSet<ManagedObject>.self) { $0.remove(at: 1) }
            #expect(removed)
            #expect(joe.resolvedToMany(at: index).count == 2)
            // Not an `OrderedSet` in that slot: nothing changes.
            let wrongType = joe.modifyInPlace(at: nameIndex, as: OrderedSet<ManagedObject>.self) { $0.removeAll() }
            #expect(!wrongType)
            #expect(joe.name == "Joe")
            let outOfRange = joe.modifyInPlace(at: 99, as: OrderedSet<ManagedObject>.self) { $0.removeAll() }
            #expect(!outOfRange)
            // The public path, through the inverse: a tweet's user puts it in the user's tweets.
            let fourth = Tweet(context: context)
            fourth.tweeter = joe
            #expect(joe.tweets.contains(fourth) && joe.tweets.count == 3)
        }
    }

    // MARK: Registry

    @Test("the registry finds IDs that do not pack into a word: large numbers, other models, many stores")
    func registryFallbacks() {
        var registry = ObjectRegistry()
        let small = ManagedObject(entity: user, insertInto: nil)
        small.objectID = .permanent(entity: user, storeIdentifier: "store-a", number: 7)
        let large = ManagedObject(entity: tweet, insertInto: nil)
        large.objectID = .permanent(entity: tweet, storeIdentifier: "store-a", number: 1 << 41)
        let otherModel = ManagedObjectModel(TwitterModel.model)
        let foreign = ManagedObject(entity: otherModel["TwitterUser"]!, insertInto: nil)
        foreign.objectID = .permanent(entity: otherModel["TwitterUser"]!, storeIdentifier: "store-a", number: 7)
        for object in [small, large, foreign] { registry[object.objectID] = object }

        #expect(registry[small.objectID] === small)
        #expect(registry[large.objectID] === large)
        #expect(registry[foreign.objectID] === foreign, "same number, same entity name, another model")
        #expect(registry[.permanent(entity: user, storeIdentifier: "store-b", number: 7)] == nil)
        #expect(registry[.permanent(entity: tweet, storeIdentifier: "store-a", number: 7)] == nil)

        // More stores than a packed ID can name.
        let many = (0..<300).map { index -> ManagedObject in
            let object = ManagedObject(entity: user, insertInto: nil)
            object.objectID = .permanent(entity: user, storeIdentifier: "store-\(index)", number: 1)
            registry[object.objectID] = object
            return object
        }
        for object in many { #expect(registry[object.objectID] === object) }
        #expect(registry.objects.count == 303)

        // Removal takes out an entry only for the object it names.
        registry.remove(large.objectID, ifItIs: small)
        #expect(registry[large.objectID] === large)
        for object in [small, large, foreign] + many { registry.remove(object.objectID, ifItIs: object) }
        #expect(registry.objects.isEmpty)
    }

    @Test("a number too large to pack does not spill into the next entity's IDs")
    func registryNumberBound() {
        // Tweet is the model's entity 0 and TwitterUser entity 1: tweet 2⁴⁰ + 7, packed without
        // the bound on numbers, would be the word of user 7 of the same store.
        #expect(tweet.indexInModel + 1 == user.indexInModel)
        var registry = ObjectRegistry()
        let seven = ManagedObject(entity: user, insertInto: nil)
        seven.objectID = .permanent(entity: user, storeIdentifier: "store-a", number: 7)
        let spilling = ManagedObject(entity: tweet, insertInto: nil)
        spilling.objectID = .permanent(entity: tweet, storeIdentifier: "store-a", number: (1 << 40) + 7)
        registry[seven.objectID] = seven
        registry[spilling.objectID] = spilling
        #expect(registry[seven.objectID] === seven)
        #expect(registry[spilling.objectID] === spilling)
    }

    @Test("released objects' entries go, the rest stay found; an entry taken again counts once")
    func registryReleases() {
        var registry = ObjectRegistry()
        let objects = (1...100).map { number -> ManagedObject in
            let object = ManagedObject(entity: user, insertInto: nil)
            object.objectID = .permanent(entity: user, storeIdentifier: "store", number: Int64(number))
            registry[object.objectID] = object
            return object
        }
        // Release every third, then every other of the rest, twice.
        var live = objects
        for step in [3, 2, 2] {
            let released = live.enumerated().filter { $0.offset % step == 0 }.map(\.element)
            for object in released { registry.remove(object.objectID, ifItIs: object) }
            live.removeAll { object in released.contains { $0 === object } }
            for object in released { #expect(registry[object.objectID] == nil) }
            for object in live { #expect(registry[object.objectID] === object) }
            #expect(registry.objects.count == live.count)
        }
        // An emptied entry takes its object again, and is not counted twice.
        let again = objects[0]
        registry[again.objectID] = again
        registry[again.objectID] = again
        #expect(registry[again.objectID] === again)
        #expect(registry.objects.count == live.count + 1)
        // Setting nil empties an entry as a removal does.
        registry[again.objectID] = nil
        #expect(registry[again.objectID] == nil)
        for object in live { registry.remove(object.objectID, ifItIs: object) }
        #expect(registry.objects.isEmpty)
    }

    @Test("the paged table answers as a dictionary does, through pages that fill, empty and are reused")
    func pagedTableAgainstDictionary() {
        let objects = (0..<4).map { _ in ManagedObject(entity: user, insertInto: nil) }
        // A few keys on each of several pages (pages of 32), in two entities' ranges, and keys
        // alone on their pages: pages empty often while others stay.
        let base: UInt64 = 1 << 40
        let keys: [UInt64] = [0, 1, 31, 32, 33, 63, 64, 95, 200, base, base + 1, base + 40, base + 41, 5_000, 1 << 39, (1 << 56) | 3]
        var random = SeededGenerator(seed: 10)
        var table = PagedObjectTable()
        var reference: [UInt64: PagedObjectTable.Entry] = [:]
        for step in 0..<20_000 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            let object = Unmanaged.passUnretained(objects[Int(random.next() % UInt64(objects.count))])
            switch random.next() % 10 {
            case 0..<4:
                table.set(object, at: key)
                reference[key] = object
            case 4..<7:
                table.remove(at: key)
                reference[key] = nil
            default:
                // Only when it holds that object.
                table.remove(at: key, ifItIs: object.toOpaque())
                if reference[key]?.toOpaque() == object.toOpaque() { reference[key] = nil }
            }
            #expect(table.count == reference.count)
            for key in keys where table[key]?.toOpaque() != reference[key]?.toOpaque() {
                Issue.record("key \(key) at step \(step): \(String(describing: table[key])), expected \(String(describing: reference[key]))")
            }
            #expect(table.entries.count == reference.count)
        }
        let first = Unmanaged.passUnretained(objects[0]).toOpaque()
        let kept = table.filter { $0.toOpaque() == first }
        for key in keys {
            #expect(kept[key]?.toOpaque() == reference[key].flatMap { $0.toOpaque() == first ? first : nil })
        }
        #expect(kept.count == reference.values.count { $0.toOpaque() == first })
    }

    @Test("objects moved to permanent IDs leave their temporary entries, the others stay")
    func registryMovesToPermanentIDs() {
        for movedCount in [2, 3] {
            var registry = ObjectRegistry()
            let objects = (0..<3).map { _ in ManagedObject(entity: user, insertInto: nil) }
            for object in objects { registry[object.objectID] = object }
            let temporaryIDs = objects.map(\.objectID)
            registry.reserveCapacity(forPermanentIDs: movedCount)
            for (number, object) in objects.prefix(movedCount).enumerated() {
                object.objectID = .permanent(entity: user, storeIdentifier: "store", number: Int64(number + 1))
                registry.moveToPermanentID(object, from: temporaryIDs[number])
                #expect(registry[temporaryIDs[number]] == nil, "a stale entry finds nothing")
            }
            registry.finishMovingToPermanentIDs()
            for (number, object) in objects.enumerated() {
                #expect(registry[object.objectID] === object)
                #expect(registry[temporaryIDs[number]] === (number < movedCount ? nil : object))
            }
            #expect(registry.objects.count == 3)
            for object in objects { registry.remove(object.objectID, ifItIs: object) }
            #expect(registry.objects.isEmpty)
        }
    }

    @Test("an object keeps being found as its temporary ID turns permanent", arguments: StoreKind.allCases)
    func registryAcrossSave(kind: StoreKind) throws {
        try withContext(model, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            let temporary = joe.objectID
            #expect(context.registeredObject(for: temporary) === joe)
            try context.save()
            #expect(!joe.objectID.isTemporaryID)
            #expect(context.registeredObject(for: joe.objectID) === joe)
            #expect(context.registeredObject(for: temporary) == nil)
        }
    }
}
