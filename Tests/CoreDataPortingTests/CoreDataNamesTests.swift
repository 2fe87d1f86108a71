import CoreData
import Testing

/// Core Data names and shapes the public porting cases' first errors asked for.
@Suite struct CoreDataNamesTests {
    @Test func modelFromAFileIsFailable() throws {
        let url = try #require(Bundle.module.url(forResource: "Twitter", withExtension: "xcdatamodeld"))
        let model = try #require(NSManagedObjectModel(contentsOf: url))
        #expect(model.entitiesByName.keys.sorted() == ["Tweet", "TwitterUser"])
        #expect(model.entitiesByName["Tweet"]?.managedObjectClass == Tweet.self)
        #expect(NSManagedObjectModel(contentsOf: url.deletingLastPathComponent().appendingPathComponent("Missing.xcdatamodeld")) == nil)
    }

    @Test func cloudKitContainerIsALocalContainer() throws {
        let container = NSPersistentCloudKitContainer(name: "Twitter")
        container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
        container.persistentStoreDescriptions.first!.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        #expect(container.persistentStoreDescriptions.first!.options[NSPersistentHistoryTrackingKey] == true as NSNumber)
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let store: NSPersistentStore? = container.persistentStoreCoordinator.persistentStores.first
        #expect(store?.type == .inMemory)
        _ = try Tweet.findOrCreateTweet(matching: "1", text: "local", postedBy: "paul", in: container.viewContext)
        try container.viewContext.save()
        #expect(try container.viewContext.count(for: Tweet.fetchRequest()) == 1)
    }

