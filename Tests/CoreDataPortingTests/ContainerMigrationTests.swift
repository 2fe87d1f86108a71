import CoreData
import Foundation
import Testing

/// `NSPersistentContainer(name:)` over a model file with two versions: a store written with the
/// first migrates as it is added (Core Data's default lightweight migration), unless the
/// description turns `shouldMigrateStoreAutomatically` off.
@Suite struct ContainerMigrationTests {
    /// A new SQLite store written with the model's first version, holding one entry.
    private func storeOfTheFirstVersion(in folder: URL) throws -> URL {
        let bundle = try #require(Bundle.module.url(forResource: "Journal", withExtension: "xcdatamodeld"))
        let first = try #require(NSManagedObjectModel(contentsOf: bundle.appendingPathComponent("Journal.xcdatamodel")))
        #expect(first.entitiesByName["Entry"]?.attributesByName["mood"] == nil)
        let url = folder.appendingPathComponent("Journal.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: first)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context).setValue("first", forKey: "title")
            try context.save()
        }
        try coordinator.remove(store)
        return url
    }

    private func load(_ url: URL, migrating: Bool) -> (NSPersistentContainer, (any Error)?) {
        let container = NSPersistentContainer(name: "Journal")
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = migrating
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        return (container, loadError)
    }

    @Test func storeOfAnOlderVersionMigratesAsItIsAdded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ContainerMigrationTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try storeOfTheFirstVersion(in: folder)

        let (container, error) = load(url, migrating: true)
        #expect(error == nil)
        let context = container.viewContext
        let entries = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Entry"))
        #expect(entries.map { $0.value(forKey: "title") as? String } == ["first"])
        // The second version's attribute is there, and saves.
        entries.first?.setValue("calm", forKey: "mood")
        try context.save()
        let moods = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Entry")).map { $0.value(forKey: "mood") as? String }
        #expect(moods == ["calm"])
    }

    @Test func storeOfAnOlderVersionFailsWithMigrationOff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ContainerMigrationTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try storeOfTheFirstVersion(in: folder)

        let (_, error) = load(url, migrating: false)
        #expect((error as NSError?)?.code == NSPersistentStoreIncompatibleVersionHashError)
    }
}
