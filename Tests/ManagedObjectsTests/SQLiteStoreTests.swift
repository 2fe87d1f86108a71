import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// A model with every stored attribute type, inheritance with a clashing column name, a to-one,
/// a to-many, an ordered to-many and a many-to-many: what an SQLite store must keep.
enum GalleryModel {
    static let model = Model(entities: [
        Entity(name: "Sample", attributes: [
            Attribute(name: "int16", type: .integer16, isOptional: true),
            Attribute(name: "int32", type: .integer32, isOptional: true),
            Attribute(name: "int64", type: .integer64, isOptional: true),
            Attribute(name: "decimal", type: .decimal, isOptional: true),
            Attribute(name: "double", type: .double, isOptional: true),
            Attribute(name: "float", type: .float, isOptional: true),
            Attribute(name: "string", type: .string, isOptional: true),
            Attribute(name: "flag", type: .boolean, isOptional: true),
            Attribute(name: "date", type: .date, isOptional: true),
            Attribute(name: "binary", type: .binary, isOptional: true),
            Attribute(name: "uuid", type: .uuid, isOptional: true),
            Attribute(name: "uri", type: .uri, isOptional: true),
            Attribute(name: "archived", type: .transformable, isOptional: true),
            Attribute(name: "scratch", type: .string, isOptional: true, isTransient: true),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Owner", inverseName: "samples",
                         inverseEntity: "Owner", isOptional: true),
            Relationship(name: "tags", destinationEntity: "Tag", inverseName: "samples",
                         inverseEntity: "Tag", isToMany: true, isOptional: true),
        ], uniquenessConstraints: [["string"]]),
        Entity(name: "Painting", parentEntity: "Sample", attributes: [
            Attribute(name: "note", type: .string, isOptional: true),
        ]),
        Entity(name: "Photo", parentEntity: "Sample", attributes: [
            Attribute(name: "note", type: .integer32, isOptional: true),
        ]),
        Entity(name: "Owner", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "samples", destinationEntity: "Sample", inverseName: "owner",
                         inverseEntity: "Sample", isToMany: true, isOptional: true),
            Relationship(name: "steps", destinationEntity: "Step", inverseName: "owner",
                         inverseEntity: "Step", isToMany: true, isOrdered: true, isOptional: true),
            // To an entity with sub-entities: the key and the destination's entity number.
            Relationship(name: "favorite", destinationEntity: "Sample", isOptional: true),
        ]),
        Entity(name: "Step", attributes: [
            Attribute(name: "label", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Owner", inverseName: "steps",
                         inverseEntity: "Owner", isOptional: true),
        ]),
        Entity(name: "Tag", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "samples", destinationEntity: "Sample", inverseName: "tags",
                         inverseEntity: "Sample", isToMany: true, isOptional: true),
        ]),
    ])

    static let managedObjectModel = ManagedObjectModel(model)
}

/// A fresh directory for one test's store files, removed at the end of the test.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("SQLiteStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A coordinator with one SQLite store at `url`, and a private-queue context on it.
func sqliteContext(_ model: ManagedObjectModel, at url: URL) throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .sqlite, at: url)
    return ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
}

/// The rows `sql` reads from the file at `path` through a connection of its own, as an outside
/// reader of the file: columns joined by `|`, rows by newlines, NULL as nothing, as the sqlite3
/// shell prints them.
func rawSQL(_ path: String, _ sql: String) throws -> String {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
        try Row.fetchAll(db, sql: sql).map { row in
            row.databaseValues.map { value -> String in
                switch value.storage {
                case .null: ""
                case .int64(let integer): String(integer)
                case .double(let double): String(double)
                case .string(let string): string
                case .blob(let data): data.map { String(format: "%02X", $0) }.joined()
                }
            }.joined(separator: "|")
        }.joined(separator: "\n")
    }
}

/// The statements that made a table and its indexes.
func tableSQL(_ path: String, _ table: String) throws -> String {
    try rawSQL(path, "SELECT sql FROM sqlite_master WHERE tbl_name = '\(table)' AND sql IS NOT NULL")
}

@Suite("SQLite store: Core Data's file format")
struct SQLiteStoreTests {
    let model = GalleryModel.managedObjectModel

