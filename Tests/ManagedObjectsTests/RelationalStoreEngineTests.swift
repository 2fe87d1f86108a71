import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// Authors share books (a many-to-many whose delete rule on the author's side is No Action),
/// keep a favourite book (Nullify, no inverse) and a pen (No Action, its inverse a to-one).
private enum SharedBooksModel {
    static let managedObjectModel = ManagedObjectModel(Model(entities: [
        Entity(name: "Author", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "books", destinationEntity: "Book", inverseName: "authors", inverseEntity: "Book",
                         isToMany: true, isOptional: true, deleteRule: .noAction),
            Relationship(name: "favorite", destinationEntity: "Book", isOptional: true, deleteRule: .nullify),
            Relationship(name: "pen", destinationEntity: "Pen", inverseName: "owner", inverseEntity: "Pen",
                         isOptional: true, deleteRule: .noAction),
        ]),
        Entity(name: "Book", attributes: [
            Attribute(name: "title", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "authors", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author",
                         isToMany: true, isOptional: true),
        ]),
        Entity(name: "Pen", attributes: [
            Attribute(name: "label", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Author", inverseName: "pen", inverseEntity: "Author", isOptional: true),
        ]),
    ]))
}

/// Runs the engine's statements on another executor, keeping their SQL.
private final class RecordingExecutor: SQLExecutor {
    let inner: any SQLExecutor
    private(set) var statements: [String] = []

    init(_ inner: any SQLExecutor) {
        self.inner = inner
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        statements.append(sql)
        try inner.execute(sql, arguments)
    }

    func rows(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        statements.append(sql)
        return try inner.rows(sql, arguments)
    }
}

@Suite("The relational store engine both SQL stores share")
struct RelationalStoreEngineTests {
    /// An author with two books (one its favourite, the other shared with a second author) and a pen.
    private func makeLibrary(in context: ManagedObjectContext) throws -> (author: ManagedObjectID, books: [ManagedObjectID], pen: ManagedObjectID) {
        let model = context.managedObjectModel
        let author = ManagedObject(entity: try #require(model["Author"]), insertInto: context)
        let other = ManagedObject(entity: try #require(model["Author"]), insertInto: context)
        let first = ManagedObject(entity: try #require(model["Book"]), insertInto: context)
        let second = ManagedObject(entity: try #require(model["Book"]), insertInto: context)
        let pen = ManagedObject(entity: try #require(model["Pen"]), insertInto: context)
        author.setValue("Ann", forKey: "name")
        other.setValue("Bo", forKey: "name")
        first.setValue("First", forKey: "title")
        second.setValue("Second", forKey: "title")
        pen.setValue("red", forKey: "label")
        author.setValue(Set([first, second]), forKey: "books")
        other.setValue(Set([second]), forKey: "books")
        author.setValue(first, forKey: "favorite")
        author.setValue(pen, forKey: "pen")
        try context.save()
        return (author.objectID, [first.objectID, second.objectID], pen.objectID)
    }

    /// The two copies of the walk differed: the SQLite store's read related rows only for the
    /// relationships whose delete rule has work (`relationshipNeedsWork`), the PostgreSQL store's
    /// for every stored one (`!isTransient`). Their outcomes agree, which this shows on each SQL
    /// store; the next test shows the reads the shared walk leaves out.
    @Test(
        "batch delete: a No Action many-to-many loses the deleted object's join rows; No Action and inverse-less Nullify relationships leave their objects unchanged and unlisted",
        arguments: StoreKind.allCases.filter { $0 != .inMemory })
    func deleteRulesWithoutWork(kind: StoreKind) throws {
        try withContext(SharedBooksModel.managedObjectModel, kind: kind) { context in
            let (author, books, pen) = try makeLibrary(in: context)
            let store = try #require(context.persistentStoreCoordinator.persistentStores.first)
            let penVersion = try #require(try store.snapshot(for: pen)).version
            let outcome = try store.batchDelete(StoreBatchDelete(objectIDs: [author], entity: author.entity))
            #expect(outcome.objectIDs == [author])
            #expect(outcome.relatedUpdatedObjectIDs.isEmpty, "No Action and Nullify without inverse change no related object")
            // The join rows of the author went: neither book lists it.
            let authors = try #require(books[0].entity.relationship(named: "authors"))
            #expect(try store.relatedObjectIDs(of: books[0], relationship: authors).isEmpty)
            #expect(try store.relatedObjectIDs(of: books[1], relationship: authors).count == 1)
            // The pen's row is as it was (No Action: its owner key is left to the app).
            #expect(try store.snapshot(for: pen)?.version == penVersion)
        }
    }

    @Test("the batch-delete walk reads related rows only for relationships whose delete rule has work, and removes join rows")
    func walkReadsOnlyWhatRulesNeed() throws {
        let files = try TemporaryDirectory()
        let store = try SQLiteStore(model: SharedBooksModel.managedObjectModel, url: files.file("Library.sqlite"))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: SharedBooksModel.managedObjectModel)
        coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        let (author, _, _) = try context.performAndWait { try makeLibrary(in: context) }
        let entity = author.entity
        #expect(entity.relationships.map { store.engine.relationshipNeedsWork($0, of: entity) } == [true, false, false])
        let statements = try store.pool.writeWithoutTransaction { db in
            var recorded: [String] = []
            try db.inTransaction {
                let executor = RecordingExecutor(SQLiteExecutor(db: db))
                let deletion = try store.engine.batchDelete([author], on: executor) { _, _ in }
                #expect(deletion.deleted == [author])
                recorded = executor.statements
                return .rollback
            }
            return recorded
        }
        let joinTable = try #require(store.schema.joinTables.first).name
        #expect(statements.count == 3, "the books' rows, their join rows removed, the author's row removed: \(statements)")
        #expect(statements.filter { $0.hasPrefix("SELECT") }.allSatisfy { $0.contains(joinTable) })
        #expect(statements.contains { $0.hasPrefix("DELETE FROM \(joinTable)") })
        #expect(!statements.contains { $0.contains("ZPEN") && $0.hasPrefix("SELECT") })
    }
}
