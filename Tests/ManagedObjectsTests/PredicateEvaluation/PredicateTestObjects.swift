import Foundation
import ManagedObjects

/// A minimal object that answers by key, standing in for `ManagedObject` (which adopts
/// `KeyValueCoding` the same way). Equal only to itself.
class PredicateTestRecord: KeyValueCoding, Hashable, CustomStringConvertible {
    let label: String
    var values: [String: Any]

    init(_ label: String, _ values: [String: Any] = [:]) {
        self.label = label
        self.values = values
    }

    func value(forKey key: String) -> Any? { values[key] }

    static func == (lhs: PredicateTestRecord, rhs: PredicateTestRecord) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    var description: String { label }
}

/// An object ID, as `ManagedObjectID` will be: it stands for itself.
struct PredicateTestObjectID: ObjectIdentifying, Hashable {
    let number: Int
    var objectIDValue: AnyHashable { self }
}

/// A stored object that knows its ID, as `ManagedObject` will.
final class PredicateStoredTestRecord: PredicateTestRecord, ObjectIdentifying {
    let objectID: PredicateTestObjectID

    init(_ label: String, id: Int, _ values: [String: Any] = [:]) {
        objectID = PredicateTestObjectID(number: id)
        super.init(label, values)
    }

    var objectIDValue: AnyHashable { objectID }
}

/// The seeds' object graphs, built from `PredicateTestRecord`s with the seeds' entity and key names.
enum PredicateSeedGraphs {
    static let yesterday = Date(timeIntervalSinceReferenceDate: 800_000_000)
    static let lastWeek = Date(timeIntervalSinceReferenceDate: 799_400_000)
    static let today = Date(timeIntervalSinceReferenceDate: 800_086_400)

    /// CS193p: TwitterUser (screenName, name, tweets) and Tweet (text, created, tweeter).
    struct Twitter {
        let joe = PredicateTestRecord("joe", ["screenName": "CS193p", "name": "Joe"])
        let ann = PredicateTestRecord("ann", ["screenName": "annie", "name": "Ann"])
        let joeTweets: [PredicateTestRecord]
        let annTweet: PredicateTestRecord

        init() {
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
    struct DogWalk {
        let fido = PredicateTestRecord("fido", ["name": "Fido"])
        let rex = PredicateTestRecord("rex", ["name": "Rex", "walks": OrderedSet<PredicateTestRecord>()])

        init() {
            let walks = [PredicateSeedGraphs.lastWeek, PredicateSeedGraphs.today].map { PredicateTestRecord("walk", ["date": $0]) }
            for walk in walks { walk.values["dog"] = fido }
            fido.values["walks"] = OrderedSet(walks)
        }
    }

    /// Flight/Airport/Airline, named with trailing underscores.
    struct Flights {
        let sfo = PredicateTestRecord("KSFO", ["icao_": "KSFO", "city_": "San Francisco", "name_": "San Francisco Intl"])
        let lax = PredicateTestRecord("KLAX", ["icao_": "KLAX", "city_": "Los Angeles", "name_": "Los Angeles Intl"])
        let united = PredicateTestRecord("UAL", ["code_": "UAL", "name_": "United"])
        let flight: PredicateTestRecord

        init() {
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
