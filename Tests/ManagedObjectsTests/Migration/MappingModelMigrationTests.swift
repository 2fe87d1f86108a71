import DataModelReader
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
    final class MakerPolicy: EntityMigrationPolicy {
        override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
            guard let name = source.value(forKey: "maker") as? String,
                  let car = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first,
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

    /// CoreDataPlus's own `V2toV3.xcmappingmodel` (kept in DataModelTests' fixtures, see the README there).
    static let mappingFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DataModelTests/Fixtures/MappingModels/V2toV3.xcmappingmodel")

    /// The mapping model read from CoreDataPlus's file, its policy registered under the class name
    /// the file gives (`REPLACE_AT_RUNTIME.V2to3MakerPolicy`, found by `V2to3MakerPolicy`).
    static func v2ToV3FromFile() throws -> MappingModel {
        EntityMigrationPolicies.register(MakerPolicy.self, named: "V2to3MakerPolicy")
        return try MappingModel(contentsOf: mappingFile, versions: RealStoreMigrationTests.versions(RealStoreMigrationTests.sampleModel))
    }

    /// Opens a copy of `store` with V3 and the mapping model; the store keeps its UUID.
    static func migrate(_ store: String, mappingModel: MappingModel = v2ToV3) throws -> (ManagedObjectContext, TemporaryDirectory, URL) {
        let versions = try RealStoreMigrationTests.versions(RealStoreMigrationTests.sampleModel)
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(store, into: directory)
        let uuid = try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA")
        defer { #expect((try? rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA")) == uuid) }
        let container = try RealStoreMigrationTests.container(try #require(versions.version(named: "SampleModel3")), versions: versions, at: url) {
            $0.mappingModels = [mappingModel]
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

    @Test("V2 → V3 through CoreDataPlus's own V2toV3.xcmappingmodel: 10 makers, 125 cars, previous owners")
    func v2ToV3FromFile() throws {
        let mappingModel = try Self.v2ToV3FromFile()
        #expect(mappingModel.entityMappings.map(\.name) == ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar"])
        let (context, directory, url) = try Self.migrate("alemar11__CoreDataPlus/SampleModel_V2.sqlite", mappingModel: mappingModel)
        try Self.checkV3(context)
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZMAKER WHERE ZNAME LIKE '--%--'") == "10")
        #expect(try RealStoreMigrationTests.count("LuxuryCar", in: context) == 5)
        #expect(try RealStoreMigrationTests.count("Person", in: context) == 20)
        // The attributes came across as the file's autogenerated `$source.<name>` say.
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZCAR WHERE ZNUMBERPLATE IS NOT NULL") == "125")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("migrating") }.isEmpty)
    }

    @Test("constant value expressions: an attribute set to a constant for every object, a relationship to nil")
    func constantExpressions() throws {
        var document = try MappingModelReader().read(at: Self.mappingFile.path)
        for index in document.entityMappings.indices {
            for attribute in document.entityMappings[index].attributeMappings.indices where document.entityMappings[index].attributeMappings[attribute].name == "model" {
                document.entityMappings[index].attributeMappings[attribute].valueExpression = .constant(.string("Migrated"))
            }
            for relationship in document.entityMappings[index].relationshipMappings.indices
            where ["previousOwners", "previousCars"].contains(document.entityMappings[index].relationshipMappings[relationship].name) {
                document.entityMappings[index].relationshipMappings[relationship].valueExpression = .constant(.null)
            }
        }
        EntityMigrationPolicies.register(MakerPolicy.self, named: "V2to3MakerPolicy")
        let versions = try RealStoreMigrationTests.versions(RealStoreMigrationTests.sampleModel)
        let mappingModel = try MappingModel(document, versions: versions, file: "V2toV3-constants.xcmappingmodel")
        let (context, directory, url) = try Self.migrate("alemar11__CoreDataPlus/SampleModel_V2.sqlite", mappingModel: mappingModel)
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZCAR WHERE ZMODEL = 'Migrated'") == "125")
        try context.performAndWait {
            let cars = try context.fetch(FetchRequest<ManagedObject>(entityName: "Car"))
            #expect(cars.count == 125)
            // Both sides of the many-to-many set to nil: no links (owners themselves still migrate).
            #expect(cars.allSatisfy { ($0.value(forKey: "previousOwners") as? Set<ManagedObject> ?? []).isEmpty })
            #expect(cars.contains { $0.value(forKey: "owner") != nil })
        }
        withExtendedLifetime(directory) {}

        // A constant other than nil for a relationship is refused, naming it.
        document.entityMappings[0].relationshipMappings[0].valueExpression = .constant(.string("Fiat"))
        let error = #expect(throws: ManagedObjectError.self) { try MappingModel(document, versions: versions, file: "V2toV3-constants.xcmappingmodel") }
        #expect(error?.code.rawValue == 134110)
    }

    @Test("V1 → V2 inferred, then V2 → V3 through the .xcmappingmodel file")
    func v1ToV3FromFile() throws {
        let (context, directory, _) = try Self.migrate("alemar11__CoreDataPlus/SampleModel_V1.sqlite", mappingModel: try Self.v2ToV3FromFile())
        try Self.checkV3(context)
        withExtendedLifetime(directory) {}
    }

    @Test("a mapping file that names what the versions lack, or an expression not evaluated here, fails with 134110 naming file, mapping and property")
    func unusableMappingFiles() throws {
        let versions = try RealStoreMigrationTests.versions(RealStoreMigrationTests.sampleModel)
        let document = try MappingModelReader().read(at: Self.mappingFile.path)
        func error(_ change: (inout MappingDocument) -> Void) -> ManagedObjectError? {
            var changed = document
            change(&changed)
            do {
                _ = try MappingModel(changed, versions: versions, file: "V2toV3.xcmappingmodel")
                return nil
            } catch {
                return error
            }
        }
        let version = error { $0.sourceVersionName = "SampleModel9" }
        #expect(version?.code.rawValue == 134110)
        #expect(version?.message.contains("V2toV3.xcmappingmodel: maps from version SampleModel9") == true)
        let entity = error { $0.entityMappings[0].sourceEntityName = "Truck" }
        #expect(entity?.message.contains("entity mapping CarToCar maps from entity Truck") == true)
        let property = error { $0.entityMappings[0].attributeMappings[0].name = "colour" }
        #expect(property?.message.contains("entity mapping CarToCar maps attribute colour, which Car does not have") == true)
        let policyFunction = error {
            $0.entityMappings[0].relationshipMappings[0].valueExpression = .function(
                operand: .variable("entityPolicy"), selector: "makerFor:", arguments: [.variable("source")])
        }
        #expect(policyFunction?.message.contains(#"entity mapping CarToCar, relationship createdBy: the value expression FUNCTION($entityPolicy, "makerFor:", $source) is not one this runtime evaluates"#) == true)
        #expect(policyFunction?.key == "createdBy")
        let unknownMapping = error {
            $0.entityMappings[0].relationshipMappings[2].valueExpression = .function(
                operand: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                arguments: [.constant(.string("OwnerToOwner")), .function(operand: .variable("source"), selector: "valueForKeyPath:", arguments: [.keyPath("owner")])])
        }
        #expect(unknownMapping?.message.contains("names entity mapping OwnerToOwner, which the mapping model does not have") == true)
        let missingKey = error {
            $0.entityMappings[0].attributeMappings[1].valueExpression = .function(
                operand: .variable("source"), selector: "valueForKeyPath:", arguments: [.keyPath("colour.name")])
        }
        #expect(missingKey?.message.contains("entity mapping CarToCar, attribute model: $source.colour.name reads colour, which Car does not have") == true)
        let unreadable = #expect(throws: ManagedObjectError.self) {
            try MappingModel(contentsOf: URL(fileURLWithPath: "/nonexistent/V9toV10.xcmappingmodel"), versions: versions)
        }
        #expect(unreadable?.code.rawValue == 134110)
        #expect(unreadable?.message.contains("/nonexistent/V9toV10.xcmappingmodel/xcmapping.xml") == true)
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