    @Test("entities are numbered roots by name, each followed by its sub-entities depth first")
    func entityNumbering() {
        let schema = CoreDataSchema(model: model)
        #expect(CoreDataSchema.numberingOrder(of: model).map(\.name) == ["Owner", "Sample", "Painting", "Photo", "Step", "Tag"])
        #expect(schema.entityNumbers == ["Owner": 1, "Sample": 2, "Painting": 3, "Photo": 4, "Step": 5, "Tag": 6])
    }

    @Test("a new store has Core Data's tables, columns, key allocator and metadata")
    func newStoreLayout() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.sqlite")
        _ = try sqliteContext(model, at: url)
        let schema = try tableSQL(url.path, "ZSAMPLE")
        #expect(schema.contains("Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER"))
        for column in ["ZINT16 INTEGER", "ZDECIMAL DECIMAL", "ZDOUBLE FLOAT", "ZSTRING VARCHAR", "ZFLAG INTEGER",
                       "ZDATE TIMESTAMP", "ZBINARY BLOB", "ZUUID BLOB", "ZURI VARCHAR", "ZARCHIVED BLOB",
                       "ZOWNER INTEGER", "ZNOTE VARCHAR", "ZNOTE1 INTEGER"] {
            #expect(schema.contains(column), "ZSAMPLE has \(column)")
        }
        #expect(!schema.contains("ZSCRATCH"), "a transient attribute has no column")
        #expect(schema.contains("CREATE UNIQUE INDEX Z_Sample_UNIQUE_string ON ZSAMPLE (ZSTRING COLLATE BINARY ASC)"))
        #expect(try tableSQL(url.path, "ZSTEP").contains("Z_FOK_OWNER INTEGER"))
        #expect(try tableSQL(url.path, "ZOWNER").contains("ZFAVORITE INTEGER, Z2_FAVORITE INTEGER"), "numbered by the destination, Sample")
        #expect(try tableSQL(url.path, "Z_2TAGS").contains("Z_2SAMPLES INTEGER, Z_6TAGS INTEGER"))
        #expect(try rawSQL(url.path, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            == "1|Owner|0|0\n2|Sample|0|0\n3|Painting|2|0\n4|Photo|2|0\n5|Step|0|0\n6|Tag|0|0")
        #expect(try rawSQL(url.path, "PRAGMA journal_mode") == "wal")

