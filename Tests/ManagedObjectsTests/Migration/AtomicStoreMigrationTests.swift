import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Binary and XML stores written with one model version, opened with the next: migrated by
/// inference (an attribute renamed by its renaming identifier, one added, one removed) and
/// through a mapping model (a value computed by an expression), as SQLite stores are.
@Suite("Migration: binary and XML stores, by inference and by mapping model")
struct AtomicStoreMigrationTests {
    static let types: [PersistentStoreType] = [.binary, .xml]

    /// Version 1: a Note with `title`, `body` and `count`, in a Folder.
    static let version1 = ManagedObjectModel(Model(entities: [
        Entity(name: "Note", attributes: [
            Attribute(name: "title", type: .string),
            Attribute(name: "body", type: .string, isOptional: true),
            Attribute(name: "count", type: .integer32),
        ], relationships: [
            Relationship(name: "folder", destinationEntity: "Folder", inverseName: "notes", inverseEntity: "Folder", isOptional: true),
        ]),
        Entity(name: "Folder", attributes: [Attribute(name: "name", type: .string)], relationships: [
            Relationship(name: "notes", destinationEntity: "Note", inverseName: "folder", inverseEntity: "Note", isToMany: true, isOptional: true),
        ]),
    ]))

    /// Version 2: `body` renamed `text`, `count` removed, `tag` and `score` added.
    static let version2 = ManagedObjectModel(Model(entities: [
        Entity(name: "Note", attributes: [
            Attribute(name: "title", type: .string),
            Attribute(name: "text", type: .string, isOptional: true, renamingIdentifier: "body"),
            Attribute(name: "tag", type: .string, isOptional: true),
            Attribute(name: "score", type: .integer64, isOptional: true),
        ], relationships: [
            Relationship(name: "folder", destinationEntity: "Folder", inverseName: "notes", inverseEntity: "Folder", isOptional: true),
        ]),
        Entity(name: "Folder", attributes: [Attribute(name: "name", type: .string)], relationships: [
            Relationship(name: "notes", destinationEntity: "Note", inverseName: "folder", inverseEntity: "Note", isToMany: true, isOptional: true),
        ]),
    ]))

    static let versions = ManagedObjectModelVersions(
        versions: [.init(name: "1", model: version1), .init(name: "2", model: version2)], currentVersionName: "2")

    /// A version 1 store of `type` at `url`: two notes in one folder.
    static func writeVersion1(_ type: PersistentStoreType, at url: URL) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: version1)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            let folder = ManagedObject(entity: version1["Folder"]!, insertInto: context)
            folder.setValue("Inbox", forKey: "name")
            for (title, body, count) in [("a", "first", 1), ("b", "second", 2)] {
                let note = ManagedObject(entity: version1["Note"]!, insertInto: context)
                note.setValue(title, forKey: "title")
                note.setValue(body, forKey: "body")
                note.setValue(Int32(count), forKey: "count")
                note.setValue(folder, forKey: "folder")
            }
            try context.save()
        }
    }

    /// The store at `url` opened with version 2 (migrating it), its notes as title → (text, tag, score, folder name).
    static func notes(_ type: PersistentStoreType, at url: URL, mappingModels: [MappingModel] = []) throws -> [String: [String?]] {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: version2)
        try coordinator.addPersistentStore(type: type, at: url, migration: StoreMigrationOptions(modelVersions: versions, mappingModels: mappingModels))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        return try context.performAndWait {
            let notes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
            return Dictionary(uniqueKeysWithValues: notes.map { note in
                (note.value(forKey: "title") as? String ?? "?", [
                    note.value(forKey: "text") as? String, note.value(forKey: "tag") as? String,
                    (note.value(forKey: "score") as? Int64).map { String($0) },
                    (note.value(forKey: "folder") as? ManagedObject)?.value(forKey: "name") as? String,
                ])
            })
        }
    }

    @Test("by inference: renamed, added and removed attributes, relationships kept", arguments: types)
    func inferred(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        try Self.writeVersion1(type, at: url)
        #expect(try Self.notes(type, at: url) == ["a": ["first", nil, nil, "Inbox"], "b": ["second", nil, nil, "Inbox"]])
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        #expect(Self.version2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata), "the file is version 2's now")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [url.lastPathComponent], "no file left beside it")
    }

    @Test("through a mapping model: an expression's value", arguments: types)
    func mappingModel(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        try Self.writeVersion1(type, at: url)
        let mapping = MappingModel(from: "1", to: "2", entityMappings: [
            EntityMapping(name: "NoteToNote", sourceEntityName: "Note", destinationEntityName: "Note", attributeMappings: [
                PropertyMapping(name: "title", value: .sourceKeyPath("title")),
                PropertyMapping(name: "text", value: .sourceKeyPath("body")),
                PropertyMapping(name: "score", value: .expression(try ObjectExpression(parsing: "$source.count * 10"))),
            ], relationshipMappings: [PropertyMapping(name: "folder", value: .sourceKeyPath("folder"))]),
            EntityMapping(name: "FolderToFolder", sourceEntityName: "Folder", destinationEntityName: "Folder"),
        ])
        #expect(try Self.notes(type, at: url, mappingModels: [mapping]) == ["a": ["first", nil, "10", "Inbox"], "b": ["second", nil, "20", "Inbox"]])
    }

    @Test("a migration that fails leaves the store as it was", arguments: types)
    func failureLeavesStore(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        try Self.writeVersion1(type, at: url)
        let before = try Data(contentsOf: url)
        let broken = MappingModel(from: "1", to: "2", entityMappings: [
            EntityMapping(name: "NoteToNote", sourceEntityName: "Note", destinationEntityName: "Note", entityMigrationPolicyClassName: "NoSuchPolicy"),
        ])
        #expect(throws: ManagedObjectError.self) { try Self.notes(type, at: url, mappingModels: [broken]) }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [url.lastPathComponent])
    }
}
