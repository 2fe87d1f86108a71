import Foundation
@testable import ManagedObjects
import Testing

/// CoreDataPlus's two real SampleModel2 stores (`shared/stores/alemar11__CoreDataPlus/SampleModel2`,
/// models built in code: ``SampleModel2Port``) migrated to every later version as CoreDataPlus's
/// `ProgrammaticMigration_Tests` migrate them (``SampleModel2Migrator``: V1 → V2 inferred, V2 → V3
/// through its two mapping models, ported in ``SampleModel2MappingPort``, with its policy
/// ``BookCoverToCoverMigrationPolicy``), then opened without migration. Its tests fill a new
/// store with `fillWithSampleData2()`; `SampleModel2_V1.sqlite` is such a store (52 books, 49 of
/// them Andrea's with 99 pages each, 441 of Andrea's 444 feedbacks), so their assertions hold on it.
@Suite("Migration: CoreDataPlus's SampleModel2 stores to every later version, as its tests migrate them")
struct SampleModel2MigrationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var store: String
        var target: String
        var testDescription: String { "\(store) → \(target)" }
    }

    static let v1 = "SampleModel2_V1.sqlite"
    static let v2 = "SampleModel2_V2.sqlite"
    static let cases = [Case(store: v1, target: "SampleModel2V2"), Case(store: v1, target: "SampleModel3V3"), Case(store: v2, target: "SampleModel3V3")]

    /// A migrated copy of the store, with what its source held: objects per entity (raw SQL), each
    /// book's cover text by unique ID and each feedback's comment and rating.
    struct Migrated {
        let directory: TemporaryDirectory
        let store: OpenedStore
        let before: [String: Int]
        let coverTexts: [UUID: String]
        let feedbacks: [(comment: String, rating: Double)]

        init(_ testCase: Case) throws {
            directory = try TemporaryDirectory()
            let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel2/\(testCase.store)", into: directory)
            before = try AppStoreMigrationTests.entityCounts(url.path)
            let versions = SampleModel2Port.allVersions
            let source = try #require(try versions.sourceVersion(ofStoreAt: url))
            let original = try OpenedStore(url, model: source.model, name: "SampleModel2")
            let coverKey = source.name == "SampleModel2V1" ? "cover" : "frontCover"
            (coverTexts, feedbacks) = try original.context.performAndWait {
                let books = try original.context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
                let texts = Dictionary(uniqueKeysWithValues: try books.map { book in
                    (try #require(book.value(forKey: "uniqueID") as? UUID), try #require(Cover(archive: book.value(forKey: coverKey))?.text))
                })
                let feedbacks = try original.context.fetch(FetchRequest<ManagedObject>(entityName: "Feedback")).map { feedback in
                    (feedback.value(forKey: "comment") as? String ?? "", feedback.value(forKey: "rating") as? Double ?? -1)
                }
                return (texts, feedbacks)
            }
            try original.close()
            try SampleModel2Migrator.migrateStore(at: url, to: testCase.target)
            let target = try #require(versions.version(named: testCase.target))
            #expect(try !versions.isMigrationNecessary(forStoreAt: url, to: target))
            store = try OpenedStore(url, model: target, name: "SampleModel2")
        }
    }

    @Test("migrates to the later version, keeping every entity's objects", arguments: cases)
    func migrates(_ testCase: Case) throws {
        let migrated = try Migrated(testCase)
        for (entity, expected) in migrated.before {
            #expect(try migrated.store.count(entity, includesSubentities: false) == expected, "\(entity)")
        }
        if testCase.target == "SampleModel3V3" {
            // One Cover per book, made by BookCoverToCoverMigrationPolicy.
            #expect(try migrated.store.count("Cover") == migrated.coverTexts.count)
        }
    }

    /// `test_MigrationFromV1ToV2`.
    @Test("V1 → V2: CoreDataPlus's assertions")
    func v1ToV2() throws {
        let migrated = try Migrated(Case(store: Self.v1, target: "SampleModel2V2"))
        defer { withExtendedLifetime(migrated) {} } // its temporary directory holds the store
        let store = migrated.store
        #expect(try store.fetch("Author").count == 2)
        let books = try store.fetch("Book")
        #expect(books.count == 52)
        store.context.performAndWait {
            for book in books { #expect(book.value(forKey: "frontCover") != nil) }
        }
        #expect(try store.count("Feedback") == 444)
    }

    /// `test_MigrationFromV1toV3`. Its `author.feedbacks` is a fetched property (Feedback whose
    /// `authorAlias` is the author's `alias`), which the port leaves out: fetched here by that predicate.
    @Test("V1 → V3: CoreDataPlus's assertions")
    func v1ToV3() throws {
        let migrated = try Migrated(Case(store: Self.v1, target: "SampleModel3V3"))
        defer { withExtendedLifetime(migrated) {} } // its temporary directory holds the store
        let store = migrated.store
        let author = try #require(try store.fetch("Author", ObjectPredicate(format: "%K == %@", "alias", "Andrea")).first)
        #expect(try store.count("Book") == 52)
        let books = store.context.performAndWait { author.value(forKey: "books") as? Set<ManagedObject> ?? [] }
        #expect(books.count == 49)
        let alias = store.context.performAndWait { author.value(forKey: "alias") as? String }
        let feedbacksForAndrea = try store.fetch("Feedback", ObjectPredicate(format: "%K == %@", "authorAlias", alias))
        #expect(feedbacksForAndrea.count == 441)
        store.context.performAndWait {
            for feedback in feedbacksForAndrea {
                let comment = feedback.value(forKey: "comment") as? String ?? ""
                let rating = feedback.value(forKey: "rating") as? Double ?? -1
                if comment.contains("great") {
                    // min value assigned randomly is 1.3, during the migration all the ratings get a +10
                    #expect(rating >= 11.3)
                } else {
                    // The max value assigned randomly is 5.8
                    #expect(rating <= 5.8, "Rating \(rating) should be lesser than 5.8")
                }
            }
            for book in books {
                #expect((book.value(forKey: "pages") as? Set<ManagedObject>)?.count == 99)
            }
        }
    }

    /// What the V2 → V3 mapping models and policy do, on both stores: each book's Cover holds its
    /// former `frontCover`'s text; a feedback whose comment has "great" (any case) gains 10, the others keep their rating.
    @Test("to V3: a Cover per book from its front cover, great feedbacks raised by 10", arguments: [Self.v1, Self.v2])
    func policyEffects(store name: String) throws {
        let migrated = try Migrated(Case(store: name, target: "SampleModel3V3"))
        let books = try migrated.store.fetch("Book")
        #expect(books.count == migrated.coverTexts.count)
        let feedbacks = try migrated.store.fetch("Feedback")
        try migrated.store.context.performAndWait {
            for book in books {
                let uniqueID = try #require(book.value(forKey: "uniqueID") as? UUID)
                let cover = try #require(book.value(forKey: "cover") as? ManagedObject, "book \(uniqueID) has no cover")
                #expect(cover.value(forKey: "data") as? Data == migrated.coverTexts[uniqueID].map { Data($0.utf8) })
            }
            func sorted(_ list: [(comment: String, rating: Double)]) -> [String] { list.map { "\($0.comment)|\($0.rating)" }.sorted() }
            let expected = migrated.feedbacks.map { ($0.comment, $0.comment.lowercased().contains("great") ? $0.rating + 10 : $0.rating) }
            let actual = feedbacks.map { ($0.value(forKey: "comment") as? String ?? "", $0.value(forKey: "rating") as? Double ?? -1) }
            #expect(sorted(actual) == sorted(expected))
        }
    }
}
