import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// The Transformable values apps keep: a `[String]`, a `[String: Any]` dictionary and a Swift
/// `Codable` struct (through `CodableValueTransformer`), saved and read back on every store
/// type, and on SQLite read by a new process (this test binary run again, as `childReader`).
@Suite("Transformable types")
struct TransformableTypesTests {
    /// An app's own value type, stored as JSON.
    struct ShelfDimensions: Codable, Equatable, Sendable {
        var width: Double
        var height: Double
        var label: String
        var boards: [Int]
    }

    static let model: ManagedObjectModel = {
        CodableValueTransformer<ShelfDimensions>.register(forClassName: "ShelfDimensions")
        return ManagedObjectModel(Model(entities: [
            Entity(name: "Catalogue", attributes: [
                Attribute(name: "title", type: .string, isOptional: true),
                // As Xcode writes it when the editor's transformer is picked: the class name.
                Attribute(name: "titles", type: .transformable, isOptional: true, customClassName: "[String]",
                          valueTransformerName: "NSSecureUnarchiveFromDataTransformer"),
                Attribute(name: "details", type: .transformable, isOptional: true, customClassName: "[String: Any]"),
                Attribute(name: "dimensions", type: .transformable, isOptional: true, customClassName: "ShelfDimensions"),
            ]),
        ]))
    }()

    static let titles = ["Walden", "", "Ulysses", "Der Proceß", "🙂"]
    static let dimensions = ShelfDimensions(width: 80.5, height: 190, label: "oak, \"left\"", boards: [3, 0, -1])
    static let when = Date(timeIntervalSinceReferenceDate: 786_000_000.5)
    static var details: [String: Any] {
        ["count": 3, "name": "oak", "ratio": 0.25, "open": true, "when": when, "nested": ["a": ["x", "y"]], "empty": [String]()]
    }

    /// What a reader found, in a form two processes can compare.
    struct Found: Codable, Equatable {
        var titles: [String]?
        var dimensions: ShelfDimensions?
        var detailCount: Int?
        var detailName: String?
        var detailRatio: Double?
        var detailOpen: Bool?
        var detailWhen: Date?
        var detailNested: [String: [String]]?
        var detailEmpty: [String]?
        var detailKeys: [String]?
    }

    static let expected = Found(
        titles: titles, dimensions: dimensions, detailCount: 3, detailName: "oak", detailRatio: 0.25, detailOpen: true,
        detailWhen: when, detailNested: ["a": ["x", "y"]], detailEmpty: [],
        detailKeys: ["count", "empty", "name", "nested", "open", "ratio", "when"])

    static func write(into context: ManagedObjectContext) throws {
        try context.performAndWait {
            let catalogue = ManagedObject(entity: model["Catalogue"]!, insertInto: context)
            catalogue.setValue("first", forKey: "title")
            catalogue.setValue(titles, forKey: "titles")
            catalogue.setValue(details, forKey: "details")
            catalogue.setValue(dimensions, forKey: "dimensions")
            try context.save()
        }
    }

    static func read(from context: ManagedObjectContext) throws -> Found {
        try context.performAndWait {
            let catalogue = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Catalogue")).first)
            let details = catalogue.value(forKey: "details") as? [String: Any]
            return Found(
                titles: catalogue.value(forKey: "titles") as? [String],
                dimensions: catalogue.value(forKey: "dimensions") as? ShelfDimensions,
                detailCount: details?["count"] as? Int, detailName: details?["name"] as? String,
                detailRatio: details?["ratio"] as? Double, detailOpen: details?["open"] as? Bool,
                detailWhen: details?["when"] as? Date, detailNested: details?["nested"] as? [String: [String]],
                detailEmpty: details?["empty"] as? [String], detailKeys: details.map { $0.keys.sorted() })
        }
    }

