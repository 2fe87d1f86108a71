import CoreData
import DataModel
import Testing

/// Core Data's migration names as step-by-step migration code uses them (wibosco's
/// CoreDataMigration-Example): `NSMappingModel`, `NSMigrationManager`, `NSEntityMigrationPolicy`,
/// the coordinator's `remove`, `destroyPersistentStore` and `replacePersistentStore`, and a
/// model's compatibility with store metadata.
@Suite struct MigrationNamesTests {
    static let version1 = NSManagedObjectModel(Model(entities: [
        Entity(name: "Post", attributes: [
            Attribute(name: "content", type: .string, isOptional: true),
            Attribute(name: "picture", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
        ]),
    ]))
    static let version2 = NSManagedObjectModel(Model(entities: [
        Entity(name: "Post", attributes: [
            Attribute(name: "content", type: .string, isOptional: true),
            Attribute(name: "picture", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            Attribute(name: "hexColor", type: .string, isOptional: true),
        ]),
    ]))

    /// A fresh folder, removed by the caller.
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("MigrationNamesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// An SQLite store of `model` at `url` with one post per text; a picture larger than the
    /// inline limit goes to the store's external data folder. The store is removed (closed).
    private func writeStore(at url: URL, model: NSManagedObjectModel, contents: [String], largePicture: Bool = false) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for content in contents {
                let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: context)
                post.setValue(content, forKey: "content")
                if largePicture { post.setValue(Data(repeating: 7, count: 300_000), forKey: "picture") }
            }
            try context.save()
        }
        try coordinator.remove(store)
    }

