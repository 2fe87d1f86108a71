import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Derived attributes computed at each save to the store, as Core Data computes them, for each
/// kind of derivation; and the real stores whose derived attribute Core Data keeps by triggers
/// (CoreDataPlus's SampleModel2: `Book.pagesCount`, `pages.@count`, kept in `ZBOOK.ZPAGESCOUNT`
/// by its `Z_DA_` triggers).
@Suite("Derived attributes: computed at save, kept by Core Data's triggers in real stores")
struct DerivedAttributeTests {
    init() {
        RealAppTransformers.registered
    }

    // MARK: Each kind of derivation, on a model built here

    /// An Owner with a derived attribute of each kind over its name and items, and an Item
    /// deriving its owner's name (a to-one key path).
    static let model: ManagedObjectModel = {
        let owner = Entity(
            name: "Owner",
            attributes: [
                Attribute(name: "name", type: .string, isOptional: true),
                Attribute(name: "sameName", type: .string, isOptional: true, isDerived: true, derivationExpression: "name"),
                Attribute(name: "lowerName", type: .string, isOptional: true, isDerived: true, derivationExpression: "lowercase:(name)"),
                Attribute(name: "upperName", type: .string, isOptional: true, isDerived: true, derivationExpression: "uppercase:(name)"),
                Attribute(name: "searchName", type: .string, isOptional: true, isDerived: true, derivationExpression: "canonical:(name)"),
                Attribute(name: "itemCount", type: .integer64, isOptional: true, isDerived: true, derivationExpression: "items.@count"),
                Attribute(name: "savedAt", type: .date, isOptional: true, isDerived: true, derivationExpression: "now()"),
                Attribute(name: "total", type: .double, isOptional: true, isDerived: true, derivationExpression: "items.@sum.price"),
            ],
            relationships: [
                Relationship(name: "items", destinationEntity: "Item", inverseName: "owner", inverseEntity: "Item",
                             isToMany: true, isOptional: true, deleteRule: .cascade),
            ])
        let item = Entity(
            name: "Item",
            attributes: [
                Attribute(name: "ownerName", type: .string, isOptional: true, isDerived: true, derivationExpression: "owner.name"),
                Attribute(name: "price", type: .double, isOptional: true),
            ],
            relationships: [
                Relationship(name: "owner", destinationEntity: "Owner", inverseName: "items", inverseEntity: "Owner",
                             isOptional: true, minCount: 0, maxCount: 1),
            ])
        return ManagedObjectModel(Model(entities: [owner, item]))
    }()

