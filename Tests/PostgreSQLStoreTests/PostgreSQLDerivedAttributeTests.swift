import DataModel
import Foundation
import ManagedObjects
import Testing

/// Derived attributes on the PostgreSQL store: computed by the context at the save, as on every
/// store, and kept in the table's columns.
@Suite("PostgreSQL store: derived attributes", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLDerivedAttributeTests {
    static let model: ManagedObjectModel = {
        let owner = Entity(
            name: "Owner",
            attributes: [
                Attribute(name: "name", type: .string, isOptional: true),
                Attribute(name: "searchName", type: .string, isOptional: true, isDerived: true, derivationExpression: "canonical:(name)"),
                Attribute(name: "itemCount", type: .integer64, isOptional: true, isDerived: true, derivationExpression: "items.@count"),
            ],
            relationships: [
                Relationship(name: "items", destinationEntity: "Item", inverseName: "owner", inverseEntity: "Item",
                             isToMany: true, isOptional: true, deleteRule: .cascade),
            ])
        let item = Entity(
            name: "Item",
            attributes: [
                Attribute(name: "ownerName", type: .string, isOptional: true, isDerived: true, derivationExpression: "uppercase:(owner.name)"),
            ],
            relationships: [
                Relationship(name: "owner", destinationEntity: "Owner", inverseName: "items", inverseEntity: "Owner",
                             isOptional: true, minCount: 0, maxCount: 1),
            ])
        return ManagedObjectModel(Model(entities: [owner, item]))
    }()

    @Test("derived values computed at the save are what another store instance reads")
    func savedAndReadBack() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(Self.model))
        try writer.performAndWait {
            let owner = ManagedObject(entity: Self.model["Owner"]!, insertInto: writer)
            owner.setValue("Zoé", forKey: "name")
            owner.setValue(99, forKey: "itemCount") // replaced by the save
            for _ in 0..<2 {
                ManagedObject(entity: Self.model["Item"]!, insertInto: writer).setValue(owner, forKey: "owner")
            }
            try writer.save()
        }
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(Self.model))
        try reader.performAndWait {
            let owner = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).first)
            #expect(owner.value(forKey: "searchName") as? String == "zoe")
            #expect(owner.value(forKey: "itemCount") as? Int == 2)
            let items = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            #expect(items.count == 2)
            #expect(items.allSatisfy { $0.value(forKey: "ownerName") as? String == "ZOÉ" })
        }
    }
}
