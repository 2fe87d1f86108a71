import Foundation
import ModelFileLoading
import Testing
@testable import ManagedObjects

/// The models Xcode's model compiler builds with only a warning (DataModelTests'
/// `Fixtures/XcodeWarnings`, see its README) load at run time, as Core Data loads them, and an
/// inverse mismatch behaves as Docs/RuntimeDifferences.md ("Models") says.
@Suite("Model files: problems that are warnings load")
struct WarningModelLoadingTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ModelLoading
        .deletingLastPathComponent()  // ManagedObjectsTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("DataModelTests/Fixtures/XcodeWarnings")

    static let names: [String] = {
        let found = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return found.filter { $0.hasSuffix(".xcdatamodel") }.sorted()
    }()

    @Test("the fixtures are there") func fixturesFound() {
        #expect(Self.names.count >= 8, "fixtures expected at \(Self.fixtures.path)")
    }

    @Test("each loads with ManagedObjectModel(contentsOf:), and an object of each entity saves",
          arguments: names, [StoreKind.inMemory, .sqlite])
    func loads(_ name: String, _ kind: StoreKind) throws {
        let model = try ManagedObjectModel(contentsOf: Self.fixtures.appendingPathComponent(name))
        #expect(!model.entities.isEmpty)
        let files = try TemporaryDirectory()
        let context = try makeContainer(model, kind: kind, files: files).newBackgroundContext()
        let entities = model.entities.filter { !$0.entity.isAbstract }
        let counts = try context.performAndWait {
            for entity in entities { _ = ManagedObject(entity: entity, insertInto: context) }
            try context.save()
            context.reset()
            return try entities.map { try context.count(for: FetchRequest<ManagedObject>(entityName: $0.name)) }
        }
        #expect(counts == entities.map { _ in 1 })
    }

    /// `Author.drafts` names `Book.author` as its inverse; `Book.author`'s own inverse is
    /// `Author.books`. Each relationship keeps the inverse it names, as Core Data's descriptions
    /// do: setting `drafts` sets each book's `author`, setting a book's `author` adds it to
    /// `books`, and nothing goes round in circles.
    @Test("an inverse mismatch: each side keeps the inverse it names", arguments: [StoreKind.inMemory, .sqlite])
    func inverseMismatch(_ kind: StoreKind) throws {
        let model = try ManagedObjectModel(contentsOf: Self.fixtures.appendingPathComponent("InverseMismatch.xcdatamodel"))
        let author = try #require(model["Author"]), book = try #require(model["Book"])
        let drafts = try #require(author.relationship(named: "drafts"))
        let books = try #require(author.relationship(named: "books"))
        let toAuthor = try #require(book.relationship(named: "author"))
        #expect(drafts.inverseRelationship === toAuthor)
        #expect(books.inverseRelationship === toAuthor)
        #expect(toAuthor.inverseRelationship === books)

        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: kind, files: files)
        let context = container.newBackgroundContext()
        let (authorID, draftID, publishedID) = try context.performAndWait {
            let writer = ManagedObject(entity: author, insertInto: context)
            let draft = ManagedObject(entity: book, insertInto: context)
            let published = ManagedObject(entity: book, insertInto: context)
            writer.addToRelationship([draft], at: drafts.index)
            #expect(draft.value(forKey: "author") as? ManagedObject === writer)
            #expect((writer.value(forKey: "books") as? Set<ManagedObject>) == [])
            published.setValue(writer, forKey: "author")
            #expect((writer.value(forKey: "books") as? Set<ManagedObject>) == [published])
            #expect((writer.value(forKey: "drafts") as? Set<ManagedObject>) == [draft])
            try context.save()
            return (writer.objectID, draft.objectID, published.objectID)
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let writer = try reader.existingObject(with: authorID)
            let draft = try reader.existingObject(with: draftID)
            let published = try reader.existingObject(with: publishedID)
            #expect(draft.value(forKey: "author") as? ManagedObject === writer)
            #expect(published.value(forKey: "author") as? ManagedObject === writer)
            let readBooks = try #require(writer.value(forKey: "books") as? Set<ManagedObject>)
            let readDrafts = try #require(writer.value(forKey: "drafts") as? Set<ManagedObject>)
            switch kind {
            case .sqlite:
                // Both to-manys are kept in the column of the to-one they name as inverse
                // (ZBOOK.ZAUTHOR): each reads every book whose author is this one.
                #expect(readBooks == [draft, published])
                #expect(readDrafts == [draft, published])
            default:
                // The in-memory store keeps each to-many's members as saved.
                #expect(readBooks == [published])
                #expect(readDrafts == [draft])
            }
        }
    }
}