    private func contents(ofStoreAt url: URL, model: NSManagedObjectModel) throws -> [String] {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Post")).compactMap { $0.value(forKey: "content") as? String }.sorted()
        }
    }

    @Test func metadataTellsWhichModelWroteTheStore() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Posts.sqlite")
        try writeStore(at: url, model: Self.version1, contents: ["one"])
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(Self.version1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!Self.version2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!NSManagedObjectModel().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!Self.version1.isConfiguration(withName: "Nonexistent", compatibleWithStoreMetadata: metadata))
        #expect(NSManagedObjectModel().entities.isEmpty)
    }

    @Test func inferredMappingModelMigratesThroughTheManager() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Posts.sqlite")
        try writeStore(at: source, model: Self.version1, contents: ["one", "two"], largePicture: true)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: Self.version1, destinationModel: Self.version2)
        #expect(mapping.entityMappings.map(\.name) == ["PostToPost"])
        let destination = folder.appendingPathComponent("Migrated.sqlite")
        let manager = NSMigrationManager(sourceModel: Self.version1, destinationModel: Self.version2)
        try manager.migrateStore(
            from: source, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
            toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        let migrated = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: destination, options: nil)
        #expect(Self.version2.isConfiguration(withName: nil, compatibleWithStoreMetadata: migrated))
        #expect(try contents(ofStoreAt: destination, model: Self.version2) == ["one", "two"])
        let original = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: source, options: nil)
        #expect(Self.version1.isConfiguration(withName: nil, compatibleWithStoreMetadata: original), "the source store stays as it was")
    }

    @Test func inferringAnUninferableChangeThrows() throws {
        let changedType = NSManagedObjectModel(Model(entities: [
            Entity(name: "Post", attributes: [Attribute(name: "content", type: .date, isOptional: true)]),
        ]))
        do {
            _ = try NSMappingModel.inferredMappingModel(forSourceModel: Self.version1, destinationModel: changedType)
            Issue.record("inferred a mapping from a string to a date")
        } catch {
            #expect((error as NSError).code == 134140)
            #expect("\(error)".contains("content"), "the error names the attribute: \(error)")
        }
    }

    /// wibosco's `Post2ToPost3MigrationPolicy` shape: an `NSEntityMigrationPolicy` subclass that
    /// lets the default make the destination object, finds it through the manager and changes it.
    final class ColorPolicy: NSEntityMigrationPolicy {
        override func createDestinationInstances(
            forSource sourceInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
        ) throws {
            try super.createDestinationInstances(forSource: sourceInstance, in: mapping, manager: manager)
            guard let destination = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sourceInstance]).first else {
                return
            }
            destination.setValue((sourceInstance.value(forKey: "content") as? String) == "red" ? "#FF0000" : "#000000", forKey: "hexColor")
        }
    }

    @Test func customPolicyRunsThroughTheManager() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Posts.sqlite")
        try writeStore(at: source, model: Self.version1, contents: ["red", "plain"])
        EntityMigrationPolicies.register(ColorPolicy.self, named: "MigrationNamesTests.ColorPolicy")
        let mapping = NSMappingModel(from: "1", to: "2", entityMappings: [
            NSEntityMapping(name: "PostToPost", sourceEntityName: "Post", destinationEntityName: "Post",
                            entityMigrationPolicyClassName: "MigrationNamesTests.ColorPolicy"),
        ])
        let destination = folder.appendingPathComponent("Migrated.sqlite")
        let manager = NSMigrationManager(sourceModel: Self.version1, destinationModel: Self.version2)
        try manager.migrateStore(
            from: source, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
            toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        #expect(manager.mappingModel.entityMappings.map(\.name) == ["PostToPost"])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.version2)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: destination, options: nil)
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType, persistentStoreCoordinator: coordinator)
        let colors = try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Post")).map {
                ($0.value(forKey: "content") as? String ?? "", $0.value(forKey: "hexColor") as? String ?? "")
            })
        }
        #expect(colors == ["red": "#FF0000", "plain": "#000000"])
    }

    @Test func migratingOntoAnExistingFileThrowsAndLeavesIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Posts.sqlite")
        let destination = folder.appendingPathComponent("Other.sqlite")
        try writeStore(at: source, model: Self.version1, contents: ["one"])
        try writeStore(at: destination, model: Self.version1, contents: ["kept"])
        let manager = NSMigrationManager(sourceModel: Self.version1, destinationModel: Self.version2)
        #expect(throws: (any Error).self) {
            try manager.migrateStore(
                from: source, sourceType: NSSQLiteStoreType, options: nil, with: nil,
                toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        }
        #expect(try contents(ofStoreAt: destination, model: Self.version1) == ["kept"])
    }

    @Test func replaceCarriesTheStoreFilesAndDestroyRemovesThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Source.sqlite")
        let target = folder.appendingPathComponent("Target.sqlite")
        try writeStore(at: source, model: Self.version1, contents: ["from source"], largePicture: true)
        try writeStore(at: target, model: Self.version1, contents: ["from target"], largePicture: true)
        let sourceSupport = folder.appendingPathComponent(".Source_SUPPORT/_EXTERNAL_DATA")
        let targetSupport = folder.appendingPathComponent(".Target_SUPPORT/_EXTERNAL_DATA")
        let sourceFiles = try FileManager.default.contentsOfDirectory(atPath: sourceSupport.path)
        #expect(sourceFiles.count == 1, "the large picture is an external file")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel())
        try coordinator.replacePersistentStore(
            at: target, destinationOptions: nil, withPersistentStoreFrom: source, sourceOptions: nil, ofType: NSSQLiteStoreType)
        #expect(try FileManager.default.contentsOfDirectory(atPath: targetSupport.path) == sourceFiles, "the target's own file is gone")
        #expect(try contents(ofStoreAt: target, model: Self.version1) == ["from source"])
        let pictures = try {
            let reader = NSPersistentStoreCoordinator(managedObjectModel: Self.version1)
            let store = try reader.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: target, options: nil)
            defer { try? reader.remove(store) }
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType, persistentStoreCoordinator: reader)
            return try context.performAndWait {
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Post")).compactMap { $0.value(forKey: "picture") as? Data }
            }
        }()
        #expect(pictures == [Data(repeating: 7, count: 300_000)], "the replaced store reads its external data")
        #expect(FileManager.default.fileExists(atPath: source.path), "the source stays")

        try coordinator.destroyPersistentStore(at: source, ofType: NSSQLiteStoreType, options: nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("Source") || $0.hasPrefix(".Source") }
        #expect(left.isEmpty, "destroy leaves \(left)")
        try coordinator.destroyPersistentStore(at: source, ofType: NSSQLiteStoreType, options: nil)
    }

    @Test func removeTakesTheStoreOutOfTheCoordinator() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.version1)
        let store = try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: folder.appendingPathComponent("Posts.sqlite"),
            options: [NSSQLitePragmasOption: ["journal_mode": "DELETE"]])
        try coordinator.remove(store)
        #expect(coordinator.persistentStores.isEmpty)
        #expect(throws: (any Error).self) { try coordinator.remove(store) }
    }

    @Test func mappingModelNotInTheBundlesIsNil() {
        #expect(NSMappingModel(from: [Bundle.main], forSourceModel: Self.version1, destinationModel: Self.version2) == nil)
        #expect(NSMappingModel(from: nil, forSourceModel: nil, destinationModel: Self.version2) == nil)
    }

    @Test func mergedModelForStoreMetadataFindsTheGeneratedModel() throws {
        let twitter = try #require(RegisteredTwitterModel.model)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Twitter.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: twitter)
        try coordinator.remove(try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil))
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        let found = try #require(NSManagedObjectModel.mergedModel(from: [Bundle.main], forStoreMetadata: metadata))
        #expect(found.entityVersionHashesByName == twitter.entityVersionHashesByName)
        let other = folder.appendingPathComponent("Posts.sqlite")
        try writeStore(at: other, model: Self.version1, contents: [])
        let postsMetadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: other, options: nil)
        #expect(NSManagedObjectModel.mergedModel(from: [Bundle.main], forStoreMetadata: postsMetadata) == nil)
    }
}
