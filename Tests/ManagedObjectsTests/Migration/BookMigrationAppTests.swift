import Foundation
@testable import ManagedObjects
import ModelFileLoading
import Testing

/// BookMigration's own migration tests (hwaxxer/BookMigration, `BookMigrationTests/`), on its
/// `Model1.sqlite`, migrated as the app's `MHWCoreDataTests` does: through its manager
/// (``MHWMigrationManager``: Model1 → Model2 with `Model1_to_Model2`, then Model2 → Model3 in two
/// passes) and its policies (``MHWBookToBookPolicy``, ``MHWUserToUserPolicy``), then opened
/// with the target version. `MHWMigrationFromModel1Tests` asserts Model 2's authors (made by
/// MHWBookToBookPolicy from each book's `authorName`), `MHWMigrationFromModel2Tests` Model 3's
/// files (made by the same policy from each book's users, given the users the first pass wrote).
/// The app runs both against its current model, Model3; the first also holds at Model2.
@Suite("BookMigration: the app's own migration tests, through its manager and policies")
struct BookMigrationAppTests {
    init() {
        RealAppTransformers.registered
    }

    /// `MHWCoreDataTests.setUpCoreDataStackMigratingFromStoreWithName:` for Model1.sqlite: a
    /// context on the store migrated to the version named `target`.
    struct MigratedStore {
        let directory: TemporaryDirectory
        let opened: OpenedStore
        var context: ManagedObjectContext { opened.context }

        init(target: String) throws {
            let source = try #require(AppStoreMigrationTests.sources.first { if case .bookMigration? = $0.appMigration { true } else { false } })
            let versions = try ManagedObjectModelVersions(contentsOf: AppStoreMigrationTests.corpus(source.bundle))
            let model = try #require(versions.version(named: target))
            directory = try TemporaryDirectory()
            let url = try RealSQLiteStoreTests.copy(source.store, into: directory)
            try AppStoreMigrationTests.migrateAsTheApp(source, storeAt: url, to: model, versions: versions)
            #expect(try !versions.isMigrationNecessary(forStoreAt: url, to: model))
            opened = try OpenedStore(url, model: model, name: "BookMigration")
        }

        func fetch(_ entityName: String, _ predicate: ObjectPredicate? = nil) throws -> [ManagedObject] {
            try opened.fetch(entityName, predicate)
        }

        func count(_ entityName: String, _ predicate: ObjectPredicate) throws -> Int {
            try opened.count(entityName, predicate)
        }
    }

    // MARK: MHWMigrationFromModel1Tests

    @Test("testThatAuthorsExists: every book has its authors", arguments: ["Model2", "Model3"])
    func authorsExist(target: String) throws {
        let store = try MigratedStore(target: target)
        let books = try store.fetch("Book")
        #expect(0 < books.count, "Books have disappeared after migration")
        try store.context.performAndWait {
            for book in books {
                // The original asserts non-nil, which a to-many always is; the policy gives each book one author.
                let authors = try #require(book.value(forKey: "authors") as? Set<ManagedObject>, "No authors")
                #expect(authors.count == 1, "\(book.value(forKey: "title") ?? "?")")
            }
        }
    }

    @Test("testThatAuthorNameIsUnique: one Author per name", arguments: ["Model2", "Model3"])
    func authorNameIsUnique(target: String) throws {
        let store = try MigratedStore(target: target)
        #expect(try store.count("Author", ObjectPredicate(format: "name LIKE 'Franz Kafka'")) == 1)
        // The store's four books have three author names.
        #expect(try store.fetch("Author").count == 3)
    }

    @Test("testCreatedTwoBooksWithSameAuthor", arguments: ["Model2", "Model3"])
    func twoBooksWithSameAuthor(target: String) throws {
        let store = try MigratedStore(target: target)
        #expect(try store.count("Book", ObjectPredicate(format: "ANY authors.name LIKE 'Franz Kafka'")) == 2)
    }

    // MARK: MHWMigrationFromModel2Tests

    @Test("testThatUserHasFiles: the user of userId 1 has a file per book")
    func userHasFiles() throws {
        let store = try MigratedStore(target: "Model3")
        let users = try store.fetch("User", ObjectPredicate(format: "userId == 1"))
        #expect(0 < users.count, "Users have disappeared after migration")
        let user = try #require(users.last)
        let files = store.context.performAndWait { user.value(forKey: "files") as? Set<ManagedObject> ?? [] }
        #expect(files.count == 4, "Wrong files count: \(files.count)")
        // Every user of the store carried over by the first pass (MHWUserToUserPolicy).
        #expect(try store.fetch("User").count == 3)
    }

    @Test("testThatFilesHaveBooks, and each file keeps its book's file URL")
    func filesHaveBooks() throws {
        let store = try MigratedStore(target: "Model3")
        let files = try store.fetch("File")
        #expect(files.count == 4)
        store.context.performAndWait {
            for file in files {
                let book = file.value(forKey: "book") as? ManagedObject
                #expect(book != nil, "No book on file")
                // MHWBookToBookPolicy copies the book's `fileURL` (an archived "<title>.file") to its File.
                let title = book?.value(forKey: "title") as? String ?? "?"
                #expect(file.value(forKey: "fileURL") as? String == "\(title).file")
                #expect(((file.value(forKey: "user") as? ManagedObject)?.value(forKey: "userId") as? NSNumber)?.intValue == 1)
            }
        }
    }
}
