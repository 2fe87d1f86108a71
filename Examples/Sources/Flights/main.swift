// The Enroute article's model: Airport, Airline and Flight with `_`-suffixed attributes and
// non-optional wrappers. A small FlightAware-like JSON sample is imported through the
// generated find-or-insert helpers (importing the same flight twice updates it), then queried
// by airport and airline. Predicates name the stored `_` attributes, as the article insists.
import Foundation
import ManagedObjects

struct Sample: Decodable {
    struct AirportInfo: Decodable {
        var icao, name, city, state, countryCode, timezone: String
        var latitude, longitude: Double
    }
    struct AirlineInfo: Decodable { var code, name, shortname: String }
    struct FlightInfo: Decodable {
        var ident, airline, origin, destination, aircraftType: String
        var filedAirspeed: Int16
        var scheduledOff, scheduledOn: Date
        var status: String?
    }
    var airports: [AirportInfo]
    var airlines: [AirlineInfo]
    var flights: [FlightInfo]
}

guard let sampleURL = Bundle.module.url(forResource: "flights", withExtension: "json") else {
    fatalError("flights.json is missing from the example's resources")
}
let decoder = JSONDecoder()
decoder.dateDecodingStrategy = .iso8601
let sample = try decoder.decode(Sample.self, from: Data(contentsOf: sampleURL))

let container = PersistentContainer(name: "Flights", managedObjectModel: FlightsModel.managedObjectModel)
// In memory: the example inserts the same objects on every run.
container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
try container.loadPersistentStores()
let context = container.viewContext

// Import: find-or-insert by each unique code, then fill in through the non-optional wrappers.
for info in sample.airports {
    let airport = try Airport.withICAO(info.icao, in: context)
    airport.name = info.name
    airport.city = info.city
    airport.state = info.state
    airport.countryCode = info.countryCode
    airport.timezone = info.timezone
    airport.latitude = info.latitude
    airport.longitude = info.longitude
}
for info in sample.airlines {
    let airline = try Airline.withCode(info.code, in: context)
    airline.name = info.name
    airline.shortname = info.shortname
}
for info in sample.flights {
    let flight = try Flight.withIdent(info.ident, in: context)
    flight.airline = try Airline.withCode(info.airline, in: context)
    flight.origin = try Airport.withICAO(info.origin, in: context)
    flight.destination = try Airport.withICAO(info.destination, in: context)
    flight.aircraftType = info.aircraftType
    flight.filedAirspeed = info.filedAirspeed
    flight.scheduledOff = info.scheduledOff
    flight.scheduledOn = info.scheduledOn
    if let status = info.status { flight.status = status }
}
try context.save()
print("Imported \(try Airport.count(in: context)) airports, \(try Airline.count(in: context)) airlines, \(try Flight.count(in: context)) flights (ASA1 came twice)")

let sfo = try Airport.withICAO("KSFO", in: context)
print("withICAO(\"KSFO\") twice gives the same airport: \(sfo === (try Airport.withICAO("KSFO", in: context)))")

let time = DateFormatter()
time.dateFormat = "HH:mm"
time.timeZone = TimeZone(identifier: "UTC")
func describe(_ flight: Flight) -> String {
    "\(flight.ident) \(flight.origin.icao)→\(flight.destination.icao) off \(time.string(from: flight.scheduledOff)) (\(flight.airline.shortname), \(flight.status))"
}

// Arrivals at SFO, by scheduled landing: the predicate names the stored key `destination_`.
let arrivals = try Flight.fetch(
    ObjectPredicate("%K = %@", Flight.Keys.destination_, sfo),
    sortedBy: [ObjectSortDescriptor(key: Flight.Keys.scheduledOn_)],
    in: context
)
print("Arriving at \(sfo.icao) (\(sfo.city)):")
arrivals.forEach { print("  \(describe($0))") }

// United's flights, by departure; and airports with departures, sorted by name.
let united = try Flight.fetch(
    ObjectPredicate("airline_.code_ = %@", "UAL"),
    sortedBy: [ObjectSortDescriptor(key: Flight.Keys.scheduledOff_)],
    in: context
)
print("United flights:")
united.forEach { print("  \(describe($0))") }

let departing = try Airport.fetch(
    ObjectPredicate("flightsFrom_.@count > 0"),
    sortedBy: [ObjectSortDescriptor(key: Airport.Keys.name)],
    in: context
)
print("Airports with departures: \(departing.map { "\($0.icao) (\($0.flightsFrom.count))" }.joined(separator: ", "))")

// The wrapper's model default for a flight without a status.
print("UAL1234 status (no status in the sample): \(try Flight.withIdent("UAL1234", in: context).status)")
