import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Every kind of attribute issue 30 added, saved here and read back by a new process: composite
/// attributes (a nested one included), external binary data (a value kept inline and one kept in
/// a file), derived attributes (each kind of derivation) and Transformable values (`[String]`,
/// `[String: Any]`, a `Codable` struct). On SQLite and PostgreSQL the reader is this test binary
/// run again (`childReader`, through ``ChildTestRun``) on the same store; the in-memory store
/// dies with its process, so there the reader is a fresh coordinator and context given the same
/// `InMemoryStore` after the writing coordinator let go of it.
@Suite("Every attribute kind read back by a new process")
struct AttributeKindsNewProcessTests {
    /// An app's own value type, stored as JSON through `CodableValueTransformer`.
    struct Label: Codable, Equatable, Sendable {
        var text: String
        var colour: [Int]
    }

    static let model: ManagedObjectModel = {
        CodableValueTransformer<Label>.register(forClassName: "AttributeKindsLabel")
        let geo = Composite(name: "Geo", attributes: [
            Attribute(name: "latitude", type: .double, isOptional: true),
            Attribute(name: "longitude", type: .double, isOptional: true),
        ])
        let address = Composite(name: "Address", attributes: [
            Attribute(name: "city", type: .string, isOptional: true),
            Attribute(name: "zip", type: .integer32, isOptional: true),
            Attribute(name: "rent", type: .decimal, isOptional: true),
            Attribute(name: "since", type: .date, isOptional: true),
            Attribute(name: "geo", type: .composite, isOptional: true, composite: "Geo"),
        ])
        let shelf = Entity(
            name: "Shelf",
            attributes: [
                Attribute(name: "name", type: .string, isOptional: true),
                Attribute(name: "address", type: .composite, isOptional: true, composite: "Address"),
                Attribute(name: "photo", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
                Attribute(name: "lowerName", type: .string, isOptional: true, isDerived: true, derivationExpression: "lowercase:(name)"),
                Attribute(name: "searchName", type: .string, isOptional: true, isDerived: true, derivationExpression: "canonical:(name)"),
                Attribute(name: "bookCount", type: .integer64, isOptional: true, isDerived: true, derivationExpression: "books.@count"),
                Attribute(name: "totalPages", type: .integer64, isOptional: true, isDerived: true, derivationExpression: "books.@sum.pages"),
                Attribute(name: "savedAt", type: .date, isOptional: true, isDerived: true, derivationExpression: "now()"),
                Attribute(name: "titles", type: .transformable, isOptional: true, customClassName: "[String]",
                          valueTransformerName: "NSSecureUnarchiveFromDataTransformer"),
                Attribute(name: "details", type: .transformable, isOptional: true, customClassName: "[String: Any]"),
                Attribute(name: "label", type: .transformable, isOptional: true, customClassName: "AttributeKindsLabel"),
            ],
            relationships: [
                Relationship(name: "books", destinationEntity: "Book", inverseName: "shelf", inverseEntity: "Book",
                             isToMany: true, isOptional: true, deleteRule: .cascade),
            ])
        let book = Entity(
            name: "Book",
            attributes: [
                Attribute(name: "pages", type: .integer32, isOptional: true),
                Attribute(name: "shelfName", type: .string, isOptional: true, isDerived: true, derivationExpression: "shelf.name"),
            ],
            relationships: [
                Relationship(name: "shelf", destinationEntity: "Shelf", inverseName: "books", inverseEntity: "Shelf",
                             isOptional: true, minCount: 0, maxCount: 1),
            ])
        return ManagedObjectModel(Model(entities: [shelf, book], composites: [address, geo]))
    }()

    /// What one shelf holds, as written: its photo is below the inline limit for the first and
    /// above it (a file of the SQLite store's folder) for the second.
    struct Written {
        var name: String
        var address: [String: Any]?
        var photo: Data?
        var pages: [Int]
        var titles: [String]?
        var details: [String: Any]?
        var label: Label?
    }

    static var written: [Written] { [
        Written(
            name: "Émile's Oak", address: [
                "city": "Paris", "zip": 75001, "rent": Decimal(string: "1234.56")!,
                "since": Date(timeIntervalSinceReferenceDate: 700_000_000.25),
                "geo": ["latitude": 48.8606, "longitude": 2.3376],
            ],
            photo: ExternalBinaryDataTests.bytes(1_000, seed: 1), pages: [120, 80, 4],
            titles: ["Walden", "", "Der Proceß", "🙂"],
            details: ["count": 3, "ratio": 0.25, "name": "oak", "nested": ["a": ["x", "y"]]],
            label: Label(text: "oak, \"left\"", colour: [255, 0, 12])),
        Written(
            name: "PINE", address: ["city": "Lyon", "zip": 69002],
            photo: ExternalBinaryDataTests.bytes(ExternalBinaryData.inlineLimit + 50_000, seed: 2), pages: [],
            titles: [], details: [:], label: nil),
        Written(name: "Bare", address: nil, photo: nil, pages: [1], titles: nil, details: nil, label: nil),
    ] }

    /// What a reader found for one shelf, in a form two processes can compare.
    struct Found: Codable, Equatable {
        var address: String
        var photo: Data?
        var lowerName: String?
        var searchName: String?
        var bookCount: Int?
        var totalPages: Int?
        var savedAt: Date?
        var bookShelfNames: [String?]
        var titles: [String]?
        var details: String
        var label: Label?
    }

    /// The values as `written` says, the derived ones as the derivations give them; `savedAt`
    /// is the save's own clock, so it is what the writer read after its save.
    static func expected(savedAt: [String: Date]) -> [String: Found] {
        Dictionary(uniqueKeysWithValues: written.map { shelf in
            let search = shelf.name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            return (shelf.name, Found(
                address: CompositeAttributeTests.describe(shelf.address), photo: shelf.photo,
                lowerName: shelf.name.lowercased(), searchName: search,
                bookCount: shelf.pages.count, totalPages: shelf.pages.reduce(0, +), savedAt: savedAt[shelf.name],
                bookShelfNames: shelf.pages.map { _ in shelf.name }, titles: shelf.titles,
                details: CompositeAttributeTests.describe(shelf.details), label: shelf.label))
        })
    }

    /// Saves the shelves and their books; gives each shelf's `savedAt` as the save computed it.
    static func write(into context: ManagedObjectContext) throws -> [String: Date] {
        try context.performAndWait {
            var shelves: [String: ManagedObject] = [:]
            for shelf in written {
                let object = ManagedObject(entity: model["Shelf"]!, insertInto: context)
                object.setValue(shelf.name, forKey: "name")
                object.setValue(shelf.address, forKey: "address")
                object.setValue(shelf.photo, forKey: "photo")
                object.setValue(shelf.titles, forKey: "titles")
                object.setValue(shelf.details, forKey: "details")
                object.setValue(shelf.label, forKey: "label")
                for pages in shelf.pages {
                    let book = ManagedObject(entity: model["Book"]!, insertInto: context)
                    book.setValue(pages, forKey: "pages")
                    book.setValue(object, forKey: "shelf")
                }
                shelves[shelf.name] = object
            }
            try context.save()
            return try shelves.mapValues { try #require($0.value(forKey: "savedAt") as? Date) }
        }
    }

    static func read(from context: ManagedObjectContext) throws -> [String: Found] {
        try context.performAndWait {
            let shelves = try context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf"))
            return try Dictionary(uniqueKeysWithValues: shelves.map { shelf in
                let name = try #require(shelf.value(forKey: "name") as? String)
                let books = (shelf.value(forKey: "books") as? Set<ManagedObject> ?? [])
                    .sorted { ($0.value(forKey: "pages") as? Int ?? 0) > ($1.value(forKey: "pages") as? Int ?? 0) }
                return (name, Found(
                    address: CompositeAttributeTests.describe(shelf.value(forKey: "address")),
                    photo: shelf.value(forKey: "photo") as? Data,
                    lowerName: shelf.value(forKey: "lowerName") as? String,
                    searchName: shelf.value(forKey: "searchName") as? String,
                    bookCount: (shelf.value(forKey: "bookCount") as? NSNumber)?.intValue,
                    totalPages: (shelf.value(forKey: "totalPages") as? NSNumber)?.intValue,
                    savedAt: shelf.value(forKey: "savedAt") as? Date,
                    bookShelfNames: books.map { $0.value(forKey: "shelfName") as? String },
                    titles: shelf.value(forKey: "titles") as? [String],
                    details: CompositeAttributeTests.describe(shelf.value(forKey: "details")),
                    label: shelf.value(forKey: "label") as? Label))
            })
        }
    }

    static let childKindVariable = "MANAGEDGEN_ATTRIBUTE_KINDS_CHILD_KIND"
    static let childStoreVariable = "MANAGEDGEN_ATTRIBUTE_KINDS_CHILD_STORE"
    static let childReportVariable = "MANAGEDGEN_ATTRIBUTE_KINDS_CHILD_REPORT"

    @Test("composite, external binary (inline and in a file), derived and Transformable values saved here read back equal in a new process",
          arguments: [StoreKind.sqlite, .postgreSQL].filter(StoreKind.allCases.contains))
    func newProcessReads(_ kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(Self.model, kind: kind, files: files)
        let savedAt = try Self.write(into: container.newBackgroundContext())
        let expected = Self.expected(savedAt: savedAt)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let location = kind == .sqlite ? try #require(store.url).path : try StoreKind.postgreSQLURL(for: files).appendingSchemaSuffix("Test").absoluteString
        if kind == .sqlite {
            // The large photo is a file of the store's folder, the small one inline: both forms cross.
            let folder = files.url.appendingPathComponent(".Test_SUPPORT/_EXTERNAL_DATA")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
            #expect(try rawSQL(files.file("Test.sqlite").path, "SELECT substr(hex(ZPHOTO), 1, 2) FROM ZSHELF ORDER BY ZNAME") == "\n02\n01")
        }
        let report = files.file("found.json")
        let child = try ChildTestRun.run("AttributeKindsNewProcessTests/childReader", environment: [
            Self.childKindVariable: kind.rawValue, Self.childStoreVariable: location, Self.childReportVariable: report.path,
        ])
        #expect(child.status == 0, "\(child.output)")
        let data = try #require(FileManager.default.contents(atPath: report.path), "the child wrote no report: \(child.output)")
        let found = try JSONDecoder().decode([String: Found].self, from: data)
        #expect(found.keys.sorted() == expected.keys.sorted())
        for (name, value) in expected {
            #expect(found[name] == value, "\(name)")
        }
    }

    /// The child process of `newProcessReads`: opens the store it is given and writes what it
    /// read as JSON. Runs only there (the parent checks the report, so it cannot pass unseen).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childStoreVariable] != nil))
    func childReader() throws {
        let environment = ProcessInfo.processInfo.environment
        let kind = try #require(environment[Self.childKindVariable].flatMap(StoreKind.init(rawValue:)))
        let location = try #require(environment[Self.childStoreVariable])
        let report = URL(fileURLWithPath: try #require(environment[Self.childReportVariable]))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.model)
        switch kind {
        case .sqlite: try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: location))
        case .postgreSQL: coordinator.addPersistentStore(try openPostgreSQLStore(Self.model, url: try #require(URL(string: location))))
        case .inMemory: Issue.record("an in-memory store cannot be reached from another process")
        }
        let found = try Self.read(from: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator))
        try JSONEncoder().encode(found).write(to: report)
    }

    @Test("on the in-memory store, a fresh coordinator given the store after the writer's let go reads back equal values")
    func inMemoryFreshCoordinator() throws {
        let store = InMemoryStore()
        let writer = PersistentStoreCoordinator(managedObjectModel: Self.model)
        writer.addPersistentStore(store)
        let savedAt = try Self.write(into: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: writer))
        try writer.remove(store)
        let reader = PersistentStoreCoordinator(managedObjectModel: Self.model)
        reader.addPersistentStore(store)
        let found = try Self.read(from: ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reader))
        let expected = Self.expected(savedAt: savedAt)
        #expect(found.keys.sorted() == expected.keys.sorted())
        for (name, value) in expected {
            #expect(found[name] == value, "\(name)")
        }
    }
}
