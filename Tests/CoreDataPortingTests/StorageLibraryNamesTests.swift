import CoreData
import Foundation
import Testing

/// Core Data names a storage library written before `NSPersistentContainer` uses (SugarRecord):
/// the coordinator's own queue, migration error codes, models compared with `==`, the iCloud
/// ubiquitous-content names, and sort descriptors by selector or comparator.
@Suite struct StorageLibraryNamesTests {
    @Test func coordinatorRunsBlocksOnItsQueueInOrder() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PersistenceController(inMemory: true).container.managedObjectModel)
        // SugarRecord adds its store inside `performAndWait`, and reads the result after it.
        var added: NSPersistentStore?
        coordinator.performAndWait {
            added = try? coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
            // Reentrant: a block already on the queue runs a nested one at once.
            coordinator.performAndWait { #expect(coordinator.persistentStores.count == 1) }
        }
        #expect(added != nil && coordinator.persistentStores.count == 1)

        let order = LockedNumbers()
        let done = DispatchSemaphore(value: 0)
        for number in 0..<20 {
            coordinator.perform {
                order.append(number)
                // A nested performAndWait inside a perform block does not wait for itself.
                coordinator.performAndWait { order.append(100 + number) }
                if number == 19 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(order.values == (0..<20).flatMap { [$0, 100 + $0] })
    }

    /// SugarRecord retries opening a store when the error is one of these codes.
    @Test func migrationErrorCodesAreCoreDatas() throws {
        #expect(NSMigrationError == 134110)
        #expect(NSMigrationMissingSourceModelError == 134130)
        #expect(NSMigrationMissingMappingModelError == 134140)
        #expect(NSInferredMappingModelError == 134190)

        // A store written with one model and opened with another, no migration asked: the error
        // is the one SugarRecord's check names first.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StorageLibraryNamesTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Posts.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let writer = NSPersistentStoreCoordinator(managedObjectModel: MigrationNamesTests.version1)
        let store = try writer.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        try writer.remove(store)
        let reader = NSPersistentStoreCoordinator(managedObjectModel: MigrationNamesTests.version2)
        var code: Int?
        reader.performAndWait {
            do {
                try reader.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            } catch {
                code = (error as NSError).code
            }
        }
        #expect(code == NSPersistentStoreIncompatibleVersionHashError || code == NSMigrationMissingSourceModelError)
    }

    @Test func modelsCompareAsObjects() {
        let model: NSManagedObjectModel? = MigrationNamesTests.version1
        #expect(model == MigrationNamesTests.version1)
        #expect(model != MigrationNamesTests.version2)
        #expect(model != nil)
    }

    /// No iCloud on Linux: no container URL, and the options are accepted when a store is added.
    @Test func ubiquitousContentNamesAreAccepted() throws {
        #expect(FileManager.default.url(forUbiquityContainerIdentifier: "iCloud.com.example") == nil)
        #expect(Notification.Name.NSPersistentStoreDidImportUbiquitousContentChanges.rawValue == "com.apple.coredata.ubiquity.importer.didfinishimport")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: MigrationNamesTests.version1)
        let options: [String: AnyObject] = [
            NSPersistentStoreUbiquitousContentNameKey: "Posts" as NSString,
            NSPersistentStoreUbiquitousContentURLKey: URL(fileURLWithPath: "/tmp/ubiquity") as NSURL,
        ]
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: options)
        #expect(coordinator.persistentStores.count == 1)
    }

    @Test func sortDescriptorsBySelector() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        for (identifier, text) in [("1", "File 10"), ("2", "file 2"), ("3", "File 1")] {
            _ = try Tweet.findOrCreateTweet(matching: identifier, text: text, postedBy: "paul", in: context)
        }
        try context.save()
        func texts(_ descriptor: NSSortDescriptor) throws -> [String?] {
            let request = Tweet.fetchRequest()
            request.sortDescriptors = [descriptor]
            return try context.fetch(request).map(\.text)
        }
        let standard = NSSortDescriptor(key: "text", ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(standard.key == "text")
        #expect(try texts(standard) == ["File 1", "file 2", "File 10"])
        #expect(try texts(NSSortDescriptor(key: "text", ascending: false, selector: "caseInsensitiveCompare:")) == ["file 2", "File 10", "File 1"])
        // By code point: upper case first.
        #expect(try texts(NSSortDescriptor(key: "text", ascending: true, selector: "compare:")) == ["File 1", "File 10", "file 2"])
    }

    /// A comparator descriptor keeps its key and block (Foundation's); fetches do not sort by it.
    @Test func sortDescriptorByComparatorKeepsItsKey() {
        let descriptor = NSSortDescriptor(key: "text", ascending: false) { lhs, rhs in
            (lhs as? String ?? "").count < (rhs as? String ?? "").count ? .orderedAscending : .orderedDescending
        }
        #expect(descriptor.key == "text")
        #expect(!descriptor.ascending)
        #expect(descriptor.comparator("a", "bb") == .orderedAscending)
    }
}

/// Numbers appended from several threads, in the order they came.
private final class LockedNumbers: @unchecked Sendable {
    // Unchecked: `numbers` is used only while holding `lock`.
    private let lock = NSLock()
    private var numbers: [Int] = []

    func append(_ number: Int) { lock.withLock { numbers.append(number) } }
    var values: [Int] { lock.withLock { numbers } }
}
