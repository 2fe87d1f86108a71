import CoreData
import Foundation
import Testing

/// Core Data code over `Models/Garden.xcdatamodeld`, which the build plugin generates with its
/// two versions (`Garden`: plants; `Garden 2`: plants watered and in beds). The generated model
/// registers both, so a store the first version wrote migrates with no model file, as Core Data
/// migrates through the versions of the app's `.momd`.
@Suite struct GeneratedModelMigrationTests {
    /// A fresh folder, removed by the caller.
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("GeneratedModelMigrationTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The model's first version, as the generated model carries it.
    private var firstVersion: NSManagedObjectModel {
        get throws { try #require(GardenModel.versions.version(named: "Garden")) }
    }

    /// An SQLite store at `url` written with the first version, holding the plants named.
    private func storeOfTheFirstVersion(at url: URL, plants: [String]) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try firstVersion)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (number, name) in plants.enumerated() {
                let plant = NSEntityDescription.insertNewObject(forEntityName: "Plant", into: context)
                plant.setValue(name, forKey: "name")
                plant.setValue(Double(number + 1), forKey: "height")
            }
            try context.save()
        }
        try coordinator.remove(store)
    }

    @Test func theContainerFindsTheGeneratedModelWithItsVersions() {
        let container = NSPersistentContainer(name: "Garden")
        #expect(container.managedObjectModel === GardenModel.managedObjectModel)
        #expect(GardenModel.versions.versions.map(\.name) == ["Garden", "Garden 2"])
    }

    @Test func aContainerOnTheGeneratedModelMigratesAStoreOfTheOlderVersion() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try storeOfTheFirstVersion(at: url, plants: ["fern", "basil"])

        let container = NSPersistentContainer(name: "Garden")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)

        let context = container.viewContext
        let request = Plant.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let plants = try context.fetch(request)
        #expect(plants.map(\.name) == ["basil", "fern"])
        #expect(plants.map(\.height) == [2, 1])
        #expect(plants.allSatisfy { $0.lastWatered == nil && $0.bed == nil })
        // The second version's entity is there, and saves.
        let bed = Bed(context: context)
        bed.name = "herbs"
        plants[0].bed = bed
        plants[0].lastWatered = Date(timeIntervalSince1970: 1_000)
        try context.save()
        let beds = try context.fetch(Bed.fetchRequest())
        #expect(beds.map { ($0.plants?.count ?? 0) } == [1])
    }

    @Test func aContainerGivenTheGeneratedModelMigratesToo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try storeOfTheFirstVersion(at: url, plants: ["mint"])

        let container = NSPersistentContainer(name: "Elsewhere", managedObjectModel: GardenModel.managedObjectModel)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        #expect(try container.viewContext.count(for: Plant.fetchRequest()) == 1)
    }

    @Test func withMigrationOffTheContainerRefusesTheOlderStore() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try storeOfTheFirstVersion(at: url, plants: ["mint"])

        let container = NSPersistentContainer(name: "Garden")
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect((loadError as NSError?)?.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    @Test func mergedModelForStoreMetadataFindsTheOlderVersion() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try storeOfTheFirstVersion(at: url, plants: [])

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        let found = try #require(NSManagedObjectModel.mergedModel(from: [Bundle.main], forStoreMetadata: metadata))
        #expect(found.entityVersionHashesByName == (try firstVersion).entityVersionHashesByName)
        #expect(!GardenModel.managedObjectModel.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }
}
