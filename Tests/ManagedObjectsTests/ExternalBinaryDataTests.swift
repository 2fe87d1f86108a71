import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// Binary attributes that allow external storage in the SQLite store, as Core Data keeps them
/// (``ExternalBinaryData``): up to 128 KiB in the cell after the marker `0x01`, larger in a file
/// of `.<Store>_SUPPORT/_EXTERNAL_DATA` named by the cell (`0x02`, the UUID, NUL); Core Data's
/// file-backed futures (`0x03`) read from `_FBF`. New files are
/// written before the save commits; the files a save replaces or deletes go after it commits; a
/// save that fails leaves no new file.
@Suite("External binary data")
struct ExternalBinaryDataTests {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Photo", attributes: [
            Attribute(name: "title", type: .string, isOptional: true),
            Attribute(name: "image", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            Attribute(name: "thumbnail", type: .binary, isOptional: true),
        ], uniquenessConstraints: [["title"]]),
    ]))

    /// `count` bytes that differ from one value to the next.
    static func bytes(_ count: Int, seed: UInt8 = 1) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02X", $0) }.joined() }

    /// A store file and its external-data folder in a temporary directory.
    final class Fixture {
        let directory: TemporaryDirectory
        let url: URL

        init(name: String = "Photos.sqlite") throws {
            directory = try TemporaryDirectory()
            url = directory.file(name)
        }

        /// `.Photos_SUPPORT/_EXTERNAL_DATA`, as Core Data names it.
        var externalDirectory: URL {
            directory.url.appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA")
        }

        var files: Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: externalDirectory.path)) ?? []))
        }

        /// A new stack on the store each time: what it reads comes from the file.
        func context(_ model: ManagedObjectModel = ExternalBinaryDataTests.model) throws -> ManagedObjectContext {
            try sqliteContext(model, at: url)
        }

        func insert(_ values: [String: Data?], title: String) throws {
            let context = try context()
            try context.performAndWait {
                let photo = ManagedObject(entity: ExternalBinaryDataTests.model["Photo"]!, insertInto: context)
                photo.setValue(title, forKey: "title")
                for (key, value) in values { photo.setValue(value, forKey: key) }
                try context.save()
            }
        }

        /// `key` of the photo titled `title`, read by a new stack.
        func value(_ key: String, title: String, model: ManagedObjectModel = ExternalBinaryDataTests.model) throws -> Data? {
            let context = try context(model)
            return try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Photo")
                request.predicate = ObjectPredicate("title == %@", title)
                return try #require(try context.fetch(request).first).value(forKey: key) as? Data
            }
        }

        /// Changes the photo titled `title` through a new stack.
        func update(title: String, _ body: (ManagedObject, ManagedObjectContext) throws -> Void) throws {
            let context = try context()
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Photo")
                request.predicate = ObjectPredicate("title == %@", title)
                try body(try #require(try context.fetch(request).first), context)
                try context.save()
            }
        }

        /// The image cell of the photo titled `title`, as an outside reader of the file sees it.
        func imageCell(title: String) throws -> String {
            try rawSQL(url.path, "SELECT ZIMAGE FROM ZPHOTO WHERE ZTITLE = '\(title)'")
        }
    }

    /// The file name an external cell (as hex) names: marker 02, 36 ASCII characters, NUL.
    static func externalName(ofHexCell cell: String) throws -> String {
        try #require(cell.count == 2 * 38 && cell.hasPrefix("02") && cell.hasSuffix("00"), "not an external cell: \(cell.prefix(20))…")
        let bytes = stride(from: 2, to: cell.count - 2, by: 2).map { offset -> UInt8 in
            let start = cell.index(cell.startIndex, offsetBy: offset)
            return UInt8(cell[start..<cell.index(start, offsetBy: 2)], radix: 16)!
        }
        return try #require(String(bytes: bytes, encoding: .ascii))
    }

    @Test("values of every size read back from a reopened store: nil, empty, small, 128 KiB inline, one byte more and 3 MB in files")
    func roundTrip() throws {
        let fixture = try Fixture()
        let sizes = [0, 1, 1000, ExternalBinaryData.inlineLimit, ExternalBinaryData.inlineLimit + 1, 3_000_000]
        for (number, size) in sizes.enumerated() {
            try fixture.insert(["image": Self.bytes(size, seed: UInt8(number)), "thumbnail": Self.bytes(size, seed: UInt8(number + 100))], title: "p\(size)")
        }
        try fixture.insert(["image": nil], title: "none")
        for (number, size) in sizes.enumerated() {
            #expect(try fixture.value("image", title: "p\(size)") == Self.bytes(size, seed: UInt8(number)), "image of \(size) bytes")
            #expect(try fixture.value("thumbnail", title: "p\(size)") == Self.bytes(size, seed: UInt8(number + 100)), "thumbnail of \(size) bytes")
        }
        #expect(try fixture.value("image", title: "none") == nil)
        #expect(try rawSQL(fixture.url.path, "SELECT ZIMAGE IS NULL FROM ZPHOTO WHERE ZTITLE = 'none'") == "1")
        #expect(fixture.files.count == 2)
    }

    @Test("small and large values read back from a second stack on every store kind (PostgreSQL keeps them in bytea, in memory as set)",
          arguments: StoreKind.allCases)
    func roundTripOnEveryStore(_ kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let values = [Self.bytes(10), Self.bytes(ExternalBinaryData.inlineLimit + 1, seed: 2), Self.bytes(1_000_000, seed: 3)]
        let writer = try makeContainer(Self.model, kind: kind, files: files)
        let context = writer.newBackgroundContext()
        try context.performAndWait {
            for (number, value) in values.enumerated() {
                let photo = ManagedObject(entity: Self.model["Photo"]!, insertInto: context)
                photo.setValue("p\(number)", forKey: "title")
                photo.setValue(value, forKey: "image")
            }
            try context.save()
        }
        // On the in-memory store, a new context of the same stack (nothing else reaches it).
        let reader = (kind == .inMemory ? writer : try makeContainer(Self.model, kind: kind, files: files)).newBackgroundContext()
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            request.sortDescriptors = [ObjectSortDescriptor(key: "title", ascending: true)]
            let images = try reader.fetch(request).map { $0.value(forKey: "image") as? Data }
            #expect(images == values)
        }
        if kind == .sqlite {
            #expect(try FileManager.default.contentsOfDirectory(atPath: files.url.appendingPathComponent(".Test_SUPPORT/_EXTERNAL_DATA").path).count == 2)
        }
    }

    @Test("the cells as Core Data writes them: 01 and the bytes up to 128 KiB; 02, the file's UUID and NUL above, the file holding the bytes")
    func cellFormat() throws {
        let fixture = try Fixture()
        let small = Self.bytes(300)
        let limit = Self.bytes(ExternalBinaryData.inlineLimit, seed: 7)
        let large = Self.bytes(ExternalBinaryData.inlineLimit + 1, seed: 9)
        try fixture.insert(["image": small, "thumbnail": small], title: "small")
        try fixture.insert(["image": limit], title: "limit")
        try fixture.insert(["image": large, "thumbnail": large], title: "large")
        try fixture.insert(["image": Data()], title: "empty")

        #expect(try fixture.imageCell(title: "small") == "01" + Self.hex(small))
        #expect(try fixture.imageCell(title: "limit") == "01" + Self.hex(limit))
        #expect(try fixture.imageCell(title: "empty") == "01")
        // A Binary attribute without external storage keeps the bytes alone, at any size.
        #expect(try rawSQL(fixture.url.path, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZTITLE = 'small'") == Self.hex(small))
        #expect(try rawSQL(fixture.url.path, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZTITLE = 'large'") == Self.hex(large))

        let name = try Self.externalName(ofHexCell: try fixture.imageCell(title: "large"))
        #expect(UUID(uuidString: name) != nil && name == name.uppercased(), "an upper-case UUID: \(name)")
        #expect(fixture.files == [name])
        #expect(try Data(contentsOf: fixture.externalDirectory.appendingPathComponent(name)) == large)
    }

    @Test("cells Core Data wrote read as Core Data reads them: inline, external by name up to the NUL, zero-length")
    func readsCoreDataCells() throws {
        let fixture = try Fixture()
        try fixture.insert([:], title: "inline")
        try fixture.insert([:], title: "external")
        try fixture.insert([:], title: "zero")
        let large = Self.bytes(200_000, seed: 3)
        let name = "0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0"
        try FileManager.default.createDirectory(at: fixture.externalDirectory, withIntermediateDirectories: true)
        try large.write(to: fixture.externalDirectory.appendingPathComponent(name))
        let queue = try DatabaseQueue(path: fixture.url.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'inline'", arguments: [Data([1, 0xCA, 0xFE])])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'external'", arguments: [Data([2]) + Data(name.utf8) + Data([0])])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'zero'", arguments: [Data()])
        }
        try queue.close()
        #expect(try fixture.value("image", title: "inline") == Data([0xCA, 0xFE]))
        #expect(try fixture.value("image", title: "external") == large)
        #expect(try fixture.value("image", title: "zero") == Data())
    }

    /// A file-backed future's cell as `_NSDataFileBackedFuture _storeMetadata` lays it out:
    /// `03 23 23 23`, the size (8 bytes, little-endian), the UUID's 16 bytes, its string.
    static func fileBackedFutureCell(uuid: UUID, size: Int) -> Data {
        var cell = Data([0x03, 0x23, 0x23, 0x23])
        cell.append(contentsOf: (0..<8).map { UInt8(truncatingIfNeeded: UInt64(size) >> (8 * $0)) })
        cell.append(contentsOf: withUnsafeBytes(of: uuid.uuid) { Array($0) })
        cell.append(contentsOf: Array(uuid.uuidString.utf8))
        return cell
    }

    @Test("a file-backed future cell (0x03) Core Data wrote reads its file in _FBF; kept by an unrelated update; a missing file, a wrong size or a short cell is an error")
    func fileBackedFutureCells() throws {
        let fixture = try Fixture()
        try fixture.insert([:], title: "future")
        try fixture.insert([:], title: "small future")
        let large = Self.bytes(300_000, seed: 5)
        let small = Self.bytes(40, seed: 6)
        let futures = fixture.directory.url.appendingPathComponent(".Photos_SUPPORT/_FBF")
        try FileManager.default.createDirectory(at: futures, withIntermediateDirectories: true)
        let uuid = UUID(uuidString: "6A2F1C3D-4B5E-4F60-8172-93A4B5C6D7E8")!
        let smallUUID = UUID(uuidString: "0F1E2D3C-4B5A-4968-8776-655443322110")!
        try large.write(to: futures.appendingPathComponent(uuid.uuidString))
        try small.write(to: futures.appendingPathComponent(smallUUID.uuidString))
        let cell = Self.fileBackedFutureCell(uuid: uuid, size: large.count)
        let smallCell = Self.fileBackedFutureCell(uuid: smallUUID, size: small.count)
        #expect(cell.count == 64)
        let queue = try DatabaseQueue(path: fixture.url.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'future'", arguments: [cell])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'small future'", arguments: [smallCell])
        }
        #expect(try fixture.value("image", title: "future") == large)
        #expect(try fixture.value("image", title: "small future") == small)

        // Another attribute changed: the cells stay Core Data's, and the files stay.
        try fixture.update(title: "future") { photo, _ in photo.setValue(Data([9]), forKey: "thumbnail") }
        try fixture.update(title: "small future") { photo, _ in photo.setValue(Data([9]), forKey: "thumbnail") }
        #expect(try fixture.imageCell(title: "future") == Self.hex(cell))
        #expect(try fixture.imageCell(title: "small future") == Self.hex(smallCell))
        #expect(fixture.files.isEmpty, "no copy in _EXTERNAL_DATA: \(fixture.files)")

        // The value replaced: the new cell is this store's own (inline here); Core Data's file is left.
        try fixture.update(title: "small future") { photo, _ in photo.setValue(Data([1, 2]), forKey: "image") }
        #expect(try fixture.imageCell(title: "small future") == "010102")
        #expect(FileManager.default.fileExists(atPath: futures.appendingPathComponent(smallUUID.uuidString).path))

        // A size that is not the file's, a missing file, a cell too short for its header.
        try queue.write { db in
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'future'",
                           arguments: [Self.fileBackedFutureCell(uuid: uuid, size: large.count - 1)])
        }
        let wrongSize = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "future") }
        #expect(wrongSize.message.contains(uuid.uuidString) && wrongSize.message.contains("\(large.count - 1)"))
        #expect(wrongSize.key == "image" && wrongSize.objectID != nil)
        try queue.write { db in try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'future'", arguments: [cell]) }
        try FileManager.default.removeItem(at: futures.appendingPathComponent(uuid.uuidString))
        let missing = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "future") }
        #expect(missing.message.contains(futures.appendingPathComponent(uuid.uuidString).path))
        try queue.write { db in
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'future'", arguments: [Data(cell.prefix(27))])
        }
        let short = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "future") }
        #expect(short.message.contains("no file-backed future"))
        try queue.write { db in
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'future'", arguments: [Data([4]) + cell.dropFirst()])
        }
        try queue.close()
        let unknown = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "future") }
        #expect(unknown.message.contains("0x04"))
    }

    @Test("an update replacing a file removes the old one after the save; an unchanged value keeps its file; a small value goes inline")
    func updates() throws {
        let fixture = try Fixture()
        let first = Self.bytes(500_000, seed: 1)
        let second = Self.bytes(600_000, seed: 2)
        try fixture.insert(["image": first], title: "a")
        let firstName = try Self.externalName(ofHexCell: try fixture.imageCell(title: "a"))

        // Another attribute changes: the image's cell and file stay.
        try fixture.update(title: "a") { photo, _ in photo.setValue(Self.bytes(10), forKey: "thumbnail") }
        #expect(try Self.externalName(ofHexCell: try fixture.imageCell(title: "a")) == firstName)
        #expect(fixture.files == [firstName])

        // The same bytes set again: no new file either.
        try fixture.update(title: "a") { photo, _ in photo.setValue(Data(first), forKey: "image") }
        #expect(fixture.files == [firstName])

        try fixture.update(title: "a") { photo, _ in photo.setValue(second, forKey: "image") }
        let secondName = try Self.externalName(ofHexCell: try fixture.imageCell(title: "a"))
        #expect(secondName != firstName)
        #expect(fixture.files == [secondName])
        #expect(try fixture.value("image", title: "a") == second)

        try fixture.update(title: "a") { photo, _ in photo.setValue(Self.bytes(5), forKey: "image") }
        #expect(try fixture.imageCell(title: "a") == "01" + Self.hex(Self.bytes(5)))
        #expect(fixture.files.isEmpty)

        try fixture.update(title: "a") { photo, _ in photo.setValue(first, forKey: "image") }
        #expect(fixture.files.count == 1)
        try fixture.update(title: "a") { photo, _ in photo.setValue(nil, forKey: "image") }
        #expect(fixture.files.isEmpty)
        #expect(try fixture.value("image", title: "a") == nil)
    }

    @Test("deleting an object removes its file after the save")
    func deletion() throws {
        let fixture = try Fixture()
        try fixture.insert(["image": Self.bytes(400_000, seed: 4)], title: "gone")
        try fixture.insert(["image": Self.bytes(400_000, seed: 5)], title: "kept")
        let kept = try Self.externalName(ofHexCell: try fixture.imageCell(title: "kept"))
        #expect(fixture.files.count == 2)
        try fixture.update(title: "gone") { photo, context in context.delete(photo) }
        #expect(fixture.files == [kept])
        #expect(try fixture.value("image", title: "kept") == Self.bytes(400_000, seed: 5))
    }

    @Test("a save that fails (a uniqueness conflict) leaves no new file and the old ones in place")
    func failedSave() throws {
        let fixture = try Fixture()
        try fixture.insert(["image": Self.bytes(300_000, seed: 1)], title: "taken")
        let before = fixture.files
        #expect(before.count == 1)
        let context = try fixture.context()
        #expect(throws: ManagedObjectError.self) {
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Photo")
                let existing = try #require(try context.fetch(request).first)
                // The existing photo's file would be released, a new one written for each object.
                existing.setValue(Self.bytes(300_000, seed: 2), forKey: "image")
                let clash = ManagedObject(entity: Self.model["Photo"]!, insertInto: context)
                clash.setValue("taken", forKey: "title")
                clash.setValue(Self.bytes(300_000, seed: 3), forKey: "image")
                try context.save()
            }
        }
        #expect(fixture.files == before)
        #expect(try fixture.value("image", title: "taken") == Self.bytes(300_000, seed: 1))
    }

    @Test("a missing or unreadable file, or a cell naming no file, is an error naming the file, the attribute and the object")
    func missingFile() throws {
        let fixture = try Fixture()
        try fixture.insert(["image": Self.bytes(250_000)], title: "lost")
        let name = try Self.externalName(ofHexCell: try fixture.imageCell(title: "lost"))
        let file = fixture.externalDirectory.appendingPathComponent(name)

        try FileManager.default.removeItem(at: file)
        let missing = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "lost") }
        #expect(missing.message.contains(file.path))
        #expect(missing.key == "image" && missing.entityName == "Photo" && missing.objectID != nil)

        // Unreadable: a folder where the file should be; a named pipe (reading it would not end).
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let unreadable = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "lost") }
        #expect(unreadable.message.contains(file.path))
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o600) == 0)
        let pipe = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "lost") }
        #expect(pipe.message.contains(file.path) && pipe.message.contains("not a regular file"))

        // A name that would leave the folder, and a cell with neither marker.
        let queue = try DatabaseQueue(path: fixture.url.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ?", arguments: [Data([2]) + Data("../../Photos.sqlite".utf8) + Data([0])])
        }
        let escaping = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "lost") }
        #expect(escaping.message.contains("names no valid external file"))
        try queue.write { db in try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ?", arguments: [Data([7, 1, 2])]) }
        try queue.close()
        let unknown = try #require(throws: ManagedObjectError.self) { _ = try fixture.value("image", title: "lost") }
        #expect(unknown.message.contains("0x07"))
    }

    @Test("an inferred migration keeps the cells and the folder: the files read back, none is lost or left over")
    func inferredMigration() throws {
        let fixture = try Fixture()
        let large = Self.bytes(700_000, seed: 6)
        try fixture.insert(["image": large, "thumbnail": Self.bytes(3)], title: "kept")
        try fixture.insert(["image": Self.bytes(20)], title: "small")
        let name = try Self.externalName(ofHexCell: try fixture.imageCell(title: "kept"))
        let versions = ManagedObjectModelVersions(versions: [
            .init(name: "V1", model: Self.model),
            .init(name: "V2", model: ManagedObjectModel(Model(entities: [
                Entity(name: "Photo", attributes: [
                    Attribute(name: "title", type: .string, isOptional: true),
                    Attribute(name: "image", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
                    Attribute(name: "caption", type: .string, isOptional: true),
                ], uniquenessConstraints: [["title"]]),
            ]))),
        ])
        let context = try Self.openMigrating(fixture, versions: versions)
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            request.sortDescriptors = [ObjectSortDescriptor(key: "title", ascending: true)]
            let photos = try context.fetch(request)
            #expect(photos.map { $0.value(forKey: "image") as? Data } == [large, Self.bytes(20)])
        }
        #expect(fixture.files == [name])
    }

    /// V2: `thumbnail` allows external storage too.
    static let v2 = ManagedObjectModel(Model(entities: [
        Entity(name: "Photo", attributes: [
            Attribute(name: "title", type: .string, isOptional: true),
            Attribute(name: "image", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            Attribute(name: "thumbnail", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
        ], uniquenessConstraints: [["title"]]),
    ]))

    @Test("a migration through a mapping model copies the values into new files of the store's folder and removes the old ones")
    func mappingModelMigration() throws {
        let fixture = try Fixture()
        let large = Self.bytes(900_000, seed: 8)
        let thumbnail = Self.bytes(200_000, seed: 10)
        try fixture.insert(["image": large, "thumbnail": thumbnail], title: "moved")
        try fixture.insert(["image": Self.bytes(400_000, seed: 9)], title: "second")
        let before = fixture.files
        #expect(before.count == 2)
        let versions = ManagedObjectModelVersions(versions: [.init(name: "V1", model: Self.model), .init(name: "V2", model: Self.v2)])
        let mapping = MappingModel(from: "V1", to: "V2", entityMappings: [
            EntityMapping(name: "PhotoToPhoto", sourceEntityName: "Photo", destinationEntityName: "Photo"),
        ])
        let context = try Self.openMigrating(fixture, versions: versions) { $0.mappingModels = [mapping] }
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            request.predicate = ObjectPredicate("title == %@", "moved")
            let photo = try #require(try context.fetch(request).first)
            #expect(photo.value(forKey: "image") as? Data == large)
            #expect(photo.value(forKey: "thumbnail") as? Data == thumbnail)
        }
        let after = fixture.files
        #expect(after.count == 3 && after.isDisjoint(with: before), "new files for the new store, the old ones gone: \(before) → \(after)")
        let thumbnailCell = try rawSQL(fixture.url.path, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZTITLE = 'moved'")
        #expect(after.contains(try Self.externalName(ofHexCell: thumbnailCell)))
    }

    @Test("an inferred migration converts a column whose attribute starts or stops allowing external storage")
    func inferredMigrationOfToggledFlag() throws {
        let fixture = try Fixture()
        let image = Self.bytes(500_000, seed: 1)
        let thumbnail = Self.bytes(200_000, seed: 2)
        try fixture.insert(["image": image, "thumbnail": thumbnail], title: "big")
        try fixture.insert(["image": Self.bytes(50), "thumbnail": Self.bytes(60)], title: "small")
        let imageFile = try Self.externalName(ofHexCell: try fixture.imageCell(title: "big"))

        // V1 → V2: `thumbnail` starts allowing external storage.
        let up = ManagedObjectModelVersions(versions: [.init(name: "V1", model: Self.model), .init(name: "V2", model: Self.v2)])
        _ = try Self.openMigrating(fixture, versions: up)
        let thumbnailFile = try Self.externalName(ofHexCell: try rawSQL(fixture.url.path, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZTITLE = 'big'"))
        #expect(try rawSQL(fixture.url.path, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZTITLE = 'small'") == "01" + Self.hex(Self.bytes(60)))
        #expect(fixture.files == [imageFile, thumbnailFile])
        #expect(try fixture.value("thumbnail", title: "big", model: Self.v2) == thumbnail)

        // V2 → V3 (V1's attributes again, another hash): it stops; its file goes.
        let v3 = ManagedObjectModel(Model(entities: [
            Entity(name: "Photo", versionHashModifier: "3", attributes: Self.model["Photo"]!.entity.attributes,
                   uniquenessConstraints: [["title"]]),
        ]))
        let down = ManagedObjectModelVersions(versions: [.init(name: "V2", model: Self.v2), .init(name: "V3", model: v3)])
        _ = try Self.openMigrating(fixture, versions: down)
        #expect(try rawSQL(fixture.url.path, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZTITLE = 'big'") == Self.hex(thumbnail))
        #expect(try rawSQL(fixture.url.path, "SELECT ZTHUMBNAIL FROM ZPHOTO WHERE ZTITLE = 'small'") == Self.hex(Self.bytes(60)))
        #expect(fixture.files == [imageFile])
        #expect(try fixture.value("image", title: "big", model: v3) == image)
    }

    @Test("batch insert, update and delete write and remove cells and files as a save does")
    func batchRequests() throws {
        let fixture = try Fixture()
        let large = Self.bytes(300_000, seed: 1)
        let context = try fixture.context()
        try context.performAndWait {
            _ = try context.execute(BatchInsertRequest(entityName: "Photo", objects: [
                ["title": "big", "image": large], ["title": "small", "image": Self.bytes(9)], ["title": "none"],
            ]))
        }
        let first = try Self.externalName(ofHexCell: try fixture.imageCell(title: "big"))
        #expect(try fixture.imageCell(title: "small") == "01" + Self.hex(Self.bytes(9)))
        #expect(fixture.files == [first])
        #expect(try fixture.value("image", title: "big") == large)

        // One constant for several rows: a file for each, the replaced one removed.
        let replacement = Self.bytes(310_000, seed: 2)
        try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Photo")
            update.predicate = ObjectPredicate("title IN %@", ["big", "none"])
            update.propertiesToUpdate = ["image": replacement]
            _ = try context.execute(update)
        }
        let names = [try Self.externalName(ofHexCell: try fixture.imageCell(title: "big")),
                     try Self.externalName(ofHexCell: try fixture.imageCell(title: "none"))]
        #expect(Set(names).count == 2 && fixture.files == Set(names))
        #expect(try fixture.value("image", title: "none") == replacement)

        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            request.predicate = ObjectPredicate("title == %@", "big")
            _ = try context.execute(BatchDeleteRequest(fetchRequest: request))
        }
        #expect(fixture.files == [names[1]])
        #expect(try fixture.value("image", title: "none") == replacement)
    }

    /// A context of a container opening the fixture's store with the last version, migrating.
    static func openMigrating(
        _ fixture: Fixture, versions: ManagedObjectModelVersions, configure: (inout PersistentStoreDescription) -> Void = { _ in }
    ) throws -> ManagedObjectContext {
        let container = PersistentContainer(name: "Photos", managedObjectModel: try #require(versions.versions.last).model)
        var description = PersistentStoreDescription(url: fixture.url)
        description.modelVersions = versions
        configure(&description)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        return container.newBackgroundContext()
    }
}
