import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import ModelFileLoading
import Testing

/// Transformable attributes through value transformers: the default
/// `NSSecureUnarchiveFromData` (keyed archives) and a custom one by name, in every store,
/// saved and read back by a second stack on the same store; an unknown name and hostile
/// archives as clear errors naming attribute and object; archives Core Data wrote.
@Suite("Value transformers")
struct ValueTransformerTests {
    /// Reverses the bytes of a UTF-8 string: a custom transformer a model names.
    final class ReversedTextTransformer: ValueTransformer, @unchecked Sendable {
        override class func transformedValueClass() -> AnyClass { NSData.self }
        override func transformedValue(_ value: Any?) -> Any? {
            (value as? String).map { Data($0.utf8.reversed()) }
        }
        override func reverseTransformedValue(_ value: Any?) -> Any? {
            (value as? Data).flatMap { String(data: Data($0.reversed()), encoding: .utf8) }
        }
    }

    static let customName = ValueTransformerName("ValueTransformerTests.ReversedText")

    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Shelf", attributes: [
            Attribute(name: "title", type: .string, isOptional: true),
            Attribute(name: "list", type: .transformable, isOptional: true, customClassName: "[String]"),
            Attribute(name: "counts", type: .transformable, isOptional: true, customClassName: "[String: Int]"),
            Attribute(name: "when", type: .transformable, isOptional: true, valueTransformerName: "NSSecureUnarchiveFromData"),
            Attribute(name: "nested", type: .transformable, isOptional: true),
            Attribute(name: "custom", type: .transformable, isOptional: true, valueTransformerName: customName.rawValue),
        ]),
        Entity(name: "Unknown", attributes: [
            Attribute(name: "colors", type: .transformable, isOptional: true, valueTransformerName: "ValueTransformerTests.NoSuchTransformer"),
        ]),
    ]))

    init() {
        ValueTransformer.setValueTransformer(ReversedTextTransformer(), forName: Self.customName)
    }

    @Test("the registry has Core Data's default and what is registered")
    func registry() throws {
        #expect(ValueTransformer.valueTransformerNames().contains(.secureUnarchiveFromDataTransformerName))
        #expect(ValueTransformer.valueTransformerNames().contains(Self.customName))
        let name = ValueTransformerName("ValueTransformerTests.Removed")
        ValueTransformer.setValueTransformer(ValueTransformer(), forName: name)
        #expect(ValueTransformer.valueTransformer(forName: name) != nil)
        ValueTransformer.setValueTransformer(nil, forName: name)
        #expect(ValueTransformer.valueTransformer(forName: name) == nil)
        let secure = try #require(ValueTransformer.valueTransformer(forName: .secureUnarchiveFromDataTransformerName))
        #expect(type(of: secure).allowsReverseTransformation())
        #expect(type(of: secure).transformedValueClass() == NSData.self)
        let data = try #require(secure.transformedValue(["a", "b"]) as? Data)
        #expect(secure.reverseTransformedValue(data) as? [String] == ["a", "b"])
        #expect(secure.reverseTransformedValue(Data("junk".utf8)) == nil)
    }

    @Test("a [String], a [String: Int], a Date, a nested array and a custom transformer's value read back from a second stack",
          arguments: StoreKind.allCases)
    func roundTrip(_ kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let date = Date(timeIntervalSinceReferenceDate: 786_000_123.25)
        let writer = try makeContainer(Self.model, kind: kind, files: files).newBackgroundContext()
        try writer.performAndWait {
            let shelf = ManagedObject(entity: Self.model["Shelf"]!, insertInto: writer)
            shelf.setValue("first", forKey: "title")
            shelf.setValue(["The Trial", "Amerika", ""], forKey: "list")
            shelf.setValue(["a": 1, "b": -2_000_000_000_000] as [String: Int], forKey: "counts")
            shelf.setValue(date, forKey: "when")
            shelf.setValue([["x"], ["y", "z"], []] as [[String]], forKey: "nested")
            shelf.setValue("Kafka", forKey: "custom")
            try writer.save()
        }
        // A second stack on the same store: on the in-memory store, a new context of the same
        // stack (nothing else can reach it).
        let readerContainer = kind == .inMemory ? nil : try makeContainer(Self.model, kind: kind, files: files)
        let reader = readerContainer?.newBackgroundContext()
            ?? ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: writer.persistentStoreCoordinator)
        try reader.performAndWait {
            let shelf = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Shelf")).first)
            #expect(shelf.value(forKey: "list") as? [String] == ["The Trial", "Amerika", ""])
            #expect(shelf.value(forKey: "counts") as? [String: Int] == ["a": 1, "b": -2_000_000_000_000])
            #expect(shelf.value(forKey: "when") as? Date == date)
            #expect(shelf.value(forKey: "nested") as? [[String]] == [["x"], ["y", "z"], []])
            #expect(shelf.value(forKey: "custom") as? String == "Kafka")
        }
        guard kind == .sqlite else { return }
        // The cells, read outside the store: keyed archives Foundation's own unarchiver reads,
        // and the custom transformer's bytes.
        let path = files.file("Test.sqlite").path
        let cells = try DatabaseQueue(path: path).read { db in
            try Row.fetchOne(db, sql: "SELECT ZLIST, ZCOUNTS, ZWHEN, ZNESTED, ZCUSTOM FROM ZSHELF")
        }
        let row = try #require(cells)
        func reference(_ column: String) throws -> Any? {
            let data = try #require(row[column] as Data?)
            #expect(data.starts(with: Data("bplist00".utf8)))
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = true
            return unarchiver.decodeObject(
                of: [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSDate.self], forKey: NSKeyedArchiveRootObjectKey)
        }
        #expect(try reference("ZLIST") as? [String] == ["The Trial", "Amerika", ""])
        #expect(try reference("ZCOUNTS") as? [String: Int] == ["a": 1, "b": -2_000_000_000_000])
        #expect(try reference("ZWHEN") as? Date == date)
        #expect(try reference("ZNESTED") as? [[String]] == [["x"], ["y", "z"], []])
        #expect(row["ZCUSTOM"] as Data? == Data("akfaK".utf8))
    }

    @Test("a model naming a transformer nobody registered: save and read fail naming attribute and object")
    func unknownTransformer() throws {
        let files = try TemporaryDirectory()
        let url = files.file("Unknown.sqlite")
        let context = try sqliteContext(Self.model, at: url)
        try context.performAndWait {
            let object = ManagedObject(entity: Self.model["Unknown"]!, insertInto: context)
            object.setValue(["red"], forKey: "colors")
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.key == "colors")
            #expect(error.message.contains("ValueTransformerTests.NoSuchTransformer"))
            #expect(error.message.contains("x-coredata://") && error.message.contains("/Unknown/p"))
        }
        // A cell another program wrote reads as an error too, never as a trap.
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "INSERT INTO ZUNKNOWN (Z_PK, Z_ENT, Z_OPT, ZCOLORS) VALUES (7, 2, 1, X'0102')")
        }
        let reader = try sqliteContext(Self.model, at: url)
        try reader.performAndWait {
            let error = try #require(throws: ManagedObjectError.self) {
                try reader.fetch(FetchRequest<ManagedObject>(entityName: "Unknown"))
            }
            #expect(error.key == "colors" && error.message.contains("/Unknown/p7"))
        }
    }

    @Test("a value that is not of Foundation's plist types fails the save with 1550 naming attribute and object")
    func unarchivableValue() throws {
        struct Opaque {}
        let files = try TemporaryDirectory()
        let context = try sqliteContext(Self.model, at: files.file("Opaque.sqlite"))
        try context.performAndWait {
            let shelf = ManagedObject(entity: Self.model["Shelf"]!, insertInto: context)
            shelf.setValue([Opaque()], forKey: "list")
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.code == .validation && error.key == "list")
            #expect(error.message.contains("Opaque") && error.message.contains("/Shelf/p"))
        }
    }

    @Test("hostile and truncated archives in the store are errors naming attribute and object, never a trap")
    func hostileArchives() throws {
        let files = try TemporaryDirectory()
        let url = files.file("Hostile.sqlite")
        let context = try sqliteContext(Self.model, at: url)
        try context.performAndWait {
            _ = ManagedObject(entity: Self.model["Shelf"]!, insertInto: context)
            try context.save()
        }
        for (what, data) in HostileArchives.cases() {
            try DatabaseQueue(path: url.path).write { db in
                try db.execute(sql: "UPDATE ZSHELF SET ZLIST = ?", arguments: [data])
            }
            let reader = try sqliteContext(Self.model, at: url)
            try reader.performAndWait {
                let error = try #require(throws: ManagedObjectError.self, "\(what)") {
                    try reader.fetch(FetchRequest<ManagedObject>(entityName: "Shelf"))
                }
                #expect(error.key == "list" && error.message.contains("/Shelf/p1"), "\(what): \(error)")
            }
        }
    }

    @Test("the secure reader refuses a class not allowed and names it")
    func refusesClassNotAllowed() throws {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["a"], requiringSecureCoding: true)
        final class StringsOnly: SecureUnarchiveFromDataTransformer, @unchecked Sendable {
            override class var allowedTopLevelClasses: [AnyClass] { [NSString.self] }
        }
        let error = try #require(throws: KeyedArchiveError.self) { try StringsOnly().unarchive(archive) }
        #expect(error.message.contains("NSArray") && error.message.contains("not allowed"))
        #expect(try SecureUnarchiveFromDataTransformer().unarchive(archive) as? [String] == ["a"])
    }

    @Test("BookMigration's ZFILEURL archives (Core Data, framework 419) read as the strings Foundation's unarchiver finds")
    func coreDataArchives() throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("hwaxxer__BookMigration/Model1.sqlite", into: directory)
        let bundle = RealSQLiteStoreTests.shared.appendingPathComponent("corpus/hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld")
        let model = try ManagedObjectModel(contentsOf: bundle, versionName: "Model1")
        // Independently: the raw cells, decoded by Foundation's unarchiver.
        let cells = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }()).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZFILEURL FROM ZBOOK WHERE ZFILEURL IS NOT NULL")
                .map { (($0["Z_PK"] as Int64?) ?? 0, ($0["ZFILEURL"] as Data?) ?? Data()) }
        }
        #expect(cells.count == 4)
        var expected: [Int64: String] = [:]
        for (key, data) in cells {
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = true
            expected[key] = try #require(unarchiver.decodeObject(of: [NSString.self], forKey: NSKeyedArchiveRootObjectKey) as? String)
        }
        #expect(expected.values.contains("The Trial.file"))
        let context = try sqliteContext(model, at: url)
        let read = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).compactMap { book in
                (book.value(forKey: "fileURL") as? String).map { (book.objectID.storeNumber ?? 0, $0) }
            }
        }
        #expect(Dictionary(uniqueKeysWithValues: read) == expected)
    }
}
