import ModelFileLoading
import Foundation
@testable import ManagedObjects
import Testing

/// CoreDataPlus's SampleModel V2 → V3 step, which its repository makes through a mapping model
/// (`V2toV3.xcmappingmodel`) and a custom policy (`V2to3MakerPolicy`: a Maker per car maker
/// name); here the same mapping written in Swift, with the assertions of its
/// `test_MigrationFromV2ToV3` and `test_MigrationFromV1ToV3`.
@Suite("Migration: mapping models and custom policies")
struct MappingModelMigrationTests {
    /// Makes the car as the default does, then links it to the Maker of its `maker` name,
    /// created once per name.
    struct MakerPolicy: EntityMigrationPolicy {
        func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            try manager.createDefaultDestinationInstance(forSource: source, in: mapping)
            guard let name = source.value(forKey: "maker") as? String,
                  let car = manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]).first,
                  let makerEntity = manager.destinationContext.persistentStoreCoordinator.managedObjectModel["Maker"] else { return }
            var makers = manager.userInfo["makers"] as? [String: ManagedObject] ?? [:]
            let maker = makers[name] ?? ManagedObject(entity: makerEntity, insertInto: manager.destinationContext)
            maker.setValue(name, forKey: "name")
            makers[name] = maker
            manager.userInfo["makers"] = makers
            car.setValue(maker, forKey: "createdBy")
        }
    }

    static let v2ToV3: MappingModel = {
        EntityMigrationPolicies.register(MakerPolicy.self, named: "V2to3MakerPolicy")
        let carRelationships = [
            PropertyMapping(name: "owner", value: .sourceKeyPath("owner")),
            PropertyMapping(name: "previousOwners", value: .destinationInstances(entityMappingName: "PersonToPerson", sourceKeyPath: "owner")),
        ]
        return MappingModel(from: "SampleModel2", to: "SampleModel3", entityMappings: [
            EntityMapping(name: "CarToCar", sourceEntityName: "Car", destinationEntityName: "Car",
                          relationshipMappings: carRelationships, entityMigrationPolicyClassName: "V2to3MakerPolicy"),
            EntityMapping(name: "SportCarToSportCar", sourceEntityName: "SportCar", destinationEntityName: "SportCar",
                          relationshipMappings: carRelationships, entityMigrationPolicyClassName: "V2to3MakerPolicy"),
            EntityMapping(name: "LuxuryCarToLuxuryCar", sourceEntityName: "LuxuryCar", destinationEntityName: "LuxuryCar",
                          relationshipMappings: carRelationships, entityMigrationPolicyClassName: "V2to3MakerPolicy"),
            EntityMapping(name: "PersonToPerson", sourceEntityName: "Person", destinationEntityName: "Person", relationshipMappings: [
                PropertyMapping(name: "cars", value: .sourceKeyPath("cars")),
                PropertyMapping(name: "previousCars", value: .sourceKeyPath("cars")),
            ]),
        ])
    }()

    /// Opens a copy of `store` with V3 and the mapping model; the store keeps its UUID.
    static func migrate(_ store: String) throws -> (ManagedObjectContext, TemporaryDirectory, URL) {
        let versions = try RealStoreMigrationTests.versions(RealStoreMigrationTests.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(store, into: directory)
        let uuid = try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA")
        defer { #expect((try? rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA")) == uuid) }
        let container = try RealStoreMigrationTests.container(try #require(versions.version(named: "SampleModel3")), versions: versions, at: url) {
            $0.mappingModels = [v2ToV3]
        }
        return (container.newBackgroundContext(), directory, url)
    }

    static func checkV3(_ context: ManagedObjectContext) throws {
        try context.performAndWait {
            let cars = try context.fetch(FetchRequest<ManagedObject>(entityName: "Car"))
            let makers = try context.fetch(FetchRequest<ManagedObject>(entityName: "Maker"))
            #expect(makers.count == 10)
            #expect(cars.count == 125)
            for car in cars {
                let maker = car.value(forKey: "createdBy") as? ManagedObject
                #expect(maker != nil)
                let previousOwners = car.value(forKey: "previousOwners") as? Set<ManagedObject> ?? []
                if let owner = car.value(forKey: "owner") as? ManagedObject {
                    #expect(previousOwners.contains(owner))
                    #expect((owner.value(forKey: "previousCars") as? Set<ManagedObject> ?? []).contains(car))
                } else {
                    #expect(previousOwners.isEmpty)
                }
            }
            for maker in makers { maker.setValue("--\(maker.value(forKey: "name") as? String ?? "")--", forKey: "name") }
            try context.save()
        }
    }

    @Test("V2 → V3 through the mapping model (test_MigrationFromV2ToV3): 10 makers, 125 cars, previous owners")
    func v2ToV3() throws {
        let (context, directory, url) = try Self.migrate("alemar11__CoreDataPlus/SampleModel_V2.sqlite")
        try Self.checkV3(context)
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZMAKER WHERE ZNAME LIKE '--%--'") == "10")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("migrating") }.isEmpty)
        #expect(try RealStoreMigrationTests.count("LuxuryCar", in: context) == 5)
    }

    @Test("V1 → V2 inferred, then V2 → V3 through the mapping model (test_MigrationFromV1ToV3)")
    func v1ToV3() throws {
        let (context, directory, url) = try Self.migrate("alemar11__CoreDataPlus/SampleModel_V1.sqlite")
        try Self.checkV3(context)
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZPERSON") == "20")
        withExtendedLifetime(directory) {}
    }

    @Test("a policy name nobody registered fails with 134110 naming it; the store is left as it was")
    func unregisteredPolicy() throws {
        let versions = try RealStoreMigrationTests.versions(RealStoreMigrationTests.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel_V2.sqlite", into: directory)
        let before = try Data(contentsOf: url)
        var mapping = Self.v2ToV3
        mapping.entityMappings[0].entityMigrationPolicyClassName = "NoSuchPolicy"
        let error = #expect(throws: ManagedObjectError.self) {
            try RealStoreMigrationTests.container(try #require(versions.version(named: "SampleModel3")), versions: versions, at: url) {
                $0.mappingModels = [mapping]
            }
        }
        #expect(error?.code.rawValue == 134110)
        #expect(error?.message.contains("NoSuchPolicy") == true)
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("migrating") }.isEmpty)
    }
}
