// The seeds' scenarios run against the generated code in Generated/ (committed copies of the
// generator's output for the seed models; ManagedGenCoreTests' golden test keeps them exact).
import Foundation
import ManagedObjects
import Testing

/// A fresh in-memory stack per test, used on its context's queue.
func withContext<T>(_ model: ManagedObjectModel, _ body: (ManagedObjectContext) throws -> T) throws -> T {
    let container = PersistentContainer(name: "GeneratedSeeds", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
    try container.loadPersistentStores()
    let context = container.newBackgroundContext()
    return try context.performAndWait { try body(context) }
}

@Suite struct TweetsScenarios {
    @Test func insertingAndSettingEitherSideMaintainsTheInverse() throws {
        try withContext(TweetsModel.managedObjectModel) { context in
            let joe = TwitterUser(context: context)
            joe.name = "Joe Schmo"
            joe.screenName = "joe"
            let tweet = Tweet(context: context)
            tweet.text = "140 characters of pure joy"
            tweet.created = Date()
            tweet.tweeter = joe
            #expect(joe.tweets.contains(tweet))
            #expect(tweet.tweeter?.name == "Joe Schmo")

            let second = Tweet(context: context)
            second.text = "another"
            second.created = Date()
            joe.addToTweets(second)
            #expect(second.tweeter === joe)
            #expect(joe.tweets.count == 2)

            joe.removeFromTweets(tweet)
            #expect(tweet.tweeter == nil)
            #expect(joe.tweets == [second])
            try context.save()
        }
    }

    @Test func fetchCountFirstAndSort() throws {
        try withContext(TweetsModel.managedObjectModel) { context in
            let start = Date(timeIntervalSinceReferenceDate: 0)
            for index in 0..<5 {
                let tweet = Tweet(context: context)
                tweet.text = "tweet \(index)"
                tweet.created = start.addingTimeInterval(Double(index))
            }
            try context.save()
            let newestFirst = try Tweet.fetch(sortedBy: [ObjectSortDescriptor(key: Tweet.Keys.created, ascending: false)], in: context)
            #expect(newestFirst.map(\.text) == ["tweet 4", "tweet 3", "tweet 2", "tweet 1", "tweet 0"])
            #expect(try Tweet.count(in: context) == 5)
            let oldest = try Tweet.first(sortedBy: [ObjectSortDescriptor(key: Tweet.Keys.created, ascending: true)], in: context)
            #expect(oldest?.text == "tweet 0")
            let request = Tweet.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: Tweet.Keys.text, ascending: true)]
            #expect(try context.fetch(request).first?.text == "tweet 0")
        }
    }

    @Test func findOrInsertByUniqueReturnsTheSameObject() throws {
        try withContext(TweetsModel.managedObjectModel) { context in
            let first = try Tweet.withUnique("1234", in: context)
            first.text = "hello"
            first.created = Date()
            let again = try Tweet.withUnique("1234", in: context)
            #expect(first === again)
            #expect(again.unique == "1234")
            #expect(try Tweet.withUnique("5678", in: context) !== first)
            #expect(try Tweet.count(in: context) == 2)
        }
    }
}

@Suite struct DogWalkScenarios {
    func walk(_ seconds: Double, in context: ManagedObjectContext) -> Walk {
        let walk = Walk(context: context)
        walk.date = Date(timeIntervalSinceReferenceDate: seconds)
        return walk
    }

    @Test func orderedWalksKeepTheirOrderThroughInsertReplaceAndRemove() throws {
        try withContext(DogWalkModel.managedObjectModel) { context in
            let dog = try Dog.withName("Fido", in: context)
            let (a, b, c, d, e) = (walk(1, in: context), walk(2, in: context), walk(3, in: context), walk(4, in: context), walk(5, in: context))
            dog.addToWalks(a)
            dog.addToWalks(b)
            #expect(Array(dog.walks) == [a, b])
            #expect(a.dog === dog)

            dog.insertIntoWalks(c, at: 0)
            #expect(Array(dog.walks) == [c, a, b])
            dog.replaceWalks(at: 1, with: d)
            #expect(Array(dog.walks) == [c, d, b])
            #expect(a.dog == nil)
            #expect(d.dog === dog)
            dog.removeFromWalks(at: 0)
            #expect(Array(dog.walks) == [d, b])
            #expect(c.dog == nil)

            dog.insertIntoWalks([e, a], at: IndexSet([0, 2]))
            #expect(Array(dog.walks) == [e, d, a, b])
            dog.removeFromWalks(at: IndexSet([1, 3]))
            #expect(Array(dog.walks) == [e, a])
            dog.replaceWalks(at: IndexSet([0, 1]), with: [b, c])
            #expect(Array(dog.walks) == [b, c])
            dog.addToWalks(OrderedSet([d, e]))
            #expect(Array(dog.walks) == [b, c, d, e])
            dog.removeFromWalks(OrderedSet([b, d]))
            #expect(Array(dog.walks) == [c, e])

            e.dog = nil
            #expect(Array(dog.walks) == [c])
            try context.save()
            #expect(try Dog.withName("Fido", in: context) === dog)
        }
    }
}