    @Test("a [String], a [String: Any] and a Codable struct read back from a second stack", arguments: StoreKind.allCases)
    func roundTrip(_ kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let writer = try makeContainer(Self.model, kind: kind, files: files).newBackgroundContext()
        try Self.write(into: writer)
        // A second stack on the same store; on the in-memory store a new context of the same
        // stack (nothing else can reach it).
        let readerContainer = kind == .inMemory ? nil : try makeContainer(Self.model, kind: kind, files: files)
        let reader = readerContainer?.newBackgroundContext()
            ?? ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: writer.persistentStoreCoordinator)
        #expect(try Self.read(from: reader) == Self.expected)
        guard kind == .sqlite else { return }
        // The Codable cell is the struct's JSON, keys sorted; the others keyed archives.
        let cells = try DatabaseQueue(path: files.file("Test.sqlite").path).read { db in
            try Row.fetchOne(db, sql: "SELECT ZTITLES, ZDETAILS, ZDIMENSIONS FROM ZCATALOGUE")
        }
        let row = try #require(cells)
        #expect(row["ZDIMENSIONS"] as Data? == Data(#"{"boards":[3,0,-1],"height":190,"label":"oak, \"left\"","width":80.5}"#.utf8))
        #expect((row["ZTITLES"] as Data?)?.starts(with: Data("bplist00".utf8)) == true)
        #expect((row["ZDETAILS"] as Data?)?.starts(with: Data("bplist00".utf8)) == true)
    }

    static let childStoreVariable = "MANAGEDGEN_TRANSFORMABLE_CHILD_STORE"
    static let childReportVariable = "MANAGEDGEN_TRANSFORMABLE_CHILD_REPORT"

    @Test("an SQLite store written here reads back the same values in a new process")
    func newProcessReadsSQLite() throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(Self.model, kind: .sqlite, files: files)
        try Self.write(into: container.newBackgroundContext())
        let report = files.file("found.json")
        // This test binary again, running `childReader` alone on the store.
        let child = try ChildTestRun.run("TransformableTypesTests/childReader", environment: [
            Self.childStoreVariable: files.file("Test.sqlite").path, Self.childReportVariable: report.path,
        ])
        #expect(child.status == 0, "\(child.output)")
        let data = try #require(FileManager.default.contents(atPath: report.path), "the child wrote no report: \(child.output)")
        #expect(try JSONDecoder().decode(Found.self, from: data) == Self.expected)
    }

    /// The child process of `newProcessReadsSQLite`: opens the store it is given and writes what
    /// it read as JSON. Runs only there (the parent checks the report, so it cannot pass unseen).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childStoreVariable] != nil))
    func childReader() throws {
        let environment = ProcessInfo.processInfo.environment
        let store = URL(fileURLWithPath: try #require(environment[Self.childStoreVariable]))
        let report = URL(fileURLWithPath: try #require(environment[Self.childReportVariable]))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.model)
        try coordinator.addPersistentStore(type: .sqlite, at: store)
        let found = try Self.read(from: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator))
        try JSONEncoder().encode(found).write(to: report)
    }

    @Test("a value that is not the registered Codable type fails the save naming attribute and object")
    func wrongCodableValue() throws {
        let files = try TemporaryDirectory()
        let context = try makeContainer(Self.model, kind: .sqlite, files: files).newBackgroundContext()
        try context.performAndWait {
            let catalogue = ManagedObject(entity: Self.model["Catalogue"]!, insertInto: context)
            catalogue.setValue("not dimensions", forKey: "dimensions")
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.key == "dimensions")
            #expect(error.message.contains("CodableValueTransformer<ShelfDimensions>") && error.message.contains("/Catalogue/p"))
        }
    }

    @Test("a stored cell that is not the type's JSON is an error naming attribute and object")
    func corruptCodableCell() throws {
        let files = try TemporaryDirectory()
        let url = files.file("Test.sqlite")
        try Self.write(into: try makeContainer(Self.model, kind: .sqlite, files: files).newBackgroundContext())
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: #"UPDATE ZCATALOGUE SET ZDIMENSIONS = CAST('{"width":"wide"}' AS BLOB)"#)
        }
        let reader = try sqliteContext(Self.model, at: url)
        try reader.performAndWait {
            let error = try #require(throws: ManagedObjectError.self) {
                let catalogue = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Catalogue")).first
                _ = catalogue?.value(forKey: "dimensions")
            }
            #expect(error.key == "dimensions" && error.message.contains("/Catalogue/p1") && error.message.contains("ShelfDimensions"))
        }
    }
}
