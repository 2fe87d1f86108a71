import DataModel
import Foundation
import ManagedObjects
import Testing

/// Composite attributes on the PostgreSQL store: one column per element, as in SQLite, read
/// back as the dictionary of elements and queried by key path.
@Suite("PostgreSQL store: composite attributes", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLCompositeAttributeTests {
    static let model: ManagedObjectModel = {
        let address = Composite(name: "Address", attributes: [
            Attribute(name: "city", type: .string, isOptional: true),
            Attribute(name: "zip", type: .integer32, isOptional: true),
            Attribute(name: "rent", type: .decimal, isOptional: true),
        ])
        let place = Entity(name: "Place", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "address", type: .composite, isOptional: true, composite: "Address"),
        ])
        return ManagedObjectModel(Model(entities: [place], composites: [address]))
    }()

    @Test("values saved read back in another store instance; a predicate and a sort on address.zip")
    func roundTripPredicateAndSort() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(Self.model))
        try writer.performAndWait {
            for (name, address) in [("Louvre", ["city": "Paris", "zip": 75001, "rent": Decimal(string: "1234.56")!] as [String: Any]?),
                                    ("Confluences", ["city": "Lyon", "zip": 69002]), ("Nowhere", nil)] {
                let object = ManagedObject(entity: Self.model["Place"]!, insertInto: writer)
                object.setValue(name, forKey: "name")
                object.setValue(address, forKey: "address")
            }
            try writer.save()
        }
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(Self.model))
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Place")
            request.predicate = ObjectPredicate(format: "address.zip > 0")
            request.sortDescriptors = [ObjectSortDescriptor(key: "address.zip", ascending: true)]
            let places = try reader.fetch(request)
            #expect(places.map { $0.value(forKey: "name") as? String } == ["Confluences", "Louvre"])
            let louvre = try #require(places.last?.value(forKey: "address") as? [String: Any])
            #expect(louvre["city"] as? String == "Paris")
            #expect((louvre["zip"] as? NSNumber)?.intValue == 75001)
            #expect(louvre["rent"] as? Decimal == Decimal(string: "1234.56"))
            #expect(places.first?.value(forKey: "address") is [String: Any])
            let nowhere = FetchRequest<ManagedObject>(entityName: "Place")
            nowhere.predicate = ObjectPredicate(format: "address.city == nil")
            #expect(try reader.fetch(nowhere).map { $0.value(forKey: "name") as? String } == ["Nowhere"])
        }
    }
}
