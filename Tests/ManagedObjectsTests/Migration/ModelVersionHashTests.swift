import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// The version hashes equal the ones Core Data wrote into the real stores (`shared/stores`),
/// for every entity of every store, computed from the model version that wrote each.
@Suite("Version hashes: Core Data's")
struct ModelVersionHashTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var store: String
        var bundle: String
        var version: String
        var testDescription: String { store }
    }

    static let cases: [Case] = [
        Case(store: "alemar11__CoreDataPlus/SampleModel_V1.sqlite", bundle: RealStoreMigrationTests.sampleModel, version: "SampleModel"),
        Case(store: "alemar11__CoreDataPlus/SampleModel_V2.sqlite", bundle: RealStoreMigrationTests.sampleModel, version: "SampleModel2"),
        Case(store: "alemar11__CoreDataPlus/SampleModel3_V1.sqlite", bundle: RealStoreMigrationTests.sampleModel3, version: "SampleModel3"),
        Case(store: "raywenderlich__cdt-materials/SurfJournalModel.sqlite",
             bundle: "raywenderlich__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld",
             version: "SurfJournalModel"),
    ]

    @Test("each entity's hash equals the one in the store's NSStoreModelVersionHashes", arguments: cases)
    func equalsCoreDataHashes(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(testCase.store, into: directory)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        let stored = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data])
        let versions = try RealStoreMigrationTests.versions(testCase.bundle)
        let model = try #require(versions.version(named: testCase.version))
        #expect(!stored.isEmpty)
        #expect(model.entityVersionHashesByName == stored)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        // Found by the hashes: every other version of the bundle differs from the store's.
        for other in versions.versions where other.name != testCase.version {
            #expect(!other.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata), "\(other.name)")
        }
    }

    @Test("a derived attribute hashes as its expression alone, as Core Data renders it: the SampleModel2 stores' hashes",
          arguments: PersistentHistoryStoreTests.historyStores)
    func derivedAttribute(_ store: String) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(store, into: directory)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        let stored = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data])
        // Book has the derived `pagesCount` (`pages.@count`), and GraphicNovel inherits it.
        let model = ManagedObjectModel(SampleModel2Port.model(version: store.hasSuffix("_V1.sqlite") ? 1 : 2))
        #expect(model.entityVersionHashesByName == stored)
        #expect(ModelVersionHash.derivationFormat("pages.@count") == "count:(pages)")
        #expect(ModelVersionHash.derivationFormat("a.b.@sum") == "sum:(a.b)")
        #expect(ModelVersionHash.derivationFormat("now()") == "now()")
        // Its name is not an input: a derived attribute renamed alone keeps the entity's hash.
        func item(_ name: String) -> [String: Data] {
            Self.hash([Entity(name: "Item", attributes: [
                Attribute(name: name, type: .integer64, isOptional: true, isDerived: true, derivationExpression: "pages.@count"),
            ])])
        }
        #expect(item("pagesCount") == item("count"))
    }

    static func hash(_ entities: [Entity]) -> [String: Data] {
        ManagedObjectModel(Model(entities: entities)).entityVersionHashesByName
    }

    @Test("what Core Data hashes changes the hash; what it does not (indexes, delete rule, defaults, class) does not")
    func inputs() {
        func item(_ attribute: Attribute, indexed: Bool = false, className: String? = nil) -> [Entity] {
            [Entity(name: "Item", representedClassName: className, attributes: [attribute],
                    compoundIndexes: indexed ? [[attribute.name]] : [])]
        }
        let base = Self.hash(item(Attribute(name: "name", type: .string)))
        #expect(Self.hash(item(Attribute(name: "name", type: .string, isOptional: true))) != base)
        #expect(Self.hash(item(Attribute(name: "name", type: .date))) != base)
        #expect(Self.hash(item(Attribute(name: "title", type: .string))) != base)
        #expect(Self.hash(item(Attribute(name: "name", type: .string, versionHashModifier: "2"))) != base)
        #expect(Self.hash(item(Attribute(name: "name", type: .string, preserveAfterDeletion: true))) != base)
        #expect(Self.hash(item(Attribute(name: "name", type: .string, defaultValueString: "x"))) == base)
        #expect(Self.hash(item(Attribute(name: "name", type: .string), indexed: true)) == base)
        #expect(Self.hash(item(Attribute(name: "name", type: .string), className: "Other")) == base)
        // A transient attribute is not part of the entity's hash.
        #expect(Self.hash([Entity(name: "Item", attributes: [Attribute(name: "name", type: .string),
                                                              Attribute(name: "cache", type: .string, isTransient: true)])]) == base)

        func pair(deleteRule: DeleteRule = .nullify, ordered: Bool = false) -> [String: Data] {
            Self.hash([
                Entity(name: "A", relationships: [Relationship(name: "bs", destinationEntity: "B", inverseName: "a", inverseEntity: "B",
                                                              isToMany: true, isOrdered: ordered, isOptional: true, deleteRule: deleteRule)]),
                Entity(name: "B", relationships: [Relationship(name: "a", destinationEntity: "A", inverseName: "bs", inverseEntity: "A",
                                                              isOptional: true, maxCount: 1)]),
            ])
        }
        #expect(pair(deleteRule: .cascade) == pair())
        #expect(pair(ordered: true)["A"] != pair()["A"])
        #expect(pair(ordered: true)["B"] == pair()["B"])
    }
}
