import CoreData
import Foundation
import GRDB
import Testing

/// Store options read as Core Data reads them, on `addPersistentStore(ofType:configurationName:at:options:)`
/// and on a container's store descriptions: migration, read-only stores, SQLite pragmas, the
/// timeout.
@Suite struct StoreOptionsTests {
    /// A fresh folder, removed by the caller.
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreOptionsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// An SQLite store at `url` written with `model`, holding one plant named `name`.
    private func writeStore(at url: URL, model: NSManagedObjectModel, plant name: String) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Plant", into: context).setValue(name, forKey: "name")
            try context.save()
        }
        try coordinator.remove(store)
    }

    private func context(on coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    private func plantNames(in context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Plant")).compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
    }

    // MARK: Migration

    @Test func withoutTheMigrationOptionAnOlderStoreIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try writeStore(at: url, model: try #require(GardenModel.versions.version(named: "Garden")), plant: "fern")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let error = #expect(throws: (any Error).self) {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        }
        #expect((error as NSError?)?.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    @Test func theMigrationOptionsMigrateAnOlderStoreAsItIsAdded() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try writeStore(at: url, model: try #require(GardenModel.versions.version(named: "Garden")), plant: "fern")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url,
            options: [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true])
        let context = context(on: coordinator)
        #expect(try plantNames(in: context) == ["fern"])
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Bed", into: context).setValue("roses", forKey: "name")
            try context.save()
        }
    }

    @Test func migratingWithoutInferringNeedsAMappingModel() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try writeStore(at: url, model: try #require(GardenModel.versions.version(named: "Garden")), plant: "fern")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let error = #expect(throws: (any Error).self) {
            try coordinator.addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSMigratePersistentStoresAutomaticallyOption: true])
        }
        #expect((error as NSError?)?.code == NSMigrationMissingMappingModelError)
    }

    @Test func aDescriptionsMigrationSettingsAreItsOptions() {
        let description = NSPersistentStoreDescription()
        #expect(description.options[NSMigratePersistentStoresAutomaticallyOption] as? NSNumber == NSNumber(value: true))
        #expect(description.options[NSInferMappingModelAutomaticallyOption] as? NSNumber == NSNumber(value: true))
        description.shouldMigrateStoreAutomatically = false
        #expect(description.options[NSMigratePersistentStoresAutomaticallyOption] as? NSNumber == NSNumber(value: false))
        description.setOption(NSNumber(value: false), forKey: NSInferMappingModelAutomaticallyOption)
        #expect(!description.shouldInferMappingModelAutomatically)
        description.setOption(nil, forKey: NSMigratePersistentStoresAutomaticallyOption)
        #expect(!description.shouldMigrateStoreAutomatically)
        #expect(!description.isReadOnly)
        description.isReadOnly = true
        #expect(description.options[NSReadOnlyPersistentStoreOption] as? NSNumber == NSNumber(value: true))
    }

    @Test func aDescriptionWithMigrationOptionOffRefusesTheOlderStore() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try writeStore(at: url, model: try #require(GardenModel.versions.version(named: "Garden")), plant: "fern")

        let container = NSPersistentContainer(name: "Garden")
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(NSNumber(value: false), forKey: NSMigratePersistentStoresAutomaticallyOption)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect((loadError as NSError?)?.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    // MARK: Read-only stores

    @Test func aReadOnlyStoreIsReadAndRefusesEverySave() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try writeStore(at: url, model: GardenModel.managedObjectModel, plant: "fern")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let store = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        #expect(coordinator.isReadOnly(store))
        let context = context(on: coordinator)
        #expect(try plantNames(in: context) == ["fern"])
        try context.performAndWait {
            // A new object.
            NSEntityDescription.insertNewObject(forEntityName: "Plant", into: context).setValue("mint", forKey: "name")
            let inserting = #expect(throws: (any Error).self) { try context.save() }
            #expect((inserting as NSError?)?.code == NSPersistentStoreSaveError)
            context.rollback()
            // A change to a stored object, and its deletion.
            let fern = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Plant")).first)
            fern.setValue("bracken", forKey: "name")
            let updating = #expect(throws: (any Error).self) { try context.save() }
            #expect((updating as NSError?)?.code == NSPersistentStoreSaveError)
            context.rollback()
            context.delete(fern)
            let deleting = #expect(throws: (any Error).self) { try context.save() }
            #expect((deleting as NSError?)?.code == NSPersistentStoreSaveError)
            context.rollback()
            // A batch request.
            let batch = #expect(throws: (any Error).self) {
                try context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Plant")))
            }
            #expect((batch as NSError?)?.code == NSPersistentStoreSaveError)
        }
        try coordinator.remove(store)

        // The file is as it was, and writable once added without the option.
        let writable = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let reopened = try writable.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        #expect(!writable.isReadOnly(reopened))
        let writing = self.context(on: writable)
        #expect(try plantNames(in: writing) == ["fern"])
        try writing.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Plant", into: writing).setValue("mint", forKey: "name")
            try writing.save()
        }
        #expect(try plantNames(in: writing) == ["fern", "mint"])
    }

    @Test func aReadOnlyDescriptionMakesAReadOnlyStore() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try writeStore(at: url, model: GardenModel.managedObjectModel, plant: "fern")

        let container = NSPersistentContainer(name: "Garden")
        let description = NSPersistentStoreDescription(url: url)
        description.isReadOnly = true
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let context = container.viewContext
        #expect(try plantNames(in: context) == ["fern"])
        NSEntityDescription.insertNewObject(forEntityName: "Plant", into: context).setValue("mint", forKey: "name")
        let error = #expect(throws: (any Error).self) { try context.save() }
        #expect((error as NSError?)?.code == NSPersistentStoreSaveError)
    }

    // MARK: SQLite pragmas

    /// SQLite's `user_version`, from the database header (big-endian, at byte 60).
    private func userVersion(ofDatabaseAt url: URL) throws -> UInt32 {
        let header = try Data(contentsOf: url).prefix(64)
        return header.suffix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test func pragmasAreSetOnTheStoresConnections() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let store = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url,
            options: [NSSQLitePragmasOption: ["user_version": 42, "synchronous": "OFF", "journal_mode": "DELETE"]])
        let context = context(on: coordinator)
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Plant", into: context).setValue("fern", forKey: "name")
            try context.save()
        }
        try coordinator.remove(store)
        #expect(try userVersion(ofDatabaseAt: url) == 42)
    }

    @Test func aDescriptionsPragmasAreSetToo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")

        let container = NSPersistentContainer(name: "Garden")
        let description = NSPersistentStoreDescription(url: url)
        description.setValue(NSString(string: "7"), forPragmaNamed: "user_version")
        description.setValue(NSString(string: "OFF"), forPragmaNamed: "synchronous")
        #expect(description.sqlitePragmas.keys.sorted() == ["synchronous", "user_version"])
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        try container.persistentStoreCoordinator.remove(store)
        #expect(try userVersion(ofDatabaseAt: url) == 7)
    }

    /// The bytes of the store's file and of its write-ahead log, if any.
    private func storeSize(at url: URL) -> Int {
        [url.path, url.path + "-wal"].compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)
    }

    @Test func theVacuumAndAnalyzeOptionsRunOnceTheStoreIsAdded() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        // A store whose rows were all deleted: its file keeps the free pages.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = context(on: coordinator)
        try context.performAndWait {
            for number in 0..<2_000 {
                NSEntityDescription.insertNewObject(forEntityName: "Plant", into: context)
                    .setValue(String(repeating: "leaf \(number) ", count: 20), forKey: "name")
            }
            try context.save()
            for plant in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Plant")) { context.delete(plant) }
            try context.save()
        }
        try coordinator.remove(store)
        // The deleted rows' pages, in the file or still in its write-ahead log: a checkpoint
        // alone keeps them, as free pages of the file.
        let sizeBefore = storeSize(at: url)
        #expect(try Data(contentsOf: url).range(of: Data("sqlite_stat1".utf8)) == nil)

        let maintaining = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        try maintaining.remove(try maintaining.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: url,
            options: [NSSQLiteManualVacuumOption: true, NSSQLiteAnalyzeOption: true]))
        let sizeAfter = storeSize(at: url)
        #expect(sizeAfter * 4 < sizeBefore, "\(sizeBefore) bytes before VACUUM, \(sizeAfter) after")
        // ANALYZE keeps its statistics in the table sqlite_stat1, named in the file's schema.
        #expect(try Data(contentsOf: url).range(of: Data("sqlite_stat1".utf8)) != nil)
    }

    @Test func aPragmaSQLiteCannotBeGivenIsAnError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let error = #expect(throws: (any Error).self) {
            try coordinator.addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: folder.appendingPathComponent("Garden.sqlite"),
                options: [NSSQLitePragmasOption: ["synchronous": "OFF; DROP TABLE ZPLANT"]])
        }
        #expect((error as NSError?)?.code == NSPersistentStoreOpenError)
    }

    // MARK: Timeout

    /// A save on a coordinator added with `options`, while another connection holds the store's
    /// write lock: its error, and how long the save waited before throwing.
    private func saveWhileAnotherConnectionWrites(options: [AnyHashable: Any]) throws -> (error: NSError?, waited: TimeInterval) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Garden.sqlite")
        try writeStore(at: url, model: GardenModel.managedObjectModel, plant: "fern")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        defer { try? coordinator.remove(store) }

        // A connection that keeps its write transaction open between its accesses (GRDB allows
        // it only when told).
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let writer = try DatabaseQueue(path: url.path, configuration: configuration)
        try writer.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        defer { try? writer.inDatabase { try $0.execute(sql: "ROLLBACK") } }
        let context = context(on: coordinator)
        let started = Date()
        var saveError: NSError?
        context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Plant", into: context).setValue("moss", forKey: "name")
            do { try context.save() } catch { saveError = error as NSError }
        }
        return (saveError, Date().timeIntervalSince(started))
    }

    @Test func theTimeoutOptionIsHowLongASaveWaitsForAnotherConnectionsLock() throws {
        // Without the option a save waits 10 seconds; with it, a quarter of a second.
        let (error, waited) = try saveWhileAnotherConnectionWrites(options: [NSPersistentStoreTimeoutOption: 0.25])
        #expect(error != nil, "the save cannot take the lock another connection holds")
        #expect(waited >= 0.2 && waited < 5, "the save waited \(waited) s")
    }

    @Test func aBusyTimeoutPragmaWinsOverTheTimeoutOption() throws {
        let (error, waited) = try saveWhileAnotherConnectionWrites(
            options: [NSPersistentStoreTimeoutOption: 30, NSSQLitePragmasOption: ["busy_timeout": 0]])
        #expect(error != nil)
        #expect(waited < 5, "the save waited \(waited) s")
    }

    @Test func aTimeoutThatIsNotANumberOfSecondsIsAnError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for timeout: Any in ["soon", -1, Double.infinity] {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GardenModel.managedObjectModel)
            let error = #expect(throws: (any Error).self) {
                try coordinator.addPersistentStore(
                    ofType: NSSQLiteStoreType, configurationName: nil, at: folder.appendingPathComponent("Garden.sqlite"),
                    options: [NSPersistentStoreTimeoutOption: timeout])
            }
            #expect((error as NSError?)?.code == NSPersistentStoreOpenError)
            #expect("\(error.map { $0 } as Any)".contains("NSPersistentStoreTimeoutOption"))
        }
    }
}
