import DataModel
import Foundation
import Testing
@testable import ManagedObjects

/// One entity: which writer inserted an entry, and its number within that writer's entries.
enum LedgerModel {
    static let managedObjectModel = ManagedObjectModel(Model(entities: [
        Entity(name: "Entry", attributes: [
            Attribute(name: "writer", type: .integer64, isOptional: true),
            Attribute(name: "sequence", type: .integer64, isOptional: true),
        ]),
    ]))
}

@Suite("SQLite store: contexts saving at the same time")
struct SQLiteConcurrentSaveTests {
    static let writers = 4
    static let entriesPerWriter = 10_000
    static let entriesPerSave = 1_000

    /// Each context inserts `entriesPerWriter` entries on its own queue, in several saves.
    private func saveFromEveryContext(_ contexts: [ManagedObjectContext]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (writer, context) in contexts.enumerated() {
                group.addTask {
                    for firstOfSave in stride(from: 0, to: Self.entriesPerWriter, by: Self.entriesPerSave) {
                        try await context.perform {
                            for sequence in firstOfSave..<firstOfSave + Self.entriesPerSave {
                                let entry = ManagedObject(entity: LedgerModel.managedObjectModel["Entry"]!, insertInto: context)
                                entry.setValue(Int64(writer), forKey: "writer")
                                entry.setValue(Int64(sequence), forKey: "sequence")
                            }
                            try context.save()
                            // Saved objects are not needed again: keep each context small.
                            context.reset()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The entries per writer that a fresh coordinator on `url` finds.
    private func entriesPerWriter(reopening url: URL) throws -> [Int] {
        let reader = try sqliteContext(LedgerModel.managedObjectModel, at: url)
        return try reader.performAndWait {
            try (0..<Self.writers).map { writer in
                let request = FetchRequest<ManagedObject>(entityName: "Entry")
                request.predicate = ObjectPredicate("writer == %@", NSNumber(value: writer))
                return try reader.count(for: request)
            }
        }
    }

    @Test("4 private-queue contexts on one coordinator each save 10,000 objects to one file",
          .timeLimit(.minutes(5)))
    func oneCoordinator() async throws {
        let files = try TemporaryDirectory()
        let url = files.file("Ledger.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: LedgerModel.managedObjectModel)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let contexts = (0..<Self.writers).map { _ in
            ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        }
        try await saveFromEveryContext(contexts)

        let total = try await contexts[0].perform {
            try contexts[0].count(for: FetchRequest<ManagedObject>(entityName: "Entry"))
        }
        #expect(total == Self.writers * Self.entriesPerWriter)
        #expect(try entriesPerWriter(reopening: url) == Array(repeating: Self.entriesPerWriter, count: Self.writers))
    }

    @Test("4 contexts on two coordinators of the same file each save 10,000 objects",
          .timeLimit(.minutes(5)))
    func twoCoordinators() async throws {
        let files = try TemporaryDirectory()
        let url = files.file("Ledger.sqlite")
        let coordinators = try (0..<2).map { _ in
            let coordinator = PersistentStoreCoordinator(managedObjectModel: LedgerModel.managedObjectModel)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            return coordinator
        }
        let contexts = (0..<Self.writers).map { writer in
            ManagedObjectContext(concurrencyType: .privateQueue,
                                 persistentStoreCoordinator: coordinators[writer % coordinators.count])
        }
        try await saveFromEveryContext(contexts)

        #expect(try entriesPerWriter(reopening: url) == Array(repeating: Self.entriesPerWriter, count: Self.writers))
    }
}
