import Foundation
import Testing
@testable import ManagedObjects

/// The seeds' own code, step by step, against classes of the generated shape.
@Suite("Seed scenarios")
struct SeedScenarioTests {
    @Test("CS193p: insert, relate, KVC, fetch sorted, delete with prepareForDeletion, background task")
    func cs193p() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let context = container.viewContext
        try await context.perform {
            let tweet = Tweet(context: context)
            tweet.text = "140 characters of pure joy"
            tweet.created = Date()
            let joe = TwitterUser(context: try #require(tweet.managedObjectContext))
            tweet.tweeter = joe  // is the same as joe.addToTweets(tweet)
            tweet.tweeter?.name = "Joe Schmo"
            #expect(joe.tweets.contains(tweet))
            #expect(tweet.value(forKeyPath: "tweeter.name") as? String == "Joe Schmo")
            joe.screenName = "joe"
            try context.save()
        }
        try await container.performBackgroundTask { context in
            let user = TwitterUser(context: context)
            user.screenName = "CS193p"
            let tweet = Tweet(context: context)
            tweet.text = "from the background"
            tweet.tweeter = user
            try context.save()
        }
        let (screenNames, recent) = try await context.perform {
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName", ascending: true,
                                                            comparison: .localizedStandard)]
            let users = try context.fetch(request)
            let tweets = Tweet.fetchRequest()
            tweets.predicate = ObjectPredicate("tweeter.screenName = %@", "CS193p")
            return (users.compactMap(\.screenName), try context.fetch(tweets).compactMap(\.text))
        }
        #expect(screenNames == ["CS193p", "joe"])
        #expect(recent == ["from the background"])
        try await context.perform {
            let joe = try #require(try context.fetch(TwitterUser.fetchRequest()).first { $0.screenName == "joe" })
            context.delete(joe)  // tweets cascade
            try context.save()
            #expect(try context.count(for: Tweet.fetchRequest()) == 1)
        }
    }

    @Test("DogWalk: find-or-create Fido with %K, add walks through the ordered set, delete one", arguments: StoreKind.allCases)
    func dogWalk(kind: StoreKind) throws {
        try withContext(DogWalkModel.managedObjectModel, kind: kind) { (context) throws in
            func currentDog() throws -> Dog {
                let dogFetch = Dog.fetchRequest()
                dogFetch.predicate = ObjectPredicate("%K == %@", Dog.Keys.name, "Fido")
                if let fido = try context.fetch(dogFetch).first { return fido }
                let fido = Dog(context: context)
                fido.name = "Fido"
                try context.save()
                return fido
            }
            let dog = try currentDog()
            #expect(try currentDog() === dog)
            for _ in 0..<3 {
                let walk = Walk(context: context)
                walk.date = Date()
                var walks = dog.walks  // the book's mutableCopy of the ordered set
                walks.append(walk)
                dog.walks = walks
                try context.save()
            }
            #expect(dog.walks.count == 3)
            let walkToRemove = dog.walks[1]
            context.delete(walkToRemove)
            try context.save()
            #expect(dog.walks.count == 2)
            #expect(try context.count(for: Walk.fetchRequest()) == 2)
        }
    }

    @Test("Enroute: import flights into related objects with find-or-insert, in an in-memory store", arguments: StoreKind.allCases)
    func enroute(kind: StoreKind) throws {
        struct FlightInfo: Decodable {
            var ident: String
            var origin: String
            var destination: String
            var airlineCode: String
            var arrival: Double
        }
        let json = """
            [{"ident": "UAL1", "origin": "KSFO", "destination": "KJFK", "airlineCode": "UAL", "arrival": 200},
             {"ident": "UAL2", "origin": "KJFK", "destination": "KSFO", "airlineCode": "UAL", "arrival": 100},
             {"ident": "BAW9", "origin": "EGLL", "destination": "KSFO", "airlineCode": "BAW", "arrival": 300},
             {"ident": "UAL1", "origin": "KSFO", "destination": "KJFK", "airlineCode": "UAL", "arrival": 250}]
            """
        let infos = try JSONDecoder().decode([FlightInfo].self, from: Data(json.utf8))
        try withContext(EnrouteModel.managedObjectModel, kind: kind) { (context) throws in
            for info in infos {
                let request = Flight.fetchRequest()
                request.predicate = ObjectPredicate("ident_ = %@", info.ident)
                let flight = try context.fetch(request).first ?? Flight(context: context)
                flight.ident = info.ident
                flight.origin = try Airport.withICAO(info.origin, in: context)
                flight.destination = try Airport.withICAO(info.destination, in: context)
                flight.airline_ = try Airline.withCode(info.airlineCode, in: context)
                flight.arrival_ = Date(timeIntervalSinceReferenceDate: info.arrival)
            }
            try context.save()

            #expect(try context.count(for: Flight.fetchRequest()) == 3)
            let sfo = try Airport.withICAO("KSFO", in: context)
            #expect(Set(sfo.flightsTo.map(\.ident)) == ["UAL2", "BAW9"])
            #expect(sfo.flightsFrom.map(\.ident) == ["UAL1"])
            #expect(try Airline.withCode("UAL", in: context).flights.count == 2)
            // Predicates and sorts use the stored `_` names.
            let arrivals = Flight.fetchRequest()
            arrivals.predicate = ObjectPredicate("destination_.icao_ = %@", "KSFO")
            arrivals.sortDescriptors = [ObjectSortDescriptor(key: Flight.Keys.arrival_)]
            #expect(try context.fetch(arrivals).map(\.ident) == ["UAL2", "BAW9"])
            #expect(try context.fetch(Flight.fetchRequest()).first { $0.ident == "UAL1" }?
                .arrival_ == Date(timeIntervalSinceReferenceDate: 250))
        }
    }
}
