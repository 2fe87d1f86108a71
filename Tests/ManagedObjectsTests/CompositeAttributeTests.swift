import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Composite attributes (Xcode 15+): a value is the dictionary of element name to value that
/// Core Data's `value(forKey:)` gives; the SQL stores keep each element in a column of the
/// entity's table, so predicates and sort descriptors can name an element (`address.city`).
@Suite("Composite attributes: stored by element, queried by key path, migrated")
struct CompositeAttributeTests {
    /// A Place with an optional composite `address` (street, city, zip, and a nested `geo`
    /// composite of latitude and longitude).
    static func modelDefinition(addressElements: [Attribute]? = nil) -> Model {
        let geo = Composite(name: "Geo", attributes: [
            Attribute(name: "latitude", type: .double, isOptional: true),
            Attribute(name: "longitude", type: .double, isOptional: true),
        ])
        let address = Composite(name: "Address", attributes: addressElements ?? [
            Attribute(name: "street", type: .string, isOptional: true),
            Attribute(name: "city", type: .string, isOptional: true),
            Attribute(name: "zip", type: .integer32, isOptional: true),
            Attribute(name: "geo", type: .composite, isOptional: true, composite: "Geo"),
        ])
        let place = Entity(name: "Place", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "address", type: .composite, isOptional: true, composite: "Address"),
        ])
        return Model(entities: [place], composites: [address, geo])
    }

    static let model = ManagedObjectModel(modelDefinition())

    static var places: [(name: String, address: [String: Any]?)] { [
        ("Louvre", ["street": "Rue de Rivoli", "city": "Paris", "zip": 75001, "geo": ["latitude": 48.8606, "longitude": 2.3376]]),
        ("Orsay", ["street": "Rue de la Légion d'Honneur", "city": "Paris", "zip": 75007]),
        ("Confluences", ["city": "Lyon", "zip": 69002]),
        ("Nowhere", nil),
    ] }

    static func insertPlaces(in context: ManagedObjectContext) throws {
        try context.performAndWait {
            for place in places {
                let object = ManagedObject(entity: model["Place"]!, insertInto: context)
                object.setValue(place.name, forKey: "name")
                object.setValue(place.address, forKey: "address")
            }
            try context.save()
        }
    }

    /// The addresses read back, by place name, as text that compares element by element.
    static func addresses(in context: ManagedObjectContext) throws -> [String: String] {
        try context.performAndWait {
            let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Place"))
            return Dictionary(uniqueKeysWithValues: objects.map { object in
                (object.value(forKey: "name") as! String, describe(object.value(forKey: "address")))
            })
        }
    }

    /// A composite value as sorted `key=value` text (nested dictionaries in braces), with
    /// numbers as Int or Double: what a round trip must keep.
    static func describe(_ value: Any?) -> String {
        guard let value else { return "nil" }
        guard let dictionary = value as? [String: Any] else { return "\(value)" }
        return "{" + dictionary.keys.sorted().map { "\($0)=\(describe(dictionary[$0]))" }.joined(separator: ",") + "}"
    }

    static var expectedAddresses: [String: String] {
        Dictionary(uniqueKeysWithValues: places.map { ($0.name, describe($0.address)) })
    }

    static func names(_ context: ManagedObjectContext, predicate: String? = nil, sortedBy sort: [ObjectSortDescriptor] = []) throws -> [String] {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Place")
            if let predicate { request.predicate = ObjectPredicate(format: predicate) }
            request.sortDescriptors = sort
            return try context.fetch(request).map { $0.value(forKey: "name") as! String }
        }
    }

    @Test("values saved read back as the same dictionaries, nested composite included", arguments: [PersistentStoreType.inMemory, .sqlite])
    func roundTrip(_ type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Places.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.model)
        try coordinator.addPersistentStore(type: type, at: type == .sqlite ? url : nil)
        try Self.insertPlaces(in: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator))
        // In memory: another context of the same coordinator. SQLite: the file opened anew.
        let reader = type == .sqlite
            ? try sqliteContext(Self.model, at: url)
            : ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        #expect(try Self.addresses(in: reader) == Self.expectedAddresses)
    }

    @Test("the SQLite store keeps each element in a column Z<ATTRIBUTE>_<ELEMENT> of the entity's table")
    func sqliteColumns() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Places.sqlite")
        try Self.insertPlaces(in: try sqliteContext(Self.model, at: url))
        let rows = try rawSQL(url.path, """
            SELECT ZNAME, ZADDRESS_STREET, ZADDRESS_CITY, ZADDRESS_ZIP, ZADDRESS_GEO_LATITUDE, ZADDRESS_GEO_LONGITUDE \
            FROM ZPLACE ORDER BY ZNAME
            """)
        #expect(rows == """
            Confluences||Lyon|69002||
            Louvre|Rue de Rivoli|Paris|75001|48.8606|2.3376
            Nowhere|||||
            Orsay|Rue de la Légion d'Honneur|Paris|75007||
            """)
    }

    @Test("predicates and sort descriptors name an element by key path", arguments: [PersistentStoreType.inMemory, .sqlite])
    func predicateAndSort(_ type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.model)
        try coordinator.addPersistentStore(type: type, at: type == .sqlite ? directory.file("Places.sqlite") : nil)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try Self.insertPlaces(in: context)
        #expect(Set(try Self.names(context, predicate: "address.city == 'Paris'")) == ["Louvre", "Orsay"])
        #expect(try Self.names(context, predicate: "address.zip < 70000") == ["Confluences"])
        #expect(try Self.names(context, predicate: "address.geo.latitude > 48") == ["Louvre"])
        #expect(try Self.names(context, predicate: "address.city == nil") == ["Nowhere"])
        #expect(try Self.names(context, predicate: "address.city != nil", sortedBy: [ObjectSortDescriptor(key: "address.zip", ascending: false)])
                == ["Orsay", "Louvre", "Confluences"])
    }

    @Test("a value that is not a dictionary of elements fails the save with an error naming the attribute")
    func notADictionary() throws {
        let directory = try TemporaryDirectory()
        let context = try sqliteContext(Self.model, at: directory.file("Places.sqlite"))
        let error = context.performAndWait { () -> (any Error)? in
            let object = ManagedObject(entity: Self.model["Place"]!, insertInto: context)
            object.setValue("not an address", forKey: "address")
            do { try context.save() } catch { return error }
            return nil
        }
        let described = try #require(error.map { "\($0)" })
        #expect(described.contains("address"))
        #expect(described.contains("dictionary"))
    }

    @Test("lightweight migration adds an element (NULL in existing rows) and drops a removed one")
    func migrationAddsAndRemovesElements() throws {
        let before = Self.modelDefinition(addressElements: [
            Attribute(name: "street", type: .string, isOptional: true),
            Attribute(name: "city", type: .string, isOptional: true),
        ])
        let after = Self.modelDefinition(addressElements: [
            Attribute(name: "city", type: .string, isOptional: true),
            Attribute(name: "country", type: .string, isOptional: true),
        ])
        let fixture = try InferredMigrationTests.Fixture([before, after])
        try fixture.write { context, model in
            let object = ManagedObject(entity: model["Place"]!, insertInto: context)
            object.setValue("Louvre", forKey: "name")
            object.setValue(["street": "Rue de Rivoli", "city": "Paris"], forKey: "address")
        }
        let context = try fixture.open()
        try context.performAndWait {
            let object = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Place")).first)
            #expect(Self.describe(object.value(forKey: "address")) == "{city=Paris}")
            object.setValue(["city": "Paris", "country": "France"], forKey: "address")
            try context.save()
        }
        let columns = try rawSQL(fixture.url.path, "SELECT name FROM pragma_table_info('ZPLACE') WHERE name LIKE 'ZADDRESS%' ORDER BY name")
        #expect(columns == "ZADDRESS_CITY\nZADDRESS_COUNTRY")
        #expect(try Self.names(try sqliteContext(fixture.model(2), at: fixture.url), predicate: "address.country == 'France'") == ["Louvre"])
    }
}
