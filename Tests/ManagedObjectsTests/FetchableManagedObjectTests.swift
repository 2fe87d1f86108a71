import Foundation
@_spi(Generated) import ManagedObjects
import Testing

// Generated code declares this on the topmost generated class of each class tree.
extension Media: FetchableManagedObject {}

/// The fetch conveniences generated classes get from `FetchableManagedObject`: `Self` is the class
/// they are called on, statically (the result type) and dynamically (the entity fetched).
@Suite struct FetchableManagedObjectTests {
    private func insertLibrary(_ context: ManagedObjectContext) {
        for title in ["B", "A"] {
            let book = Book(context: context)
            book.title = "Book \(title)"
        }
        let album = Album(context: context)
        album.title = "Album"
    }

    @Test func parentFetchesItsEntityWithSubentities() throws {
        try withContext(LibraryModel.managedObjectModel) { context in
            insertLibrary(context)
            let all: [Media] = try Media.fetch(sortedBy: [ObjectSortDescriptor(key: "title")], in: context)
            #expect(all.map(\.title) == ["Album", "Book A", "Book B"])
            #expect(try Media.count(in: context) == 3)
            let first: Media? = try Media.first(ObjectPredicate("title BEGINSWITH %@", "Book"), sortedBy: [ObjectSortDescriptor(key: "title")], in: context)
            #expect(first is Book)
            #expect(first?.title == "Book A")
        }
    }

    @Test func subclassFetchesItsOwnEntityTyped() throws {
        try withContext(LibraryModel.managedObjectModel) { context in
            insertLibrary(context)
            let books: [Book] = try Book.fetch(sortedBy: [ObjectSortDescriptor(key: "title", ascending: false)], in: context)
            #expect(books.map(\.title) == ["Book B", "Book A"])
            #expect(try Book.count(in: context) == 2)
            #expect(try Album.count(in: context) == 1)
            let album: Album? = try Album.first(in: context)
            #expect(album?.title == "Album")
        }
    }

    /// What a class method inherited by a subclass sees: `Media.fetch` called from `Book`'s
    /// static context is still the parent's fetch, returning `[Media]` with every sub-entity.
    @Test func parentFetchCalledFromASubclassStaysTheParents() throws {
        try withContext(LibraryModel.managedObjectModel) { context in
            insertLibrary(context)
            let titles = try Book.allMediaTitles(in: context)
            #expect(titles == ["Album", "Book A", "Book B"])
        }
    }

    @Test func findOrInsertFindsOrInsertsAnObjectOfTheClassItIsCalledOn() throws {
        try withContext(LibraryModel.managedObjectModel) { context in
            insertLibrary(context)
            let found = try Book._managedGen.findOrInsert("title", "Book A", at: 0, in: context)
            #expect(found.title == "Book A")
            #expect(try Book.count(in: context) == 2)
            let inserted = try Book._managedGen.findOrInsert("title", "Book C", at: 0, in: context)
            #expect(inserted.title == "Book C")
            #expect(inserted.entity.name == "Book")
            #expect(try Book.count(in: context) == 3)
            // Searching the parent's entity finds sub-entity objects.
            let media: Media = try Media._managedGen.findOrInsert("title", "Album", at: 0, in: context)
            #expect(media is Album)
        }
    }
}

extension Book {
    static func allMediaTitles(in context: ManagedObjectContext) throws -> [String?] {
        let media: [Media] = try Media.fetch(sortedBy: [ObjectSortDescriptor(key: "title")], in: context)
        return media.map(\.title)
    }
}
