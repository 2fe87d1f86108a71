import DataModel
import Foundation
import ModelFileLoading
@testable import ManagedObjects
import Testing

/// A model's configurations assign entities to stores: a coordinator with a store per
/// configuration puts each object in the store of its entity, fetches from it, and refuses
/// relationships between objects of different stores.
@Suite("Store configurations")
struct StoreConfigurationTests {
    /// CoreStore's test model: two configurations of one entity each (`Config1`, `Config2`).
    static func coreStoreModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: RealSQLiteStoreTests.shared
            .appendingPathComponent("corpus/JohnEstropia__CoreStore/CoreStoreTests/Model.xcdatamodeld"))
    }

    /// Notes kept in a file (`UserData`), thumbnails in a cache (`Cache`); tags in both.
    static let notesModel = ManagedObjectModel(Model(
        entities: [
            Entity(
                name: "Note",
                attributes: [Attribute(name: "title", type: .string, isOptional: true)],
                relationships: [
                    Relationship(name: "thumbnail", destinationEntity: "Thumbnail", inverseName: "note", inverseEntity: "Thumbnail",
                                 isOptional: true),
                ]),
            Entity(
                name: "Thumbnail",
                attributes: [Attribute(name: "size", type: .integer32, isOptional: true)],
                relationships: [
                    Relationship(name: "note", destinationEntity: "Note", inverseName: "thumbnail", inverseEntity: "Note",
                                 isOptional: true),
                ]),
            Entity(name: "Tag", attributes: [Attribute(name: "label", type: .string, isOptional: true)]),
        ],
        configurations: [
            Configuration(name: "UserData", memberEntities: ["Note", "Tag"]),
            Configuration(name: "Cache", memberEntities: ["Thumbnail", "Tag"]),
        ]))

    static func insert(_ entity: String, _ values: [String: Any], in context: ManagedObjectContext) -> ManagedObject {
        let object = ManagedObject(entity: context.managedObjectModel[entity]!, insertInto: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    static func count(_ entity: String, in context: ManagedObjectContext) throws -> Int {
        try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: entity)) }
    }

    @Test("two SQLite stores of two configurations: each object in its entity's store, each file holds only its entities' rows, fetches read both; after reopening too")
    func entitiesRoutedToTheirStores() throws {
        let model = try Self.coreStoreModel()
        #expect(model.model.configurations.map(\.name) == ["Config1", "Config2"])
        let directory = try TemporaryDirectory()
        let first = directory.file("One.sqlite"), second = directory.file("Two.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let storeOne = try coordinator.addPersistentStore(type: .sqlite, configuration: "Config1", at: first)
        let storeTwo = try coordinator.addPersistentStore(type: .sqlite, configuration: "Config2", at: second)
        #expect(coordinator.configurationName(of: storeOne) == "Config1")
        #expect(coordinator.configurationName(of: storeTwo) == "Config2")
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        let (ones, twos) = try context.performAndWait {
            let ones = (1...3).map { Self.insert("TestEntity1AAA", ["testString": "one \($0)", "testNumber": $0], in: context) }
            let twos = (1...2).map { Self.insert("TestEntity2", ["testString": "two \($0)", "testNumber": $0], in: context) }
            ones[1].setValue(ones[0], forKey: "testToOne")
            twos[1].setValue(twos[0], forKey: "testToOne")
            try context.save()
            return (ones.map(\.objectID), twos.map(\.objectID))
        }
        #expect(ones.allSatisfy { $0.storeIdentifier == storeOne.identifier && $0.uriRepresentation.host == storeOne.identifier })
        #expect(twos.allSatisfy { $0.storeIdentifier == storeTwo.identifier && $0.uriRepresentation.host == storeTwo.identifier })
        #expect(try rawSQL(first.path, "SELECT COUNT(*) FROM ZTESTENTITY1AAA") == "3")
        #expect(try rawSQL(first.path, "SELECT COUNT(*) FROM ZTESTENTITY2") == "0")
        #expect(try rawSQL(second.path, "SELECT COUNT(*) FROM ZTESTENTITY1AAA") == "0")
        #expect(try rawSQL(second.path, "SELECT ZTESTSTRING FROM ZTESTENTITY2 ORDER BY Z_PK") == "two 1\ntwo 2")

        // Another context of the coordinator reads each entity from its store.
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        #expect(try Self.count("TestEntity1AAA", in: reader) == 3)
        #expect(try Self.count("TestEntity2", in: reader) == 2)
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "TestEntity2")
            request.predicate = ObjectPredicate("testNumber > %@", 1)
            let found = try reader.fetch(request)
            #expect(found.map(\.objectID) == [twos[1]])
            #expect((found.first?.value(forKey: "testToOne") as? ManagedObject)?.objectID == twos[0])
            #expect(try reader.existingObject(with: ones[0]).value(forKey: "testString") as? String == "one 1")
        }

        // Reopened in a new coordinator, in the other order: the same objects, by the same URIs.
        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(type: .sqlite, configuration: "Config2", at: second)
        try reopened.addPersistentStore(type: .sqlite, configuration: "Config1", at: first)
        let later = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reopened)
        #expect(try Self.count("TestEntity1AAA", in: later) == 3)
        #expect(try Self.count("TestEntity2", in: later) == 2)
        try later.performAndWait {
            let id = try #require(reopened.managedObjectID(forURIRepresentation: ones[1].uriRepresentation))
            let object = try later.existingObject(with: id)
            #expect((object.value(forKey: "testToOne") as? ManagedObject)?.objectID == ones[0])
            // Changes and deletes go back to the object's own store.
            object.setValue("changed", forKey: "testString")
            later.delete(try later.existingObject(with: try #require(reopened.managedObjectID(forURIRepresentation: twos[0].uriRepresentation))))
            try later.save()
        }
        #expect(try rawSQL(first.path, "SELECT ZTESTSTRING FROM ZTESTENTITY1AAA WHERE Z_PK = \(ones[1].storeNumber!)") == "changed")
        #expect(try rawSQL(second.path, "SELECT COUNT(*) FROM ZTESTENTITY2") == "1")
    }

    @Test("an SQLite store for user data and an in-memory store for a cache: objects routed, a relationship between them refused with 134070 and nothing saved")
    func crossStoreRelationshipRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.notesModel)
        let userData = try coordinator.addPersistentStore(type: .sqlite, configuration: "UserData", at: url)
        let cache = try coordinator.addPersistentStore(type: .inMemory, configuration: "Cache")
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            let note = Self.insert("Note", ["title": "groceries"], in: context)
            let thumbnail = Self.insert("Thumbnail", ["size": 64], in: context)
            note.setValue(thumbnail, forKey: "thumbnail")
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.code == .persistentStoreOperation)
            #expect(error.key == "thumbnail" || error.key == "note")
            #expect(context.hasChanges)
            #expect(note.value(forKey: "title") as? String == "groceries")

            note.setValue(nil, forKey: "thumbnail")
            try context.save()
            #expect(note.objectID.storeIdentifier == userData.identifier)
            #expect(thumbnail.objectID.storeIdentifier == cache.identifier)
        }
        #expect(try rawSQL(url.path, "SELECT ZTITLE FROM ZNOTE") == "groceries")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZTHUMBNAIL") == "0")
        #expect(try Self.count("Thumbnail", in: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)) == 1)
        let fromCache = try cache.execute(StoreRequest(entity: Self.notesModel["Thumbnail"]!, resultType: .count))
        guard case .count(1) = fromCache else {
            Issue.record("the cache store holds \(fromCache), not the one thumbnail")
            return
        }
    }

    @Test("assign(_:to:) puts an object of an entity two stores hold in the one named; a store whose configuration lacks the entity is refused at save")
    func assignToStore() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.notesModel)
        let userData = try coordinator.addPersistentStore(type: .sqlite, configuration: "UserData", at: url)
        let cache = try coordinator.addPersistentStore(type: .inMemory, configuration: "Cache")
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            let kept = Self.insert("Tag", ["label": "kept"], in: context)
            let cached = Self.insert("Tag", ["label": "cached"], in: context)
            context.assign(cached, to: cache)
            try context.save()
            // The first store holding Tag, unless assigned.
            #expect(kept.objectID.storeIdentifier == userData.identifier)
            #expect(cached.objectID.storeIdentifier == cache.identifier)

            // A fetch of Tag reads both stores, sorts and windows the merged objects.
            let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
            let keptID = kept.objectID
            try reader.performAndWait { () throws -> Void in
                let request = FetchRequest<ManagedObject>(entityName: "Tag")
                request.sortDescriptors = [ObjectSortDescriptor(key: "label", ascending: true)]
                #expect(try reader.fetch(request).map { $0.value(forKey: "label") as? String } == ["cached", "kept"])
                #expect(try reader.count(for: request) == 2)
                request.fetchOffset = 1
                #expect(try reader.fetch(request).map(\.objectID) == [keptID])
                request.fetchOffset = 0
                request.fetchLimit = 1
                request.predicate = ObjectPredicate("label BEGINSWITH %@", "k")
                #expect(try reader.fetch(request).map(\.objectID) == [keptID])
                #expect(try reader.count(for: request) == 1)
            }

            let note = Self.insert("Note", ["title": "misplaced"], in: context)
            context.assign(note, to: cache)
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.code == .persistentStoreOperation)
            #expect("\(error)".contains("Cache"))
        }
        #expect(try rawSQL(url.path, "SELECT ZLABEL FROM ZTAG") == "kept")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZNOTE") == "0")
    }

    @Test("a container's store descriptions with configurations route as the coordinator does")
    func containerDescriptions() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.sqlite")
        let container = PersistentContainer(name: "Notes", managedObjectModel: Self.notesModel)
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(type: .sqlite, url: url, configuration: "UserData"),
            PersistentStoreDescription(type: .inMemory, configuration: "Cache"),
        ]
        try container.loadPersistentStores()
        let coordinator = container.persistentStoreCoordinator
        #expect(coordinator.persistentStores.map { coordinator.configurationName(of: $0) } == ["UserData", "Cache"])
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = Self.insert("Note", ["title": "kept"], in: context)
            _ = Self.insert("Thumbnail", ["size": 2], in: context)
            try context.save()
        }
        #expect(try rawSQL(url.path, "SELECT ZTITLE FROM ZNOTE") == "kept")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZTHUMBNAIL") == "0")
        #expect(try Self.count("Thumbnail", in: container.newBackgroundContext()) == 1)
    }

    @Test("a configuration the model lacks is refused when the store is added; an entity no store holds is refused at save")
    func unknownConfigurationAndUnheldEntity() throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.notesModel)
        let error = try #require(throws: ManagedObjectError.self) {
            try coordinator.addPersistentStore(type: .sqlite, configuration: "Archive", at: directory.file("A.sqlite"))
        }
        #expect(error.code == .persistentStoreOpen)
        #expect("\(error)".contains("Archive") && "\(error)".contains("UserData"))
        #expect(coordinator.persistentStores.isEmpty)

        let url = directory.file("Notes.sqlite")
        try coordinator.addPersistentStore(type: .sqlite, configuration: "UserData", at: url)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            _ = Self.insert("Note", ["title": "held"], in: context)
            _ = Self.insert("Thumbnail", ["size": 1], in: context)
            let unheld = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(unheld.code == .persistentStoreOperation)
            #expect(unheld.entityName == "Thumbnail")
            let fetch = try #require(throws: ManagedObjectError.self) {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Thumbnail"))
            }
            #expect(fetch.entityName == "Thumbnail")
        }
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZNOTE") == "0")
    }
}