@Suite struct FlightsScenarios {
    @Test func wrappersGiveNonOptionalValues() throws {
        try withContext(FlightsModel.managedObjectModel) { context in
            let flight = Flight(context: context)
            #expect(flight.ident == "")
            #expect(flight.status == "Unknown")
            flight.ident = "UAL412"
            #expect(flight.ident_ == "UAL412")
            flight.status_ = "En Route"
            #expect(flight.status == "En Route")

            let sfo = try Airport.withICAO("KSFO", in: context)
            let ord = try Airport.withICAO("KORD", in: context)
            flight.origin = sfo
            flight.destination_ = ord
            #expect(flight.origin.icao == "KSFO")
            #expect(flight.destination.icao == "KORD")
            #expect(sfo.flightsFrom == [flight])
            #expect(ord.flightsTo == [flight])
            #expect(sfo.flightsTo.isEmpty)

            let airline = try Airline.withCode("UAL", in: context)
            airline.name = "United Air Lines"
            flight.airline = airline
            #expect(airline.flights == [flight])
            #expect(airline.name_ == "United Air Lines")
        }
    }

    @Test func findOrInsertReturnsTheSameObjectTwice() throws {
        try withContext(FlightsModel.managedObjectModel) { context in
            let first = try Airport.withICAO("KSFO", in: context)
            first.city = "San Francisco"
            // The seed model requires these.
            first.countryCode = "US"
            first.location = "San Francisco, CA"
            first.name = "San Francisco Intl"
            first.state = "CA"
            first.timezone = "America/Los_Angeles"
            let second = try Airport.withICAO("KSFO", in: context)
            #expect(first === second)
            #expect(second.city == "San Francisco")
            try context.save()
            #expect(try Airport.withICAO("KSFO", in: context) === first)
            #expect(try Airport.count(in: context) == 1)
            let sorted = try Airport.fetch(sortedBy: [ObjectSortDescriptor(key: Airport.Keys.icao_, ascending: true)], in: context)
            #expect(sorted.map(\.icao) == ["KSFO"])
        }
    }
}

@Suite struct PredicateScenarios {
    @Test func predicatesUseTheStoredNamesThroughKeyConstants() throws {
        try withContext(FlightsModel.managedObjectModel) { context in
            let sfo = try Airport.withICAO("KSFO", in: context)
            let ord = try Airport.withICAO("KORD", in: context)
            for (ident, origin) in [("UAL412", sfo), ("AAL100", ord), ("UAL9", sfo)] {
                let flight = Flight(context: context)
                flight.ident = ident
                flight.origin = origin
            }
            let fromSFO = try Flight.fetch(
                ObjectPredicate("%K == %@", Flight.Keys.origin_, sfo),
                sortedBy: [ObjectSortDescriptor(key: Flight.Keys.ident_, ascending: true)], in: context)
            #expect(fromSFO.map(\.ident) == ["UAL412", "UAL9"])
            #expect(try Flight.count(ObjectPredicate("origin_.icao_ == %@", "KORD"), in: context) == 1)
            #expect(try Airport.first(ObjectPredicate("flightsFrom_.@count > 1"), in: context) === sfo)
        }
    }

    @Test func tweetsByTweeterAndDate() throws {
        try withContext(TweetsModel.managedObjectModel) { context in
            let joe = TwitterUser(context: context)
            joe.name = "Joe"
            joe.screenName = "joe"
            let start = Date(timeIntervalSinceReferenceDate: 1000)
            for index in 0..<3 {
                let tweet = Tweet(context: context)
                tweet.text = "tweet \(index)"
                tweet.created = start.addingTimeInterval(Double(index))
                tweet.tweeter = joe
            }
            let recent = try Tweet.fetch(ObjectPredicate("tweeter = %@ && created > %@", joe, start), in: context)
            #expect(recent.count == 2)
            #expect(try TwitterUser.count(ObjectPredicate("any tweets.created > %@", start), in: context) == 1)
            #expect(try Tweet.count(ObjectPredicate("text contains[c] %@", "TWEET 1"), in: context) == 1)
        }
    }
}

@Suite struct FetchRequestScenarios {
    @Test func templatesTakeTypedParameters() throws {
        try withContext(FetchRequestsModel.managedObjectModel) { context in
            let tolkien = Author(context: context)
            tolkien.name = "J. R. R. Tolkien"
            tolkien.born = Date(timeIntervalSinceReferenceDate: -3_500_000_000)
            for (title, year) in [("The Hobbit", 1937), ("The Silmarillion", 1977), ("Unfinished Tales", 1980)] {
                let book = Book(context: context)
                book.title = title
                book.year = Int16(year)
                book.author = tolkien
            }
            let request = FetchRequestsModel.booksByAuthorNameRequest(name: "j. r. r. tolkien", fromYear: 1970)
            #expect(request.fetchLimit == 20)
            let recent = try context.fetch(request)
            #expect(Set(recent.compactMap(\.title)) == ["The Silmarillion", "Unfinished Tales"])
            let all = try context.fetch(FetchRequestsModel.allBooksRequest())
            #expect(all.count == 3)
            let byDate = FetchRequestsModel.booksBornAfterRequest(date: Date(timeIntervalSinceReferenceDate: 0), needle: "Hobbit")
            let matching = try context.fetch(byDate)
            #expect(matching.map(\.title) == ["The Hobbit"])
        }
    }

    @Test func fetchedPropertiesFetchWithTheObjectAsFetchSource() throws {
        try withContext(FetchRequestsModel.managedObjectModel) { context in
            let author = Author(context: context)
            author.name = "Someone"
            let other = Author(context: context)
            for (year, owner) in [(1999, author), (2005, author), (2010, other)] {
                let book = Book(context: context)
                book.year = Int16(year)
                book.author = owner
            }
            #expect(author.recentBooks.map(\.year) == [2005])
            #expect(other.recentBooks.map(\.year) == [2010])
        }
    }
}
