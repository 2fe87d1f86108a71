// Hand-written in the exact shape ManagedGen generates (Docs/GeneratedCode.md) for the
// Flight/Airport/Airline model (seed 001): `_`-suffixed stored names, non-optional wrappers,
// fetch helpers and find-or-insert by uniqueness constraint.
import DataModel
import Foundation
import ManagedObjects

public enum EnrouteModel {
    public static let model = Model(entities: [
        Entity(name: "Airline", representedClassName: "Airline", codeGeneration: .class, attributes: [
            Attribute(name: "code_", type: .string, isOptional: true),
            Attribute(name: "name_", type: .string, isOptional: true),
            Attribute(name: "shortname_", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "flights_", destinationEntity: "Flight", inverseName: "airline_",
                         inverseEntity: "Flight", isToMany: true, isOptional: true),
        ], uniquenessConstraints: [["code_"]]),
        Entity(name: "Airport", representedClassName: "Airport", codeGeneration: .class, attributes: [
            Attribute(name: "city_", type: .string, isOptional: true),
            Attribute(name: "icao_", type: .string, isOptional: true),
            Attribute(name: "latitude", type: .double, isOptional: true, usesScalarValueType: true,
                      defaultValueString: "0.0"),
            Attribute(name: "name_", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "flightsFrom_", destinationEntity: "Flight", inverseName: "origin_",
                         inverseEntity: "Flight", isToMany: true, isOptional: true),
            Relationship(name: "flightsTo_", destinationEntity: "Flight", inverseName: "destination_",
                         inverseEntity: "Flight", isToMany: true, isOptional: true),
        ], uniquenessConstraints: [["icao_"]]),
        Entity(name: "Flight", representedClassName: "Flight", codeGeneration: .class, attributes: [
            Attribute(name: "arrival_", type: .date, isOptional: true),
            Attribute(name: "filedAirspeed_", type: .integer16, isOptional: true, usesScalarValueType: true,
                      defaultValueString: "0"),
            Attribute(name: "ident_", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "airline_", destinationEntity: "Airline", inverseName: "flights_",
                         inverseEntity: "Airline", isOptional: true),
            Relationship(name: "destination_", destinationEntity: "Airport", inverseName: "flightsTo_",
                         inverseEntity: "Airport", isOptional: true),
            Relationship(name: "origin_", destinationEntity: "Airport", inverseName: "flightsFrom_",
                         inverseEntity: "Airport", isOptional: true),
        ]),
    ])

    public static let managedObjectModel = ManagedObjectModel(
        model, classes: ["Airline": Airline.self, "Airport": Airport.self, "Flight": Flight.self])
}

public final class Airline: ManagedObject {
    public override class var entityName: String { "Airline" }

    public class func fetchRequest() -> FetchRequest<Airline> {
        FetchRequest<Airline>(entityName: "Airline")
    }
}

extension Airline {
    public enum Keys {
        public static let code_ = "code_"
        public static let name_ = "name_"
        public static let shortname_ = "shortname_"
        public static let flights_ = "flights_"
    }

    public var code_: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var name_: String? {
        get { attributeValue(at: 1) }
        set { setAttributeValue(newValue, at: 1) }
    }

    public var shortname_: String? {
        get { attributeValue(at: 2) }
        set { setAttributeValue(newValue, at: 2) }
    }

    public var flights_: Set<Flight> {
        get { relationship(at: 3) }
        set { setRelationship(newValue, at: 3) }
    }

    public func addToFlights_(_ value: Flight) { addToRelationship([value], at: 3) }
    public func removeFromFlights_(_ value: Flight) { removeFromRelationship([value], at: 3) }
    public func addToFlights_(_ values: Set<Flight>) { addToRelationship(values, at: 3) }
    public func removeFromFlights_(_ values: Set<Flight>) { removeFromRelationship(values, at: 3) }
}

extension Airline {
    public static func first(_ predicate: ObjectPredicate? = nil, sortedBy sortDescriptors: [ObjectSortDescriptor] = [],
                             in context: ManagedObjectContext) throws -> Airline? {
        let request = fetchRequest()
        request.predicate = predicate
        request.sortDescriptors = sortDescriptors
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// Find-or-insert by the single-attribute uniqueness constraint on `code_`.
    public static func withCode(_ code: String, in context: ManagedObjectContext) throws -> Airline {
        if let airline = try first(ObjectPredicate("code_ = %@", code), in: context) { return airline }
        let airline = Airline(context: context)
        airline.code_ = code
        return airline
    }

    public var code: String {
        get { code_ ?? "" }
        set { code_ = newValue }
    }

    public var flights: Set<Flight> {
        get { flights_ }
        set { flights_ = newValue }
    }
}

public final class Airport: ManagedObject {
    public override class var entityName: String { "Airport" }