    static func context(_ type: PersistentStoreType, at url: URL?) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        return ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    }

    @Test("each kind of derivation is computed at save, recomputed at the next save, and not what app code set",
          arguments: [PersistentStoreType.inMemory, .sqlite])
    func eachKind(_ type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = type == .sqlite ? directory.file("Derived.sqlite") : nil
        let context = try Self.context(type, at: url)
        let before = Date()
        try context.performAndWait {
            let owner = ManagedObject(entity: Self.model["Owner"]!, insertInto: context)
            owner.setValue("Émile Zola", forKey: "name")
            // Set by app code: replaced by the derivation at the save.
            owner.setValue("set by hand", forKey: "sameName")
            owner.setValue(42, forKey: "itemCount")
            var items: [ManagedObject] = []
            for price in [1.5, 2.0, 4.0] {
                let item = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
                item.setValue(owner, forKey: "owner")
                item.setValue(price, forKey: "price")
                items.append(item)
            }
            // Not derived before the save.
            #expect(owner.value(forKey: "lowerName") == nil)
            try context.save()

            #expect(owner.value(forKey: "sameName") as? String == "Émile Zola")
            #expect(owner.value(forKey: "lowerName") as? String == "émile zola")
            #expect(owner.value(forKey: "upperName") as? String == "ÉMILE ZOLA")
            #expect(owner.value(forKey: "searchName") as? String == "emile zola")
            #expect(owner.value(forKey: "itemCount") as? Int == 3)
            let savedAt = try #require(owner.value(forKey: "savedAt") as? Date)
            #expect(savedAt >= before && savedAt <= Date())
            #expect(items.allSatisfy { $0.value(forKey: "ownerName") as? String == "Émile Zola" })
            #expect(owner.value(forKey: "total") as? Double == 7.5)

            // An item's price changed, the owner untouched: its sum is recomputed.
            items[2].setValue(10.0, forKey: "price")
            try context.save()
            #expect(owner.value(forKey: "total") as? Double == 13.5)

            // Changed: recomputed by the next save.
            owner.setValue("Zoé", forKey: "name")
            context.delete(items[0])
            items[1].setValue("stale", forKey: "ownerName")
            try context.save()
            #expect(owner.value(forKey: "lowerName") as? String == "zoé")
            #expect(owner.value(forKey: "searchName") as? String == "zoe")
            #expect(owner.value(forKey: "itemCount") as? Int == 2)
            #expect(owner.value(forKey: "total") as? Double == 12.0)
            #expect(items[1].value(forKey: "ownerName") as? String == "Zoé")
            #expect(try #require(owner.value(forKey: "savedAt") as? Date) >= savedAt)
        }
        guard let url else { return }
        // What the file holds, read by another coordinator and as raw SQL.
        let reopened = try Self.context(.sqlite, at: url)
        try reopened.performAndWait {
            let owner = try #require(try reopened.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).first)
            #expect(owner.value(forKey: "sameName") as? String == "Zoé")
            #expect(owner.value(forKey: "upperName") as? String == "ZOÉ")
            #expect(owner.value(forKey: "itemCount") as? Int == 2)
        }
        #expect(try rawSQL(url.path, "SELECT ZSAMENAME, ZLOWERNAME, ZSEARCHNAME, ZITEMCOUNT, ZTOTAL FROM ZOWNER") == "Zoé|zoé|zoe|2|12.0")
        #expect(try rawSQL(url.path, "SELECT DISTINCT ZOWNERNAME FROM ZITEM") == "Zoé")
    }

    @Test("a child context's save leaves derivations to the parent's save to the store")
    func childContextSave() throws {
        let parent = try Self.context(.inMemory, at: nil)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        let ownerID = try child.performAndWait {
            let owner = ManagedObject(entity: Self.model["Owner"]!, insertInto: child)
            owner.setValue("Ada", forKey: "name")
            try child.save()
            #expect(owner.value(forKey: "lowerName") == nil)
            return owner.objectID
        }
        try parent.performAndWait {
            let owner = try parent.existingObject(with: ownerID)
            #expect(owner.value(forKey: "lowerName") == nil)
            try parent.save()
            #expect(owner.value(forKey: "lowerName") as? String == "ada")
        }
    }

    @Test("a derivation that does not parse fails the save with an error naming the entity, attribute and derivation")
    func badDerivation() throws {
        let thing = Entity(
            name: "Thing",
            attributes: [
                Attribute(name: "broken", type: .string, isOptional: true, isDerived: true, derivationExpression: "lowercase:(("),
            ])
        let model = ManagedObjectModel(Model(entities: [thing]))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory, at: nil)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            _ = ManagedObject(entity: model["Thing"]!, insertInto: context)
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.code == .validation)
            #expect(error.message.contains("Thing.broken"))
            #expect(error.message.contains("lowercase:(("))
        }
    }

    // MARK: Real stores with Core Data's derived-attribute triggers

    static let triggerStores = [
        "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V1.sqlite",
        "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V2.sqlite",
    ]

    /// Books whose `ZPAGESCOUNT` is not the number of their pages, counted in SQL.
    static func miscountedBooks(_ url: URL) throws -> String {
        try rawSQL(url.path, """
            SELECT COUNT(*) FROM ZBOOK b WHERE b.ZPAGESCOUNT IS NOT (SELECT COUNT(*) FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK)
            """)
    }

    @Test("every pagesCount Core Data stored reads as its ZPAGESCOUNT cell and as the pages SQL counts, for every Book and GraphicNovel",
          arguments: triggerStores)
    func realStoreValues(_ path: String) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(path, into: directory)
        // Decoded here by SQL alone: each row's cell, and the number of pages naming it.
        let cells = try rawSQL(url.path, """
            SELECT b.Z_PK, b.ZPAGESCOUNT, (SELECT COUNT(*) FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK) FROM ZBOOK b ORDER BY b.Z_PK
            """).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let store = try #require(RealStoreFidelityTests.stores.first { $0.path == path })
        let model = try RealStoreFidelityTests.writingVersion(of: store, at: url)
        let context = try sqliteContext(model, at: url)
        let read = try context.performAndWait {
            // Book with its sub-entity GraphicNovel: every row of ZBOOK.
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).map { book in
                ["\(book.objectID.storeNumber ?? 0)", (book.value(forKey: "pagesCount") as? Int).map(String.init) ?? ""]
            }.sorted { Int($0[0])! < Int($1[0])! }
        }
        #expect(cells.count == (path.hasSuffix("_V1.sqlite") ? 52 : 3), "rows of ZBOOK")
        #expect(read == cells.map { [$0[0], $0[1]] }, "pagesCount as read, against ZPAGESCOUNT")
        #expect(cells.allSatisfy { $0[1] == $0[2] }, "ZPAGESCOUNT against the pages counted: \(cells.filter { $0[1] != $0[2] })")
        #expect(cells.contains { Int($0[1])! > 0 })
    }

    @Test("in a copy of a real store with Core Data's Z_DA_ triggers, pages inserted, moved and deleted keep ZPAGESCOUNT counted",
          arguments: triggerStores)
    func realStoreTriggers(_ path: String) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(path, into: directory)
        // The file has the triggers, and counts as Core Data left it.
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z_DA_ZPAGE_Book_pagesCount_%'") == "4")
        #expect(try Self.miscountedBooks(url) == "0")

        let store = try #require(RealStoreFidelityTests.stores.first { $0.path == path })
        let model = try RealStoreFidelityTests.writingVersion(of: store, at: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        let coverKey = model["Book"]!.propertiesByName["cover"] != nil ? "cover" : "frontCover"
        func newPage(in book: ManagedObject, number: Int) -> ManagedObject {
            let page = ManagedObject(entity: model["Page"]!, insertInto: context)
            page.setValue(number, forKey: "number")
            page.setValue(Data([1, 2, 3]), forKey: "content")
            page.setValue(book, forKey: "book")
            return page
        }
        func pages(of book: ManagedObject) -> Set<ManagedObject> { book.value(forKey: "pages") as? Set<ManagedObject> ?? [] }
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.sortDescriptors = [ObjectSortDescriptor(key: "title", ascending: true)]
            let books = try context.fetch(request).sorted { pages(of: $0).count > pages(of: $1).count }
            let many = try #require(books.first)
            let other = try #require(books.dropFirst().first)
            let startCount = pages(of: many).count
            #expect(startCount >= 2)
            #expect(many.value(forKey: "pagesCount") as? Int == startCount)

            // Insert: the PARAMETER_INSERT trigger counts it; the save does not write over it.
            _ = newPage(in: many, number: 1000)
            _ = newPage(in: many, number: 1001)
            many.setValue(12_345, forKey: "pagesCount") // read-only in effect: the save replaces it
            try context.save()
            #expect(many.value(forKey: "pagesCount") as? Int == startCount + 2)

            // Delete one and move one to another book (the UPDATE triggers).
            let sorted = pages(of: many).sorted { ($0.value(forKey: "number") as? Int ?? 0) < ($1.value(forKey: "number") as? Int ?? 0) }
            context.delete(sorted[0])
            sorted[1].setValue(other, forKey: "book")
            let otherCount = pages(of: other).count
            try context.save()
            #expect(many.value(forKey: "pagesCount") as? Int == startCount)
            #expect(other.value(forKey: "pagesCount") as? Int == otherCount)

            // A new book: the SOURCE_INSERT trigger counts its pages.
            let book = ManagedObject(entity: model["Book"]!, insertInto: context)
            book.setValue(UUID(), forKey: "uniqueID")
            book.setValue("Written here", forKey: "title")
            book.setValue(Decimal(string: "9.99"), forKey: "price")
            book.setValue(Data([4, 5, 6]), forKey: coverKey)
            book.setValue(Date(), forKey: "publishedAt")
            book.setValue(many.value(forKey: "author"), forKey: "author")
            for number in 1...3 { _ = newPage(in: book, number: number) }
            try context.save()
            #expect(book.value(forKey: "pagesCount") as? Int == 3)
        }
        #expect(try Self.miscountedBooks(url) == "0")
        #expect(try rawSQL(url.path, "SELECT ZPAGESCOUNT FROM ZBOOK WHERE ZTITLE = 'Written here'") == "3")
        // What another coordinator reads is what SQL counts.
        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(type: .sqlite, at: url)
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: reopened)
        try reader.performAndWait {
            for book in try reader.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
                #expect(book.value(forKey: "pagesCount") as? Int == pages(of: book).count)
            }
        }
    }
}
