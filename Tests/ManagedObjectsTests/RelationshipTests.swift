import Foundation
import Testing
@testable import ManagedObjects

@Suite("Relationships and inverses")
struct RelationshipTests {
    @Test("tweet.tweeter = joe puts the tweet in joe.tweets", arguments: StoreKind.allCases)
    func toOneSetsInverse(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            let joe = TwitterUser(context: context)
            tweet.tweeter = joe
            #expect(joe.tweets == [tweet])
            #expect(tweet.tweeter === joe)
            tweet.tweeter = nil
            #expect(joe.tweets.isEmpty)
        }
    }

    @Test("joe.addToTweets(tweet) sets tweet.tweeter; removing clears it", arguments: StoreKind.allCases)
    func toManySetsInverse(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            let joe = TwitterUser(context: context)
            joe.addToTweets(tweet)
            #expect(tweet.tweeter === joe)
            joe.removeFromTweets(tweet)
            #expect(tweet.tweeter == nil)
            let more: Set<Tweet> = [Tweet(context: context), Tweet(context: context)]
            joe.addToTweets(more)
            #expect(more.allSatisfy { $0.tweeter === joe })
            joe.removeFromTweets(more)
            #expect(more.allSatisfy { $0.tweeter == nil } && joe.tweets.isEmpty)
        }
    }

    @Test("moving a tweet to another user takes it out of the first user's tweets", arguments: StoreKind.allCases)
    func moveBetweenOwners(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            let joe = TwitterUser(context: context)
            let ann = TwitterUser(context: context)
            tweet.tweeter = joe
            tweet.tweeter = ann
            #expect(joe.tweets.isEmpty)
            #expect(ann.tweets == [tweet])
            joe.addToTweets(tweet)
            #expect(ann.tweets.isEmpty && tweet.tweeter === joe)
        }
    }

    @Test("replacing a to-many set updates every inverse", arguments: StoreKind.allCases)
    func replaceSet(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            let (a, b, c) = (Tweet(context: context), Tweet(context: context), Tweet(context: context))
            joe.tweets = [a, b]
            #expect(a.tweeter === joe && b.tweeter === joe)
            joe.tweets = [b, c]
            #expect(a.tweeter == nil && b.tweeter === joe && c.tweeter === joe)
            joe.setValue([a], forKey: "tweets")
            #expect(joe.tweets == [a] && b.tweeter == nil && c.tweeter == nil)
        }
    }

    @Test("many-to-many: both sides follow", arguments: StoreKind.allCases)
    func manyToMany(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            let book = Book(context: context)
            let (ann, bob) = (Author(context: context), Author(context: context))
            book.authors = [ann, bob]
            #expect(ann.books == [book] && bob.books == [book])
            let sequel = Book(context: context)
            ann.addToBooks(sequel)
            #expect(sequel.authors == [ann])
            #expect(ann.books == [book, sequel])
            ann.removeFromBooks(book)
            #expect(book.authors == [bob] && ann.books == [sequel])
        }
    }

    @Test("one-to-one: assigning a taken destination steals it from its owner", arguments: StoreKind.allCases)
    func oneToOneSteal(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            let (ann, bob) = (Author(context: context), Author(context: context))
            let passport = Passport(context: context)
            ann.passport = passport
            #expect(passport.holder === ann)
            bob.passport = passport
            #expect(ann.passport == nil)
            #expect(passport.holder === bob)
            let other = Passport(context: context)
            other.holder = bob
            #expect(bob.passport === other && passport.holder == nil)
        }
    }

    @Test("ordered to-many: insert, replace, remove and move keep order and inverses", arguments: StoreKind.allCases)
    func orderedOperations(kind: StoreKind) throws {
        try withContext(DogWalkModel.managedObjectModel, kind: kind) { (context) throws in
            let dog = Dog(context: context)
            let walks = (0..<5).map { index -> Walk in
                let walk = Walk(context: context)
                walk.date = Date(timeIntervalSinceReferenceDate: Double(index))
                return walk
            }
            dog.addToWalks(walks[0])
            dog.addToWalks(walks[1])
            #expect(dog.walks.elements == [walks[0], walks[1]])
            #expect(walks[0].dog === dog)

            dog.insertIntoWalks(walks[2], at: 0)
            #expect(dog.walks.elements == [walks[2], walks[0], walks[1]])
            #expect(walks[2].dog === dog)

            dog.insertIntoWalks([walks[3], walks[4]], at: IndexSet([1, 4]))
            #expect(dog.walks.elements == [walks[2], walks[3], walks[0], walks[1], walks[4]])

            let replacement = Walk(context: context)
            dog.replaceWalks(at: 1, with: replacement)
            #expect(dog.walks.elements == [walks[2], replacement, walks[0], walks[1], walks[4]])
            #expect(walks[3].dog == nil && replacement.dog === dog)

            dog.removeFromWalks(at: 0)
            #expect(dog.walks.elements == [replacement, walks[0], walks[1], walks[4]])
            #expect(walks[2].dog == nil)

            dog.removeFromWalks(at: IndexSet([1, 3]))
            #expect(dog.walks.elements == [replacement, walks[1]])
            #expect(walks[0].dog == nil && walks[4].dog == nil)

            dog.replaceWalks(at: IndexSet([0, 1]), with: [walks[1], walks[0]])
            #expect(dog.walks.elements == [walks[1], walks[0]])
            #expect(replacement.dog == nil)

            dog.walks = OrderedSet([walks[0], walks[2], walks[1]])
            #expect(dog.walks.elements == [walks[0], walks[2], walks[1]])
            #expect(walks[2].dog === dog)

            // A walk moved to another dog leaves the first dog's list.
            let rex = Dog(context: context)
            walks[2].dog = rex
            #expect(dog.walks.elements == [walks[0], walks[1]])
            #expect(rex.walks.elements == [walks[2]])
        }
    }

    /// New objects' to-manys take objects appended through inverses later, in one go
    /// (`ManagedObject.State.loadedWithDeferredAppends`); what any read sees, and what a save
    /// stores, must be what appending at once gives. Random steps on new dogs and walks,
    /// compared after each with a plain model of the ordered to-many.
    @Test("a new object's to-many reads as if inverse appends happened at once, through announcements and a save")
    func deferredInverseAppendsAgainstModel() throws {
        let container = try makeContainer(DogWalkModel.managedObjectModel)
        let context = container.newBackgroundContext()
        var random = SeededGenerator(seed: 7)
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        let expected = try context.performAndWait {
            // Dogs with a name are loaded, so appends to them wait; the others are not yet.
            let dogs = (0..<4).map { index in
                let dog = Dog(context: context)
                if index % 2 == 0 { dog.name = "dog \(index)" }
                return dog
            }
            let walks = (0..<40).map { index in
                let walk = Walk(context: context)
                walk.date = Date(timeIntervalSinceReferenceDate: Double(index))
                return walk
            }
            var model = [[Walk]](repeating: [], count: dogs.count)
            func place(_ walk: Walk, with dog: Int?) {
                for index in model.indices { model[index].removeAll { $0 === walk } }
                if let dog { model[dog].append(walk) }
            }
            for step in 0..<3_000 {
                let walk = walks[pick(walks.count)]
                let dog = pick(dogs.count)
                switch pick(10) {
                case 0..<4:
                    // Through the inverse: the walk goes at the end of the dog's walks.
                    if walk.dog !== dogs[dog] { place(walk, with: dog) }
                    walk.dog = dogs[dog]
                case 4:
                    if walk.dog !== dogs[dog] { place(walk, with: dog) }
                    dogs[dog].addToWalks(walk)
                case 5:
                    walk.dog = nil
                    place(walk, with: nil)
                case 6:
                    dogs[dog].removeFromWalks(walk)
                    if model[dog].contains(where: { $0 === walk }) { place(walk, with: nil) }
                case 7:
                    dogs[dog].name = "dog \(dog) at \(step)"
                case 8 where step % 500 == 8:
                    // Announced: later changes are recorded, not deferred.
                    context.processPendingChanges()
                default:
                    #expect(dogs[dog].walks.elements == model[dog], "step \(step)")
                }
                if step % 97 == 0 {
                    for index in dogs.indices where dogs[index].walks.elements != model[index] {
                        Issue.record("dog \(index) at step \(step): \(dogs[index].walks.count) walks, expected \(model[index].count)")
                    }
                    for walk in walks {
                        let owner = model.firstIndex { $0.contains { $0 === walk } }
                        #expect(walk.dog === owner.map { dogs[$0] }, "step \(step)")
                    }
                }
            }
            try context.save()
            return (0..<dogs.count).map { index in model[index].map { $0.date!.timeIntervalSinceReferenceDate } }
        }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait {
            try reader.fetch(Dog.fetchRequest()).sorted { $0.objectID.storeNumber! < $1.objectID.storeNumber! }
                .map { dog in dog.walks.map { $0.date!.timeIntervalSinceReferenceDate } }
        }
        #expect(stored == expected)
    }

    @Test("ordered to-many keeps its order through a save and a fetch in another context", arguments: StoreKind.allCases)
    func orderedSurvivesSave(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(DogWalkModel.managedObjectModel, kind: kind, files: files)
        let context = container.newBackgroundContext()
        let dogID = try context.performAndWait {
            let dog = Dog(context: context)
            dog.name = "Fido"
            for index in [3, 1, 2] {
                let walk = Walk(context: context)
                walk.date = Date(timeIntervalSinceReferenceDate: Double(index))
                dog.insertIntoWalks(walk, at: 0)
            }
            try context.save()
            return dog.objectID
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let dog = try #require(try other.existingObject(with: dogID) as? Dog)
            #expect(dog.walks.map { $0.date?.timeIntervalSinceReferenceDate } == [2, 1, 3])
            #expect(dog.walks.allSatisfy { $0.dog === dog })
        }
    }

    @Test("relationships through the `_` names of the Enroute model", arguments: StoreKind.allCases)
    func enrouteInverses(kind: StoreKind) throws {
        try withContext(EnrouteModel.managedObjectModel, kind: kind) { (context) throws in
            let flight = Flight(context: context)
            flight.ident_ = "UA123"
            let sfo = try Airport.withICAO("KSFO", in: context)
            let jfk = try Airport.withICAO("KJFK", in: context)
            flight.origin_ = sfo
            flight.destination_ = jfk
            #expect(sfo.flightsFrom == [flight] && jfk.flightsTo == [flight])
            #expect(sfo.flightsTo.isEmpty)
            #expect(try Airport.withICAO("KSFO", in: context) === sfo)
            #expect(try Airport.count(in: context) == 2)
            flight.destination_ = sfo
            #expect(jfk.flightsTo.isEmpty && sfo.flightsTo == [flight])
        }
    }
}
