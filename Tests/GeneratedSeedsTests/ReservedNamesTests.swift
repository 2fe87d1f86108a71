// The reserved-names fixture (Models/ReservedNames.xcdatamodel): an entity whose attributes are
// named after every member of `ManagedObject` and of generated classes. Its generated class
// compiles (the plugin builds it into this target); these tests show it works.
import DataModel
import Foundation
import ManagedObjects
import ModelFileLoading
import Testing

@Suite struct ReservedNamesTests {
    /// Every String attribute of `Reserved`, written through its generated property (found by
    /// key path in the generated table) and read back by key-value coding under its model name.
    @Test func everyPropertyNamedAfterARuntimeMemberStoresItsOwnValue() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reserved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Reserved.sqlite")
        let writableByName = Reserved.propertyNamesByKeyPath.compactMap { keyPath, name in
            (keyPath as? ReferenceWritableKeyPath<Reserved, String?>).map { (name, $0) }
        }
        let attributeNames = ReservedNamesModel.model.entity(named: "Reserved")!.attributes.map(\.name)
        #expect(Set(writableByName.map(\.0)) == Set(attributeNames), "every attribute has a writable generated property")
        #expect(attributeNames.count > 50)

        try withSQLiteContext(url) { context in
            let reserved = Reserved(context: context)
            for (name, keyPath) in writableByName { reserved[keyPath: keyPath] = "value of \(name)" }
            let item = Item(context: context)
            item.title = "item"
            reserved.addToItems(item)
            for (name, _) in writableByName {
                #expect(reserved.value(forKey: name) as? String == "value of \(name)", "\(name)")
            }
            // The runtime's own members still answer as the runtime's.
            #expect(reserved.entity.name == "Reserved")
            #expect(reserved.isInserted)
            #expect(reserved.objectID.isTemporaryID)
            try context.save()
        }
        // A new stack on the same file reads every value back.
        try withSQLiteContext(url) { context in
            let reserved = try #require(try Reserved.fetch(in: context).first)
            for (name, keyPath) in writableByName {
                #expect(reserved[keyPath: keyPath] == "value of \(name)", "\(name)")
            }
            #expect(reserved.items.map(\.title) == ["item"])
            #expect(try Reserved.count(ObjectPredicate(format: "%K == %@", Reserved.Keys.value_, "value of value"), in: context) == 1)
        }
    }

    private func withSQLiteContext(_ url: URL, _ body: (ManagedObjectContext) throws -> Void) throws {
        let container = PersistentContainer(name: "Reserved", managedObjectModel: ReservedNamesModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .sqlite, url: url)]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        try context.performAndWait { try body(context) }
    }
}

/// Generated classes reach their values by property index; binding one to an entity of another
/// layout (another version of the model) is refused with an error naming it.
@Suite struct ClassLayoutBindingTests {
    /// DogWalk with an attribute inserted before `name`: every index of `Dog` moves.
    static func dogWalkWithAnotherDogLayout() -> Model {
        var model = DogWalkModel.model
        let index = model.entities.firstIndex { $0.name == "Dog" }!
        model.entities[index].attributes.insert(Attribute(name: "breed", type: .string, isOptional: true), at: 0)
        return model
    }

    @Test func theGeneratedModelBindsItsOwnClasses() {
        #expect(DogWalkModel.managedObjectModel.classBindingErrors.isEmpty)
        #expect(TweetsModel.managedObjectModel.classBindingErrors.isEmpty)
        #expect(ReservedNamesModel.managedObjectModel.classBindingErrors.isEmpty)
    }

    @Test func addingAStoreForClassesOfAnotherLayoutThrowsNamingThem() throws {
        let model = ManagedObjectModel(Self.dogWalkWithAnotherDogLayout(), classes: ["Dog": Dog.self, "Walk": Walk.self])
        #expect(model.classBindingErrors.count == 1)
        #expect(model.classBindingErrors.first?.contains("'Dog'") == true)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: ManagedObjectError.self) { try coordinator.addPersistentStore(type: .inMemory) }
        #expect(error.code == .coreData)
        #expect(error.description.contains("class 'Dog' was generated for another layout of entity 'Dog'"))
    }

    @Test func readingAModelFileForClassesOfAnotherLayoutThrowsNamingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The DogWalk model file with `breed` added to Dog.
        let original = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Models/DogWalk.xcdatamodeld/DogWalk.xcdatamodel/contents")
        let changed = try String(contentsOf: original, encoding: .utf8).replacingOccurrences(
            of: "<attribute name=\"name\"", with: "<attribute name=\"breed\" optional=\"YES\" attributeType=\"String\"/>\n        <attribute name=\"name\"")
        let file = directory.appendingPathComponent("contents")
        try changed.write(to: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: DiagnosticError.self) {
            try ManagedObjectModel(contentsOf: file, classes: ["Dog": Dog.self, "Walk": Walk.self])
        }
        #expect(error.description.contains(file.path))
        #expect(error.description.contains("class 'Dog' was generated for another layout of entity 'Dog'"))
        // The file as generated binds.
        #expect(throws: Never.self) { try ManagedObjectModel(contentsOf: original, classes: ["Dog": Dog.self, "Walk": Walk.self]) }
    }
}
