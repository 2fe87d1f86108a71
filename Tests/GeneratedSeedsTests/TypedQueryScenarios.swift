// Typed queries (`#Predicate`, `SortDescriptor`) on the classes the build plugin generates for the
// seed models: each returns what its format-string twin returns, in memory and on SQLite.
import Foundation
import ManagedObjects
import Testing

enum SeedStore: CaseIterable, Sendable {
    case inMemory, sqlite
}

/// `withContext` on a fresh store of `kind` (an SQLite file in a temporary directory, removed after).
func withContext<T>(_ model: ManagedObjectModel, on kind: SeedStore, _ body: (ManagedObjectContext) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typed-seeds-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let container = PersistentContainer(name: "TypedSeeds", managedObjectModel: model)
    container.persistentStoreDescriptions = switch kind {
    case .inMemory: [PersistentStoreDescription(type: .inMemory)]
    case .sqlite: [PersistentStoreDescription(url: directory.appendingPathComponent("TypedSeeds.sqlite"))]
    }
    try container.loadPersistentStores()
    let context = container.newBackgroundContext()
    return try context.performAndWait { try body(context) }
}

/// Gives each mandatory attribute still without a value one (the seed models require most), so
/// the objects save.
func fillMandatoryAttributes(of objects: [ManagedObject]) {
    for object in objects {
        for attribute in object.entity.attributes where !attribute.isOptional && object.value(forKey: attribute.name) == nil {
            switch attribute.type {
            case .string: object.setValue("-", forKey: attribute.name)
            case .date: object.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: attribute.name)
            default: object.setValue(0, forKey: attribute.name)
            }
        }
    }
}

@Suite struct TypedQueryScenarios {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test(arguments: SeedStore.allCases)
    func tweetsTypedBesideFormatStrings(on kind: SeedStore) throws {
        try withContext(TweetsModel.managedObjectModel, on: kind) { context in
            let start = Date(timeIntervalSinceReferenceDate: 780_000_000)
            let joe = TwitterUser(context: context)
            joe.name = "Joe"
            joe.screenName = "joe"
            let cs193p = TwitterUser(context: context)
            cs193p.name = "Stanford CS193p"
            cs193p.screenName = "CS193p"
            for (index, (text, user)) in [("Swift is fun", cs193p), ("Lecture 10", cs193p), ("swift again", joe), ("lunch", joe), ("more swift", cs193p)].enumerated() {
                let tweet = Tweet(context: context)
                tweet.text = text
                tweet.created = start.addingTimeInterval(Double(index) * 3600)
                tweet.tweeter = user
            }
            try context.save()

            let since = start.addingTimeInterval(1800)
            let typed = try Tweet.fetch(
                where: #Predicate { ($0.text?.contains("swift") ?? false) && ($0.created ?? since) > since },
                sortedBy: [SortDescriptor(\.created, order: .reverse)], in: context)
            let formatted = try Tweet.fetch(
                ObjectPredicate("text CONTAINS %@ AND created > %@", "swift", since),
                sortedBy: [ObjectSortDescriptor(key: Tweet.Keys.created, ascending: false)], in: context)
            #expect(typed.compactMap(\.text) == ["more swift", "swift again"])
            #expect(formatted == typed)

            let busy = try TwitterUser.fetch(where: #Predicate { $0.tweets.count > 2 }, in: context)
            #expect(busy == [cs193p])
            #expect(try TwitterUser.fetch(ObjectPredicate("tweets.@count > 2"), in: context) == busy)
            let lecturers = try TwitterUser.fetch(
                where: #Predicate { $0.tweets.contains { $0.text?.starts(with: "Lecture") ?? false } }, in: context)
            #expect(lecturers == [cs193p])
            let byScreenName = try Tweet.count(where: #Predicate { $0.tweeter?.screenName == "joe" }, in: context)
            #expect(byScreenName == 2)
            #expect(try Tweet.count(ObjectPredicate("tweeter.screenName == %@", "joe"), in: context) == 2)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test(arguments: SeedStore.allCases)
    func flightsQueryThroughWrappers(on kind: SeedStore) throws {
        try withContext(FlightsModel.managedObjectModel, on: kind) { context in
            let sfo = try Airport.withICAO("KSFO", in: context)
            let ord = try Airport.withICAO("KORD", in: context)
            let united = try Airline.withCode("UAL", in: context)
            for (ident, origin, destination) in [("UAL412", sfo, ord), ("UAL9", ord, sfo), ("UAL300", sfo, sfo)] {
                let flight = Flight(context: context)
                flight.ident = ident
                flight.origin = origin
                flight.destination = destination
                flight.airline = united
                flight.scheduledOff = Date(timeIntervalSinceReferenceDate: 0)
                flight.scheduledOn = Date(timeIntervalSinceReferenceDate: 3600)
            }
            fillMandatoryAttributes(of: Array(context.insertedObjects))
            try context.save()
            // `origin` and `icao` wrap `origin_` and `icao_`: the store reads the stored names.
            let fromSFO = try Flight.fetch(
                where: #Predicate { $0.origin.icao == "KSFO" }, sortedBy: [SortDescriptor(\.ident)], in: context)
            #expect(fromSFO.map(\.ident) == ["UAL300", "UAL412"])
            #expect(try Flight.fetch(ObjectPredicate("origin_.icao_ == %@", "KSFO"), sortedBy: [ObjectSortDescriptor(key: "ident_")], in: context) == fromSFO)
            let roundTrips = try Flight.first(where: #Predicate { $0.origin == $0.destination }, in: context)
            #expect(roundTrips?.ident == "UAL300")
            let busiest = try Airport.fetch(where: #Predicate { $0.flightsFrom.count >= 2 }, in: context)
            #expect(busiest == [sfo])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func templateNarrowedByATypedPredicate() throws {
        try withContext(FetchRequestsModel.managedObjectModel) { (context) throws in
            let tolkien = Author(context: context)
            tolkien.name = "J. R. R. Tolkien"
            for (title, year) in [("The Hobbit", 1937), ("The Silmarillion", 1977), ("Unfinished Tales", 1980)] {
                let book = Book(context: context)
                book.title = title
                book.year = Int16(year)
                book.author = tolkien
            }
            let request = FetchRequestsModel.booksByAuthorNameRequest(name: "j. r. r. tolkien", fromYear: 1970)
            request.filter(#Predicate { $0.title?.starts(with: "The") ?? false })
            request.sort(by: [SortDescriptor(\.year, order: .reverse)])
            #expect(try context.fetch(request).map(\.title) == ["The Silmarillion"])
        }
    }
}