    @Test func storeForURL() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataNamesTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Twitter.sqlite")
        let container = NSPersistentContainer(name: "Twitter")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let coordinator = container.persistentStoreCoordinator
        #expect(coordinator.persistentStore(for: url) === coordinator.persistentStores.first)
        #expect(coordinator.persistentStore(for: directory.appendingPathComponent("Other.sqlite")) == nil)
    }

    /// `NSPersistentHistoryTrackingKey`, set on a store description or passed to
    /// `addPersistentStore(ofType:configurationName:at:options:)`, reaches the SQLite store: its
    /// file has Core Data's history tables (their SQL is kept as text in the file, or in its WAL
    /// until a checkpoint), and a store without the option has none.
    @Test func historyTrackingOptionMakesHistoryTables() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataNamesTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func fileText(_ url: URL) -> String {
            ["", "-wal"].compactMap { FileManager.default.contents(atPath: url.path + $0) }
                .map { String(decoding: $0, as: UTF8.self) }.joined()
        }
        let tracked = directory.appendingPathComponent("Tracked.sqlite")
        let container = NSPersistentContainer(name: "Twitter")
        let description = NSPersistentStoreDescription(url: tracked)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        #expect(fileText(tracked).contains("CREATE TABLE ATRANSACTION"))

        let added = directory.appendingPathComponent("Added.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: container.managedObjectModel)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: added, options: [NSPersistentHistoryTrackingKey: true])
        #expect(fileText(added).contains("CREATE TABLE ACHANGE"))

        let plain = directory.appendingPathComponent("Plain.sqlite")
        try NSPersistentStoreCoordinator(managedObjectModel: container.managedObjectModel)
            .addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: plain, options: nil)
        #expect(fileText(plain).contains("CREATE TABLE ZTWEET"))
        #expect(!fileText(plain).contains("ATRANSACTION"))
    }

    /// Persistent history as Core Data code reads it: a save with `NSPersistentHistoryTrackingKey`
    /// on records a transaction with the context's `transactionAuthor`, read back with
    /// `NSPersistentHistoryChangeRequest` and its untyped `NSPersistentHistoryResult.result`.
    @Test func persistentHistoryAsCoreDataCodeReadsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataNamesTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = NSPersistentContainer(name: "Twitter")
        let description = NSPersistentStoreDescription(url: directory.appendingPathComponent("History.sqlite"))
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            context.transactionAuthor = "app"
            let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "first", postedBy: "paul", in: context)
            try context.save()
            let token: NSPersistentHistoryToken? = nil
            let result: NSPersistentHistoryResult = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token))
            let transactions = try #require(result.result as? [NSPersistentHistoryTransaction])
            #expect(transactions.map(\.author) == ["app"])
            let changes: [NSPersistentHistoryChange] = transactions.flatMap { $0.changes ?? [] }
            #expect(changes.contains { $0.changedObjectID == tweet.objectID && $0.changeType == NSPersistentHistoryChangeType.insert })
        }
    }

    /// The metadata calls as Core Data code writes them: a store file's, then a store's.
    @Test func storeMetadataAsCoreDataCodeSetsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataNamesTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("Twitter.sqlite")
        let modelURL = try #require(Bundle.module.url(forResource: "Twitter", withExtension: "xcdatamodeld"))
        let model = try #require(NSManagedObjectModel(contentsOf: modelURL))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        var metadata = coordinator.metadata(for: store)
        metadata["seeded"] = true
        coordinator.setMetadata(metadata, for: store)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            _ = try Tweet.findOrCreateTweet(matching: "1", text: "metadata", postedBy: "paul", in: context)
            try context.save()
        }

        var onDisk = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(onDisk["seeded"] as? Bool == true)
        onDisk["version"] = 2
        try NSPersistentStoreCoordinator.setMetadata(onDisk, forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil)
        let reread = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(reread["version"] as? Int == 2)
        #expect(reread[NSStoreUUIDKey] as? String == store.identifier)
        #expect(reread[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(reread[NSStoreModelVersionHashesKey] is [String: Data])
    }

    @Test func mergeTypesRoundTrip() {
        let policies: [NSMergePolicy] = [
            NSErrorMergePolicy, NSMergeByPropertyStoreTrumpMergePolicy, NSMergeByPropertyObjectTrumpMergePolicy,
            NSOverwriteMergePolicy, NSRollbackMergePolicy,
        ]
        #expect(policies.map(\.mergeType.rawValue) == [0, 1, 2, 3, 4])
        #expect(policies.map { NSMergePolicy(merge: $0.mergeType) } == policies)
    }

    @Test func propertiesByKindAndAttributeTypes() throws {
        let tweet = try #require(NSPersistentContainer(name: "Twitter").managedObjectModel.entitiesByName["Tweet"])
        #expect(tweet.attributesByName.keys.sorted() == ["created", "isFavorite", "rating", "retweetCount", "text", "unique"])
        #expect(tweet.relationshipsByName.keys.sorted() == ["tweeter"])
        #expect(tweet.relationshipsByName["tweeter"]?.userInfo?.isEmpty == true)
        let types = tweet.attributesByName.mapValues(\.attributeType)
        #expect(types["created"] == .dateAttributeType && types["text"] == .stringAttributeType)
        #expect(types["retweetCount"] == .integer64AttributeType && types["rating"] == .doubleAttributeType)
        #expect(types["isFavorite"]?.rawValue == 800)
    }

    @Test func contextHasNoUndoManagerByDefaultAndKeepsInaccessibleFaultsDeleted() {
        let context = PersistenceController(inMemory: true).container.newBackgroundContext()
        #expect(context.undoManager == nil, "nil by default, as on iOS")
        context.undoManager = nil
        context.shouldDeleteInaccessibleFaults = true
        #expect(context.undoManager == nil)
        #expect(context.shouldDeleteInaccessibleFaults)
    }

    /// Issue 31's names of the stack, together as Core Data code uses them: a model from a file
    /// (failable), a CloudKit container, its stores, objects made by entity name, the context
    /// notifications through `NotificationCenter.default` with their `userInfo` keys, and a
    /// validation error's keys and code.
    @Test func stackNamesTogether() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataNamesTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelURL = try #require(Bundle.module.url(forResource: "Twitter", withExtension: "xcdatamodeld"))
        let model: NSManagedObjectModel? = NSManagedObjectModel(contentsOf: modelURL)
        let container = NSPersistentCloudKitContainer(name: "Twitter", managedObjectModel: try #require(model))
        let storeURL = directory.appendingPathComponent("Twitter.sqlite")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let coordinator: NSPersistentStoreCoordinator = container.persistentStoreCoordinator
        let stores: [NSPersistentStore] = coordinator.persistentStores
        #expect(stores.count == 1 && coordinator.persistentStore(for: storeURL) === stores.first)

        let context = container.newBackgroundContext()
        let received = ReceivedUserInfo()
        let observers = [
            NSNotification.Name.NSManagedObjectContextWillSave, .NSManagedObjectContextDidSave,
            NSManagedObjectContext.didChangeObjectsNotification,
        ].map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { notification in
                received.keep(notification)
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        try context.performAndWait {
            let entity = try #require(NSEntityDescription.entity(forEntityName: "TwitterUser", in: context))
            let user = NSManagedObject(entity: entity, insertInto: context)
            user.setValue("paul", forKey: "name")
            let tweet = NSEntityDescription.insertNewObject(forEntityName: "Tweet", into: context)
            #expect(tweet is Tweet)
            try context.save()
            user.setValue(nil, forKey: "name")
            do {
                try context.save()
                Issue.record("saved a user without its mandatory name")
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain && error.code == NSValidationMissingMandatoryPropertyError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
                #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === user)
            }
            context.rollback()
        }
        #expect(received.userInfo(of: .NSManagedObjectContextWillSave) != nil)
        let saved = received.userInfo(of: NSManagedObjectContext.didSaveObjectsNotification)
        #expect((saved?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.count == 2)
        #expect((saved?[NSManagedObjectContext.NotificationKey.updatedObjects.rawValue] as? Set<NSManagedObject>) == [])
        #expect((saved?[NSDeletedObjectsKey] as? Set<NSManagedObject>) == [])
        #expect(received.userInfo(of: .NSManagedObjectContextObjectsDidChange) != nil)
        #expect([NSRefreshedObjectsKey, NSInvalidatedObjectsKey] == ["refreshed", "invalidated"])
    }

    /// The last `userInfo` received per notification name.
    private final class ReceivedUserInfo: @unchecked Sendable {
        // Unchecked: `byName` is used only while holding `lock`.
        private let lock = NSLock()
        private var byName: [Notification.Name: [AnyHashable: Any]] = [:]
        func keep(_ notification: Notification) { lock.withLock { byName[notification.name] = notification.userInfo ?? [:] } }
        func userInfo(of name: Notification.Name) -> [AnyHashable: Any]? { lock.withLock { byName[name] } }
    }
}
