import DataModel
import Foundation
import Testing
@testable import ManagedObjects

/// The SQLite store runs SQLite's automatic checkpoint after a save rather than inside it
/// (`WALCheckpointer`): the pages still reach the main file, and the `-wal` file stays bounded.
@Suite("SQLite store: WAL checkpoints after the save")
struct WALCheckpointTests {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Page", attributes: [Attribute(name: "text", type: .string, isOptional: true)]),
    ]))

    /// Saves `count` objects of 4,000 characters each (about one SQLite page apiece).
    private func save(_ count: Int, in context: ManagedObjectContext, first: Int = 0) throws {
        try context.performAndWait {
            for number in first..<first + count {
                let page = ManagedObject(entity: Self.model["Page"]!, insertInto: context)
                page.setValue(String(repeating: "\(number % 10)", count: 4_000), forKey: "text")
            }
            try context.save()
            context.reset()
        }
    }

    private func store(of context: ManagedObjectContext) throws -> SQLiteStore {
        try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
    }

    private func size(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    }

    @Test("a save leaving 1,000 WAL pages or more is copied into the main file once the writer is free")
    func largeSaveReachesTheMainFile() throws {
        let files = try TemporaryDirectory()
        let url = files.file("Pages.sqlite")
        let context = try sqliteContext(Self.model, at: url)
        let before = try size(url)
        try save(1_500, in: context)
        // The checkpoint was queued on the writer by the save's commit: the next write follows it.
        try store(of: context).pool.writeWithoutTransaction { _ in }
        let after = try size(url)
        #expect(before < 1_000_000)
        #expect(after > 6_000_000, "main file \(after) bytes after the checkpoint (\(before) before the save)")
        let reader = try sqliteContext(Self.model, at: url)
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest<ManagedObject>(entityName: "Page")) } == 1_500)
    }

    @Test("the -wal file stays bounded over many saves (24 MB written, 250 pages a save)")
    func walStaysBounded() throws {
        let files = try TemporaryDirectory()
        let url = files.file("Pages.sqlite")
        let context = try sqliteContext(Self.model, at: url)
        let wal = URL(fileURLWithPath: url.path + "-wal")
        var largest = 0
        for save in 0..<24 {
            try self.save(250, in: context, first: save * 250)
            largest = max(largest, try size(wal))
        }
        // Without checkpoints it would hold every save: about 24 MB. With them, SQLite starts
        // the log over once a checkpoint has copied all of it: about 1,000 pages and a save.
        #expect(largest < 10_000_000, "the -wal file reached \(largest) bytes")
        let reader = try sqliteContext(Self.model, at: url)
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest<ManagedObject>(entityName: "Page")) } == 6_000)
    }
}
