// The Enroute pattern of CS193p 2020 (seed 001): optional `_` attributes as Core Data keeps
// them, non-optional wrappers, Identifiable by ICAO code, Comparable, find-or-create with a
// predicate on the stored `_` name and a fetch request sorted by key.
import CoreData

public class Airport: NSManagedObject {}

extension Airport {
    public var icao_: String? {
        get { value(forKey: "icao_") as? String }
        set { setValue(newValue, forKey: "icao_") }
    }
    public var city_: String? {
        get { value(forKey: "city_") as? String }
        set { setValue(newValue, forKey: "city_") }
    }
    public var name: String? {
        get { value(forKey: "name") as? String }
        set { setValue(newValue, forKey: "name") }
    }
    public var location: String? {
        get { value(forKey: "location") as? String }
        set { setValue(newValue, forKey: "location") }
    }
    public var latitude: Double {
        get { value(forKey: "latitude") as? Double ?? 0 }
        set { setValue(newValue, forKey: "latitude") }
    }
    public var flightsFrom_: Set<NSManagedObject>? {
        get { value(forKey: "flightsFrom_") as? Set<NSManagedObject> }
        set { setValue(newValue, forKey: "flightsFrom_") }
    }
}

extension Airport: Comparable {
    static func withICAO(_ icao: String, context: NSManagedObjectContext) -> Airport {
        let request = fetchRequest(NSPredicate(format: "icao_ = %@", icao))
        let airports = (try? context.fetch(request)) ?? []
        if let airport = airports.first {
            return airport
        } else {
            let airport = Airport(context: context)
            airport.icao = icao
            return airport
        }
    }

    static func fetchRequest(_ predicate: NSPredicate) -> NSFetchRequest<Airport> {
        let request = NSFetchRequest<Airport>(entityName: "Airport")
        request.sortDescriptors = [NSSortDescriptor(key: "location", ascending: true)]
        request.predicate = predicate
        return request
    }

    var icao: String {
        get { icao_! } // TODO: maybe protect against when app ships?
        set { icao_ = newValue }
    }

    var city: String {
        get { city_ ?? "" }
        set { city_ = newValue }
    }

    var flightsFrom: Set<Flight> {
        get { (flightsFrom_ as? Set<Flight>) ?? [] }
        set { flightsFrom_ = newValue }
    }

    public var id: String { icao }

    public static func < (lhs: Airport, rhs: Airport) -> Bool {
        lhs.location ?? lhs.icao < rhs.location ?? rhs.icao
    }
}

public class Flight: NSManagedObject {}

extension Flight {
    public var ident_: String? {
        get { value(forKey: "ident_") as? String }
        set { setValue(newValue, forKey: "ident_") }
    }
    public var origin_: Airport? {
        get { value(forKey: "origin_") as? Airport }
        set { setValue(newValue, forKey: "origin_") }
    }

    var ident: String {
        get { ident_ ?? "Unknown" }
        set { ident_ = newValue }
    }
    var origin: Airport {
        get { origin_! }
        set { origin_ = newValue }
    }
}