    public class func fetchRequest() -> FetchRequest<Airport> {
        FetchRequest<Airport>(entityName: "Airport")
    }
}

extension Airport {
    public enum Keys {
        public static let city_ = "city_"
        public static let icao_ = "icao_"
        public static let latitude = "latitude"
        public static let name_ = "name_"
        public static let flightsFrom_ = "flightsFrom_"
        public static let flightsTo_ = "flightsTo_"
    }

    public var city_: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var icao_: String? {
        get { attributeValue(at: 1) }
        set { setAttributeValue(newValue, at: 1) }
    }

    public var latitude: Double {
        get { attributeValue(at: 2) ?? 0 }
        set { setAttributeValue(newValue, at: 2) }
    }

    public var name_: String? {
        get { attributeValue(at: 3) }
        set { setAttributeValue(newValue, at: 3) }
    }

    public var flightsFrom_: Set<Flight> {
        get { relationship(at: 4) }
        set { setRelationship(newValue, at: 4) }
    }

    public var flightsTo_: Set<Flight> {
        get { relationship(at: 5) }
        set { setRelationship(newValue, at: 5) }
    }

    public func addToFlightsFrom_(_ value: Flight) { addToRelationship([value], at: 4) }
    public func removeFromFlightsFrom_(_ value: Flight) { removeFromRelationship([value], at: 4) }
    public func addToFlightsTo_(_ value: Flight) { addToRelationship([value], at: 5) }
    public func removeFromFlightsTo_(_ value: Flight) { removeFromRelationship([value], at: 5) }
}

extension Airport {
    public static func fetch(_ predicate: ObjectPredicate? = nil, sortedBy sortDescriptors: [ObjectSortDescriptor] = [],
                             in context: ManagedObjectContext) throws -> [Airport] {
        let request = fetchRequest()
        request.predicate = predicate
        request.sortDescriptors = sortDescriptors
        return try context.fetch(request)
    }

    public static func count(_ predicate: ObjectPredicate? = nil, in context: ManagedObjectContext) throws -> Int {
        let request = fetchRequest()
        request.predicate = predicate
        return try context.count(for: request)
    }

    public static func first(_ predicate: ObjectPredicate? = nil, sortedBy sortDescriptors: [ObjectSortDescriptor] = [],
                             in context: ManagedObjectContext) throws -> Airport? {
        let request = fetchRequest()
        request.predicate = predicate
        request.sortDescriptors = sortDescriptors
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// Find-or-insert by the single-attribute uniqueness constraint on `icao_`.
    public static func withICAO(_ icao: String, in context: ManagedObjectContext) throws -> Airport {
        if let airport = try first(ObjectPredicate("icao_ = %@", icao), in: context) { return airport }
        let airport = Airport(context: context)
        airport.icao_ = icao
        return airport
    }

    public var icao: String {
        get { icao_ ?? "" }
        set { icao_ = newValue }
    }

    public var flightsTo: Set<Flight> {
        get { flightsTo_ }
        set { flightsTo_ = newValue }
    }

    public var flightsFrom: Set<Flight> {
        get { flightsFrom_ }
        set { flightsFrom_ = newValue }
    }
}

extension Flight {
    public var ident: String {
        get { ident_ ?? "" }
        set { ident_ = newValue }
    }

    /// To-one wrapper: a clear trap naming entity and key when unset.
    public var origin: Airport {
        get {
            guard let value = origin_ else { preconditionFailure("Flight.origin_ is nil") }
            return value
        }
        set { origin_ = newValue }
    }

    public var destination: Airport {
        get {
            guard let value = destination_ else { preconditionFailure("Flight.destination_ is nil") }
            return value
        }
        set { destination_ = newValue }
    }
}

public final class Flight: ManagedObject {
    public override class var entityName: String { "Flight" }

    public class func fetchRequest() -> FetchRequest<Flight> {
        FetchRequest<Flight>(entityName: "Flight")
    }
}

extension Flight {
    public enum Keys {
        public static let arrival_ = "arrival_"
        public static let filedAirspeed_ = "filedAirspeed_"
        public static let ident_ = "ident_"
        public static let airline_ = "airline_"
        public static let destination_ = "destination_"
        public static let origin_ = "origin_"
    }

    public var arrival_: Date? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var filedAirspeed_: Int16 {
        get { attributeValue(at: 1) ?? 0 }
        set { setAttributeValue(newValue, at: 1) }
    }

    public var ident_: String? {
        get { attributeValue(at: 2) }
        set { setAttributeValue(newValue, at: 2) }
    }

    public var airline_: Airline? {
        get { toOneRelationship(at: 3) }
        set { setToOneRelationship(newValue, at: 3) }
    }

    public var destination_: Airport? {
        get { toOneRelationship(at: 4) }
        set { setToOneRelationship(newValue, at: 4) }
    }

    public var origin_: Airport? {
        get { toOneRelationship(at: 5) }
        set { setToOneRelationship(newValue, at: 5) }
    }
}