        let store = try SQLiteStore(model: model, url: url)
        let metadata = store.metadata
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        #expect(metadata["NSStoreUUID"] as? String == store.identifier)
        #expect(try rawSQL(url.path, "SELECT Z_UUID FROM Z_METADATA") == store.identifier)
    }

    @Test("no file or an empty one becomes a new store; a file with bytes is inspected, a link by its own size")
    func storeFileSize() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("Missing.sqlite")
        #expect(SQLiteStore.fileSize(atPath: missing.path) == nil)
        let empty = directory.file("Empty.sqlite")
        try Data().write(to: empty)
        #expect(SQLiteStore.fileSize(atPath: empty.path) == 0)
        _ = try SQLiteStore(model: model, url: empty)
        #expect(try rawSQL(empty.path, "SELECT COUNT(*) FROM Z_PRIMARYKEY") == "6", "the empty file became a store")
        let bytes = directory.file("Bytes.sqlite")
        try Data("not a store".utf8).write(to: bytes)
        #expect(SQLiteStore.fileSize(atPath: bytes.path) == 11)
        #expect(throws: ManagedObjectError.self) { try SQLiteStore(model: model, url: bytes) }
        #expect(try Data(contentsOf: bytes) == Data("not a store".utf8), "refused untouched")
        // A link is not followed (as `attributesOfItem` did not): a dangling one is a file with
        // bytes, refused, not a place to create a store.
        let link = directory.file("Link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: missing.path)
        #expect(SQLiteStore.fileSize(atPath: link.path) == missing.path.utf8.count)
        #expect(throws: ManagedObjectError.self) { try SQLiteStore(model: model, url: link) }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test("a WAL database without a table (a creation killed before its transaction committed) becomes a new store")
    func creationKilledMidway() throws {
        let directory = try TemporaryDirectory()
        // What the process left: the pool made the file and set WAL mode, the tables never came.
        let unfinished = directory.file("Unfinished.sqlite")
        try DatabasePool(path: unfinished.path).close()
        #expect(SQLiteStore.fileSize(atPath: unfinished.path) ?? 0 > 0)
        _ = try SQLiteStore(model: model, url: unfinished)
        #expect(try rawSQL(unfinished.path, "SELECT COUNT(*) FROM Z_PRIMARYKEY") == "6")
        #expect(try rawSQL(unfinished.path, "SELECT COUNT(*) FROM Z_METADATA") == "1")
        // Not ours, so still refused untouched as not a Core Data store: an empty database in
        // rollback-journal mode (one someone made with sqlite3), and one with any table.
        let rollback = directory.file("Rollback.sqlite")
        try DatabaseQueue(path: rollback.path).write { db in try db.execute(sql: "PRAGMA user_version = 1") }
        let foreign = directory.file("Foreign.sqlite")
        try DatabasePool(path: foreign.path).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        for refused in [rollback, foreign] {
            let before = try Data(contentsOf: refused)
            #expect { try SQLiteStore(model: model, url: refused) } throws: { error in
                (error as? ManagedObjectError)?.code == .persistentStoreIncompatibleSchema
            }
            #expect(try Data(contentsOf: refused) == before, "\(refused.lastPathComponent) changed")
        }
    }

    @Test("every attribute type, to-one, to-many, ordered to-many and many-to-many survive reopening")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.sqlite")
        let identifier = UUID()
        let when = Date(timeIntervalSinceReferenceDate: 123_456.75)
        let writer = try sqliteContext(model, at: url)
        try writer.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: writer)
            owner.setValue("Ada", forKey: "name")
            let painting = ManagedObject(entity: model["Painting"]!, insertInto: writer)
            painting.setValue(Int16(-7), forKey: "int16")
            painting.setValue(Int32(70_000), forKey: "int32")
            painting.setValue(Int64.max, forKey: "int64")
            painting.setValue(Decimal(string: "12345.6789")!, forKey: "decimal")
            painting.setValue(0.1, forKey: "double")
            painting.setValue(Float(2.5), forKey: "float")
            painting.setValue("Mona", forKey: "string")
            painting.setValue(true, forKey: "flag")
            painting.setValue(when, forKey: "date")
            painting.setValue(Data([0, 1, 2, 255]), forKey: "binary")
            painting.setValue(identifier, forKey: "uuid")
            painting.setValue(URL(string: "https://example.com/a?b=c")!, forKey: "uri")
            painting.setValue(Data("archived".utf8), forKey: "archived")
            painting.setValue("oil", forKey: "note")
            painting.setValue("not kept", forKey: "scratch")
            painting.setValue(owner, forKey: "owner")
            let photo = ManagedObject(entity: model["Photo"]!, insertInto: writer)
            photo.setValue(Int32(3), forKey: "note")
            photo.setValue(owner, forKey: "owner")
            owner.setValue(photo, forKey: "favorite")
            let steps = (0..<3).map { number in
                let step = ManagedObject(entity: model["Step"]!, insertInto: writer)
                step.setValue("step \(number)", forKey: "label")
                return step
            }
            // Not the insertion order: the relationship's order is what must come back.
            owner.setValue([steps[2], steps[0], steps[1]], forKey: "steps")
            let tags = ["red", "blue"].map { name in
                let tag = ManagedObject(entity: model["Tag"]!, insertInto: writer)
                tag.setValue(name, forKey: "name")
                return tag
            }
            painting.setValue(Set(tags), forKey: "tags")
            photo.setValue(Set([tags[1]]), forKey: "tags")
            try writer.save()
        }

        let reader = try sqliteContext(model, at: url)
        try reader.performAndWait {
            let paintings = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Painting"))
            let painting = try #require(paintings.first)
            #expect(paintings.count == 1)
            #expect(painting.value(forKey: "int16") as? Int16 == -7)
            #expect(painting.value(forKey: "int32") as? Int32 == 70_000)
            #expect(painting.value(forKey: "int64") as? Int64 == Int64.max)
            #expect(painting.value(forKey: "decimal") as? Decimal == Decimal(string: "12345.6789"))
            #expect(painting.value(forKey: "double") as? Double == 0.1)
            #expect(painting.value(forKey: "float") as? Float == 2.5)
            #expect(painting.value(forKey: "string") as? String == "Mona")
            #expect(painting.value(forKey: "flag") as? Bool == true)
            #expect(painting.value(forKey: "date") as? Date == when)
            #expect(painting.value(forKey: "binary") as? Data == Data([0, 1, 2, 255]))
            #expect(painting.value(forKey: "uuid") as? UUID == identifier)
            #expect(painting.value(forKey: "uri") as? URL == URL(string: "https://example.com/a?b=c"))
            #expect(painting.value(forKey: "archived") as? Data == Data("archived".utf8))
            #expect(painting.value(forKey: "note") as? String == "oil")
            #expect(painting.value(forKey: "scratch") == nil)
            let owner = try #require(painting.value(forKey: "owner") as? ManagedObject)
            #expect(owner.value(forKey: "name") as? String == "Ada")
            #expect((owner.value(forKey: "favorite") as? ManagedObject)?.entity.name == "Photo")
            let samples = try #require(owner.value(forKey: "samples") as? Set<ManagedObject>)
            #expect(Set(samples.map(\.entity.name)) == ["Painting", "Photo"])
            let steps = try #require(owner.value(forKey: "steps") as? OrderedSet<ManagedObject>)
            #expect(steps.map { $0.value(forKey: "label") as? String } == ["step 2", "step 0", "step 1"])
            let tags = try #require(painting.value(forKey: "tags") as? Set<ManagedObject>)
            #expect(Set(tags.map { $0.value(forKey: "name") as? String }) == ["red", "blue"])
            let blue = try #require(tags.first { $0.value(forKey: "name") as? String == "blue" })
            #expect((blue.value(forKey: "samples") as? Set<ManagedObject>)?.count == 2)
            let photo = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Photo")).first)
            #expect(photo.value(forKey: "note") as? Int32 == 3)
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Sample")) == 2)
        }
        // What Core Data would read: dates as seconds since 2001, the Z_ENT of each row.
        #expect(try rawSQL(url.path, "SELECT ZDATE, Z_ENT, Z_OPT FROM ZSAMPLE WHERE ZSTRING = 'Mona'") == "123456.75|3|1")
        #expect(try rawSQL(url.path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Sample'") == "2")
        #expect(try rawSQL(url.path, "SELECT Z2_FAVORITE FROM ZOWNER") == "4")
    }

    @Test("updates, reordering, removals and deletes reach the file; Z_OPT counts the saves")
    func changesReachTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.sqlite")
        let writer = try sqliteContext(model, at: url)
        let ids = try writer.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: writer)
            let steps = (0..<3).map { number in
                let step = ManagedObject(entity: model["Step"]!, insertInto: writer)
                step.setValue("step \(number)", forKey: "label")
                return step
            }
            owner.setValue(steps, forKey: "steps")
            let sample = ManagedObject(entity: model["Sample"]!, insertInto: writer)
            let tags = ["red", "blue", "green"].map { name in
                let tag = ManagedObject(entity: model["Tag"]!, insertInto: writer)
                tag.setValue(name, forKey: "name")
                return tag
            }
            sample.setValue(Set(tags), forKey: "tags")
            try writer.save()

            owner.setValue([steps[1], steps[2], steps[0]], forKey: "steps")
            sample.setValue(Set([tags[0], tags[1]]), forKey: "tags")
            writer.delete(tags[1])
            sample.setValue("renamed", forKey: "string")
            try writer.save()
            return (owner: owner.objectID, sample: sample.objectID)
        }
        let reader = try sqliteContext(model, at: url)
        try reader.performAndWait {
            let owner = try reader.existingObject(with: reader.persistentStoreCoordinator.managedObjectID(forURIRepresentation: ids.owner.uriRepresentation)!)
            let steps = try #require(owner.value(forKey: "steps") as? OrderedSet<ManagedObject>)
            #expect(steps.map { $0.value(forKey: "label") as? String } == ["step 1", "step 2", "step 0"])
            let sample = try reader.existingObject(with: reader.persistentStoreCoordinator.managedObjectID(forURIRepresentation: ids.sample.uriRepresentation)!)
            #expect(sample.value(forKey: "string") as? String == "renamed")
            let tags = try #require(sample.value(forKey: "tags") as? Set<ManagedObject>)
            #expect(tags.compactMap { $0.value(forKey: "name") as? String } == ["red"])
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 2)
        }
        #expect(try rawSQL(url.path, "SELECT Z_OPT FROM ZSAMPLE") == "2")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM Z_2TAGS") == "1")
    }

    @Test("two coordinators on one file: a save over another's newer save fails with 133020 and writes nothing")
    func conflictAcrossCoordinators() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.sqlite")
        let first = try sqliteContext(model, at: url)
        let second = try sqliteContext(model, at: url)
        let id = try first.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: first)
            owner.setValue("original", forKey: "name")
            try first.save()
            return owner.objectID
        }
        let held = try second.performAndWait {
            let owner = try second.existingObject(with: second.persistentStoreCoordinator.managedObjectID(forURIRepresentation: id.uriRepresentation)!)
            #expect(owner.value(forKey: "name") as? String == "original")
            return owner
        }
        try first.performAndWait {
            try first.existingObject(with: id).setValue("first", forKey: "name")
            try first.save()
        }
        try second.performAndWait {
            held.setValue("second", forKey: "name")
            let error = try #require(throws: ManagedObjectError.self) { try second.save() }
            #expect(error.code == .mergeConflict)
        }
        #expect(try rawSQL(url.path, "SELECT ZNAME, Z_OPT FROM ZOWNER") == "first|2")
    }

    @Test("an ordered many-to-many keeps each side's order in the join table")
    func orderedManyToMany() throws {
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "Playlist", attributes: [Attribute(name: "name", type: .string, isOptional: true)], relationships: [
                Relationship(name: "songs", destinationEntity: "Song", inverseName: "playlists", inverseEntity: "Song",
                             isToMany: true, isOrdered: true, isOptional: true),
            ]),
            Entity(name: "Song", attributes: [Attribute(name: "title", type: .string, isOptional: true)], relationships: [
                Relationship(name: "playlists", destinationEntity: "Playlist", inverseName: "songs", inverseEntity: "Playlist",
                             isToMany: true, isOptional: true),
            ]),
        ]))
        let directory = try TemporaryDirectory()
        let url = directory.file("Music.sqlite")
        let writer = try sqliteContext(model, at: url)
        try writer.performAndWait {
            let songs = ["a", "b", "c"].map { title in
                let song = ManagedObject(entity: model["Song"]!, insertInto: writer)
                song.setValue(title, forKey: "title")
                return song
            }
            let first = ManagedObject(entity: model["Playlist"]!, insertInto: writer)
            first.setValue("first", forKey: "name")
            first.setValue([songs[2], songs[0], songs[1]], forKey: "songs")
            let second = ManagedObject(entity: model["Playlist"]!, insertInto: writer)
            second.setValue("second", forKey: "name")
            second.setValue([songs[1], songs[2]], forKey: "songs")
            try writer.save()
        }
        let joinTable = try tableSQL(url.path, "Z_1SONGS")
        #expect(joinTable.contains("Z_1PLAYLISTS INTEGER, Z_2SONGS INTEGER, Z_FOK_2SONGS INTEGER"), "\(joinTable)")
        let reader = try sqliteContext(model, at: url)
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Playlist", sortDescriptors: [ObjectSortDescriptor(key: "name")])
            let playlists = try reader.fetch(request)
            let titles = playlists.map { playlist in
                (playlist.value(forKey: "songs") as? OrderedSet<ManagedObject>)?.map { $0.value(forKey: "title") as? String ?? "" }
            }
            #expect(titles == [["c", "a", "b"], ["b", "c"]])
            let song = try #require(try reader.fetch(FetchRequest<ManagedObject>(
                entityName: "Song", predicate: ObjectPredicate("title == 'c'"))).first)
            #expect((song.value(forKey: "playlists") as? Set<ManagedObject>)?.count == 2)
        }
    }

    @Test("a value the file cannot hold fails the whole save with 1550, naming the attribute; nothing is written")
    func unstorableValueFailsTheSave() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.sqlite")
        let context = try sqliteContext(model, at: url)
        try context.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: context)
            owner.setValue("kept back", forKey: "name")
            let sample = ManagedObject(entity: model["Sample"]!, insertInto: context)
            // Not one of Foundation's plist types: the default transformer cannot archive it.
            sample.setValue(UnarchivableValue(), forKey: "archived")
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.code == .validation && error.key == "archived")
            #expect(context.hasChanges)
            #expect(try rawSQL(url.path, "SELECT (SELECT COUNT(*) FROM ZOWNER) + (SELECT COUNT(*) FROM ZSAMPLE)") == "0")
            sample.setValue(Data([1]), forKey: "archived")
            try context.save()
        }
        #expect(try rawSQL(url.path, "SELECT ZNAME FROM ZOWNER") == "kept back")
        #expect(try rawSQL(url.path, "SELECT COUNT(*), substr(hex(ZARCHIVED), 1, 16) FROM ZSAMPLE") == "1|62706C6973743030")
    }

    private struct UnarchivableValue {}
}
