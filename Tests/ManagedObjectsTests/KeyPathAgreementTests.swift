import Foundation
@testable import ManagedObjects
import Testing

/// One key path reader serves key-value coding, expressions, predicates and sort descriptors:
/// for every collection operator, `value(forKeyPath:)`, `ObjectExpression` evaluation, a
/// predicate comparing the key path with the value key-value coding gives, and (for the
/// aggregates) a sort by the key path agree.
@Suite("Key paths agree across KVC, expressions, predicates and sorts")
struct KeyPathAgreementTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var keyPath: String
        /// The airports' ICAO codes in ascending order by the key path (aggregates only).
        var ascending: [String]?
        var testDescription: String { keyPath }
    }

    /// On the Enroute model. Airports and their flights' (ident, filed airspeed):
    /// KSFO (B 300, A 500, C 400), KLAX (D 100, E 100), KJFK (none), KORD (F 700).
    static let airportRows: [Row] = [
        Row(keyPath: "flightsFrom_.@count", ascending: ["KJFK", "KORD", "KLAX", "KSFO"]),
        Row(keyPath: "flightsFrom_.@sum.filedAirspeed_", ascending: ["KJFK", "KLAX", "KORD", "KSFO"]),
        Row(keyPath: "flightsFrom_.@sum.origin_.latitude", ascending: ["KJFK", "KORD", "KLAX", "KSFO"]),
        Row(keyPath: "flightsFrom_.@avg.filedAirspeed_", ascending: ["KJFK", "KLAX", "KSFO", "KORD"]),
        Row(keyPath: "flightsFrom_.@min.filedAirspeed_", ascending: ["KJFK", "KLAX", "KSFO", "KORD"]),
        Row(keyPath: "flightsFrom_.@max.filedAirspeed_", ascending: ["KJFK", "KLAX", "KSFO", "KORD"]),
        Row(keyPath: "flightsFrom_.@min.ident_", ascending: ["KJFK", "KSFO", "KLAX", "KORD"]),
        Row(keyPath: "flightsFrom_.@max.ident_", ascending: ["KJFK", "KSFO", "KLAX", "KORD"]),
        Row(keyPath: "flightsFrom_.filedAirspeed_.@sum", ascending: ["KJFK", "KLAX", "KORD", "KSFO"]),
        Row(keyPath: "flightsFrom_.@unionOfObjects.filedAirspeed_"),
        Row(keyPath: "flightsFrom_.@distinctUnionOfObjects.filedAirspeed_"),
        Row(keyPath: "flightsFrom_.@unionOfObjects.ident_"),
        Row(keyPath: "flightsFrom_.filedAirspeed_"),
    ]

    /// On the Library model: one library whose books' authors overlap (b1: a1, a2; b2: a2).
    static let libraryRows: [String] = [
        "books.@count", "books.@unionOfObjects.authors", "books.@unionOfArrays.authors",
        "books.@distinctUnionOfArrays.authors", "books.@distinctUnionOfSets.authors",
        "books.authors", "books.authors.@count",
    ]

    /// A value's type and contents, collections in a fixed order (a set has none).
    static func canonical(_ value: Any?) -> String {
        guard let value else { return "nil" }
        if !(value is String), let elements = PredicateValues.elements(value) {
            return "[" + elements.map(canonical).sorted().joined(separator: ", ") + "]"
        }
        return "\(type(of: value))(\(value))"
    }

    /// Checks `keyPath` on `object`: expression and KVC give the same value; a predicate
    /// comparing the path with that value holds (for a collection: holds for each member).
    static func checkAgreement(_ object: ManagedObject, _ keyPath: String) throws {
        let byKeyValueCoding = object.value(forKeyPath: keyPath)
        let byExpression = try ObjectExpression(parsing: keyPath).value(with: object)
        // Key-value coding gives numbers as `NSNumber`, as Core Data does; expressions Swift values.
        #expect(canonical(ManagedObject.keyValueCodingValue(byExpression)) == canonical(byKeyValueCoding),
                "\(keyPath) on \(object)")
        if let members = PredicateValues.elements(byKeyValueCoding), !(byKeyValueCoding is String) {
            for member in members {
                #expect(ObjectPredicate("%@ IN %K", member, keyPath).evaluate(with: object), "\(keyPath) on \(object)")
            }
        } else {
            #expect(ObjectPredicate("%K == %@", keyPath, byKeyValueCoding).evaluate(with: object), "\(keyPath) on \(object)")
            #expect(!ObjectPredicate("%K != %@", keyPath, byKeyValueCoding).evaluate(with: object), "\(keyPath) on \(object)")
        }
    }

    @Test(arguments: airportRows)
    func airports(_ row: Row) throws {
        try withContext(EnrouteModel.managedObjectModel) { (context) throws in
            let flights: [(String, Double, [(String, Int16)])] = [
                ("KSFO", 37.5, [("B", 300), ("A", 500), ("C", 400)]),
                ("KLAX", 33.5, [("D", 100), ("E", 100)]),
                ("KJFK", 40.5, []),
                ("KORD", 41.5, [("F", 700)]),
            ]
            var airports: [Airport] = []
            for (icao, latitude, departures) in flights {
                let airport = try Airport.withICAO(icao, in: context)
                airport.latitude = latitude
                for (ident, speed) in departures {
                    let flight = Flight(context: context)
                    flight.ident_ = ident
                    flight.filedAirspeed_ = speed
                    flight.origin_ = airport
                }
                airports.append(airport)
            }
            for airport in airports { try Self.checkAgreement(airport, row.keyPath) }
            guard let ascending = row.ascending else { return }
            let descriptor = ObjectSortDescriptor(key: row.keyPath)
            #expect([descriptor].sorted(airports).map(\.icao_) == ascending)
            #expect([descriptor.reversed].sorted(airports).map(\.icao_) == ascending.reversed())
            let request = Airport.fetchRequest()
            request.sortDescriptors = [descriptor]
            #expect(try context.fetch(request).map(\.icao_) == ascending)
            // The public pairwise comparison agrees with the sort.
            let byCode = Dictionary(uniqueKeysWithValues: airports.map { ($0.icao_!, $0) })
            for (lower, higher) in zip(ascending, ascending.dropFirst()) {
                #expect(descriptor.compare(byCode[lower], byCode[higher]) == .orderedAscending, "\(lower) < \(higher)")
            }
        }
    }

    @Test(arguments: libraryRows)
    func library(_ keyPath: String) throws {
        try withContext(LibraryModel.managedObjectModel) { (context) throws in
            let library = Library(context: context)
            let (a1, a2) = (Author(context: context), Author(context: context))
            a1.setValue("Ann", forKey: "name")
            a2.setValue("Bob", forKey: "name")
            for authors in [[a1, a2], [a2]] {
                let book = Book(context: context)
                book.setValue(Set(authors), forKey: "authors")
                book.setValue(library, forKey: "library")
            }
            try Self.checkAgreement(library, keyPath)
        }
    }

    @Test("the results' types and values, as documented in Docs/RuntimeDifferences.md", arguments: StoreKind.allCases)
    func operatorResults(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            let library = Library(context: context)
            let (a1, a2) = (Author(context: context), Author(context: context))
            for authors in [[a1, a2], [a2]] {
                let book = Book(context: context)
                book.setValue(Set(authors), forKey: "authors")
                book.setValue(library, forKey: "library")
            }
            #expect((library.value(forKeyPath: "books.@unionOfArrays.authors") as? [Any])?.count == 3)
            #expect((library.value(forKeyPath: "books.@distinctUnionOfArrays.authors") as? [Any])?.count == 2)
            #expect((library.value(forKeyPath: "books.@distinctUnionOfSets.authors") as? [Any])?.count == 2)
            // Through a set each author counts once, as `NSSet.value(forKey:)` gives a set.
            #expect((library.value(forKeyPath: "books.authors") as? [Any])?.count == 2)
            #expect(library.value(forKeyPath: "books.authors.@count") as? Int == 2)
        }
        try withContext(EnrouteModel.managedObjectModel, kind: kind) { (context) throws in
            let airport = try Airport.withICAO("KLAX", in: context)
            airport.latitude = 33.5
            for speed: Int16 in [100, 100, 250] {
                let flight = Flight(context: context)
                flight.filedAirspeed_ = speed
                flight.origin_ = airport
            }
            #expect(airport.value(forKeyPath: "flightsFrom_.@sum.filedAirspeed_") as? Int == 450)
            #expect(airport.value(forKeyPath: "flightsFrom_.@avg.filedAirspeed_") as? Double == 150)
            #expect(airport.value(forKeyPath: "flightsFrom_.@sum.origin_.latitude") as? Double == 100.5)
            #expect(airport.value(forKeyPath: "flightsFrom_.@max.filedAirspeed_") as? Int16 == 250)
            #expect((airport.value(forKeyPath: "flightsFrom_.@unionOfObjects.filedAirspeed_") as? [Any])?.count == 3)
            #expect((airport.value(forKeyPath: "flightsFrom_.@distinctUnionOfObjects.filedAirspeed_") as? [Any])?.count == 2)
            // Values through a set count once: the distinct speeds' sum.
            #expect(airport.value(forKeyPath: "flightsFrom_.filedAirspeed_.@sum") as? Int == 350)
            let empty = try Airport.withICAO("KJFK", in: context)
            #expect(empty.value(forKeyPath: "flightsFrom_.@sum.filedAirspeed_") as? Int == 0)
            #expect(empty.value(forKeyPath: "flightsFrom_.@avg.filedAirspeed_") == nil)
        }
    }
}
