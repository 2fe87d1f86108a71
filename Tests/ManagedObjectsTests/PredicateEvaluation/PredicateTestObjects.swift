import Foundation
import ManagedObjects

/// A minimal object that answers by key, standing in for `ManagedObject` (which adopts
/// `KeyValueCoding` the same way). Equal only to itself.
class TestRecord: KeyValueCoding, Hashable, CustomStringConvertible {
    let label: String
    var values: [String: Any]

    init(_ label: String, _ values: [String: Any] = [:]) {
        self.label = label
        self.values = values
    }

    func value(forKey key: String) -> Any? { values[key] }

    static func == (lhs: TestRecord, rhs: TestRecord) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    var description: String { label }
}

/// An object ID, as `ManagedObjectID` will be: it stands for itself.
struct TestObjectID: ObjectIdentifying, Hashable {
    let number: Int
    var objectIDValue: AnyHashable { self }
}

/// A stored object that knows its ID, as `ManagedObject` will.
final class StoredTestRecord: TestRecord, ObjectIdentifying {
    let objectID: TestObjectID

    init(_ label: String, id: Int, _ values: [String: Any] = [:]) {
        objectID = TestObjectID(number: id)
        super.init(label, values)
    }

    var objectIDValue: AnyHashable { objectID }
}

/// The seeds' object graphs, built from `TestRecord`s with the seeds' entity and key names.
enum SeedGraphs {
    static let yesterday = Date(timeIntervalSinceReferenceDate: 800_000_000)
    static let lastWeek = Date(timeIntervalSinceReferenceDate: 799_400_000)
    static let today = Date(timeIntervalSinceReferenceDate: 800_086_400)

    /// CS193p: TwitterUser (screenName, name, tweets) and Tweet (text, created, tweeter).
    struct Twitter {
        let joe = TestRecord("joe", ["screenName": "CS193p", "name": "Joe"])
        let ann = TestRecord("ann", ["screenName": "annie", "name": "Ann"])
        let joeTweets: [TestRecord]
        let annTweet: TestRecord

        init() {
            joeTweets = (0..<6).map { index in
                TestRecord("joe\(index)", [
                    "text": index == 0 ? "Lecture notes on Core Data" : "tweet number \(index)",
                    "created": index == 0 ? SeedGraphs.today : SeedGraphs.lastWeek,
                ])
            }
            annTweet = TestRecord("ann0", ["text": "Hello from Stanford", "created": SeedGraphs.lastWeek])
            for tweet in joeTweets { tweet.values["tweeter"] = joe }
            annTweet.values["tweeter"] = ann
            joe.values["tweets"] = Set(joeTweets)
            ann.values["tweets"] = Set([annTweet])
        }
    }

    /// Dog/Walk, with the ordered to-many `walks`.
    struct DogWalk {
        let fido = TestRecord("fido", ["name": "Fido"])
        let rex = TestRecord("rex", ["name": "Rex", "walks": OrderedSet<TestRecord>()])

        init() {
            let walks = [SeedGraphs.lastWeek, SeedGraphs.today].map { TestRecord("walk", ["date": $0]) }
            for walk in walks { walk.values["dog"] = fido }
            fido.values["walks"] = OrderedSet(walks)
        }
    }

    /// Flight/Airport/Airline, named with trailing underscores.
    struct Flights {
        let sfo = TestRecord("KSFO", ["icao_": "KSFO", "city_": "San Francisco", "name_": "San Francisco Intl"])
        let lax = TestRecord("KLAX", ["icao_": "KLAX", "city_": "Los Angeles", "name_": "Los Angeles Intl"])
        let united = TestRecord("UAL", ["code_": "UAL", "name_": "United"])
        let flight: TestRecord

        init() {
            flight = TestRecord("UA1", [
                "ident_": "UAL1", "origin_": lax, "destination_": sfo, "airline_": united,
                "inAir": true, "arrival_": SeedGraphs.today,
            ])
            sfo.values["flightsTo_"] = Set([flight])
            lax.values["flightsFrom_"] = Set([flight])
            united.values["flights_"] = Set([flight])
        }
    }
}
