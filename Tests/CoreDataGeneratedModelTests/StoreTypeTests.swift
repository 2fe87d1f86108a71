import CoreData
import Foundation
import Testing

/// Core Data's `NSPersistentStore.StoreType` API (iOS 15): the coordinator's methods that take a
/// type rather than a type name.
@Suite struct StoreTypeTests {
    @Test func theStoreTypesAreCoreDatasTypeNames() {
        let types: [NSPersistentStore.StoreType] = [.sqlite, .inMemory, .binary, .xml]
        #expect(types.map(\.rawValue) == [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType, NSXMLStoreType])
        #expect(NSPersistentStore.StoreType(rawValue: "SQLite") == .sqlite)
        // A description's type is Core Data's string, which a store type gives.
        let description = NSPersistentStoreDescription()
        description.type = NSPersistentStore.StoreType.inMemory.rawValue
        #expect(description.type == NSInMemoryStoreType)
    }

    @Test func aStoreIsAddedByType() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreTypeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let store: NSPersistentStore = try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSReadOnlyPersistentStoreOption: false])
        #expect(store.type == .sqlite)
        let memory = try coordinator.addPersistentStore(type: .inMemory, configuration: nil, at: URL(fileURLWithPath: "/dev/null"))
        #expect(memory.type == .inMemory)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let plant = Plant(context: context)
            plant.name = "fern"
            context.assign(plant, to: store)
            try context.save()
        }
        try coordinator.remove(store)
        try coordinator.remove(memory)

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        try NSPersistentStoreCoordinator.setMetadata(metadata.merging(["Gardener": "Ann"]) { $1 }, type: .sqlite, at: url)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)["Gardener"] as? String == "Ann")

        let copy = folder.appendingPathComponent("Copy.sqlite")
        try coordinator.replacePersistentStore(at: copy, destinationOptions: nil, withPersistentStoreFrom: url, sourceOptions: nil, type: .sqlite)
        let reopened = try coordinator.addPersistentStore(type: .sqlite, at: copy)
        #expect(try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Plant")) } == 1)
        try coordinator.remove(reopened)
        try coordinator.destroyPersistentStore(at: copy, type: .sqlite, options: nil)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }
}
