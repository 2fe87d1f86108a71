import Foundation
import ManagedObjects

/// A minimal object that answers by key, standing in for `ManagedObject` (which adopts
/// `KeyValueCoding` the same way). Equal only to itself.
package class PredicateTestRecord: KeyValueCoding, Hashable, CustomStringConvertible {
    package let label: String
    package var values: [String: Any]

    package init(_ label: String, _ values: [String: Any] = [:]) {
        self.label = label
        self.values = values
    }

    package func value(forKey key: String) -> Any? { values[key] }

    package static func == (lhs: PredicateTestRecord, rhs: PredicateTestRecord) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    package var description: String { label }
}

/// An object ID, as `ManagedObjectID` will be: it stands for itself.
package struct PredicateTestObjectID: ObjectIdentifying, Hashable {
    package let number: Int
    package init(number: Int) { self.number = number }
    package var objectIDValue: AnyHashable { self }
}

/// A stored object that knows its ID, as `ManagedObject` will.
package final class PredicateStoredTestRecord: PredicateTestRecord, ObjectIdentifying {
    package let objectID: PredicateTestObjectID

    package init(_ label: String, id: Int, _ values: [String: Any] = [:]) {
        objectID = PredicateTestObjectID(number: id)
        super.init(label, values)
    }

    package var objectIDValue: AnyHashable { objectID }
}

/// The seeds' object graphs, built from `PredicateTestRecord`s with the seeds' entity and key names.
package enum PredicateSeedGraphs {
    package static let yesterday = Date(timeIntervalSinceReferenceDate: 800_000_000)
    package static let lastWeek = Date(timeIntervalSinceReferenceDate: 799_400_000)
    package static let today = Date(timeIntervalSinceReferenceDate: 800_086_400)

    /// CS193p: TwitterUser (screenName, name, tweets) and Tweet (text, created, tweeter).
    package struct Twitter {
        package let joe = PredicateTestRecord("joe", ["screenName": "CS193p", "name": "Joe"])
        package let ann = PredicateTestRecord("ann", ["screenName": "annie", "name": "Ann"])
        package let joeTweets: [PredicateTestRecord]
        package let annTweet: PredicateTestRecord

        package init() {
            joeTweets = (0..<6).map { index in
                PredicateTestRecord("joe\(index)", [
                    "text": index == 0 ? "Lecture notes on Core Data" : "tweet number \(index)",
                    "created": index == 0 ? PredicateSeedGraphs.today : PredicateSeedGraphs.lastWeek,
                ])
            }
            annTweet = PredicateTestRecord("ann0", ["text": "Hello from Stanford", "created": PredicateSeedGraphs.lastWeek])
            for tweet in joeTweets { tweet.values["tweeter"] = joe }
            annTweet.values["tweeter"] = ann
            joe.values["tweets"] = Set(joeTweets)
            ann.values["tweets"] = Set([annTweet])
        }
    }

    /// Dog/Walk, with the ordered to-many `walks`.
    package struct DogWalk {
        package let fido = PredicateTestRecord("fido", ["name": "Fido"])
        package let rex = PredicateTestRecord("rex", ["name": "Rex", "walks": OrderedSet<PredicateTestRecord>()])

        package init() {
            let walks = [PredicateSeedGraphs.lastWeek, PredicateSeedGraphs.today].map { PredicateTestRecord("walk", ["date": $0]) }
            for walk in walks { walk.values["dog"] = fido }
            fido.values["walks"] = OrderedSet(walks)
        }
    }

    /// Flight/Airport/Airline, named with trailing underscores.
    package struct Flights {
        package let sfo = PredicateTestRecord("KSFO", ["icao_": "KSFO", "city_": "San Francisco", "name_": "San Francisco Intl"])
        package let lax = PredicateTestRecord("KLAX", ["icao_": "KLAX", "city_": "Los Angeles", "name_": "Los Angeles Intl"])
        package let united = PredicateTestRecord("UAL", ["code_": "UAL", "name_": "United"])
        package let flight: PredicateTestRecord

        package init() {
            flight = PredicateTestRecord("UA1", [
                "ident_": "UAL1", "origin_": lax, "destination_": sfo, "airline_": united,
                "inAir": true, "arrival_": PredicateSeedGraphs.today,
            ])
            sfo.values["flightsTo_"] = Set([flight])
            lax.values["flightsFrom_"] = Set([flight])
            united.values["flights_"] = Set([flight])
        }
    }
}
