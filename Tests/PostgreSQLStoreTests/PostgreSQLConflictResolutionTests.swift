import Foundation
import ManagedObjects
@testable import PostgreSQLStore
import StoreTestSupport
import Testing

/// Uniqueness conflicts resolved while the save holds the constrained values, as Core Data's
/// merge policy resolves them inside the save: no other process stores the same values between
/// the conflict's discovery and the write.
@Suite("PostgreSQL store resolves uniqueness conflicts inside the save", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLConflictResolutionTests {
    let model = InsertLoopModel.model

    /// A context of its own coordinator and store: what another process has.
    func processContext(_ database: ScratchDatabase, policy: MergePolicy) throws -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(model))
        context.mergePolicy = policy
        return context
    }

    func insertItem(code: String, writer: Int64, into context: ManagedObjectContext) -> ManagedObject {
        let item = ManagedObject(entity: model["Item"]!, insertInto: context)
        item.setValue(code, forKey: "code")
        item.setValue(writer, forKey: "writer")
        return item
    }

    @Test("another process saving the same value waits until the save that found the conflict commits, then upserts onto its row")
    func valuesHeldDuringResolution() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let store = try database.makeStore(model)
        let item = model["Item"]!
        let id = try #require(try store.obtainPermanentIDs(for: item, count: 1).first)
        var changes = StoreChangeSet()
        changes.inserted = [StoredObject(objectID: id, version: 1, values: item.properties.map { property in
            .attribute(property.name == "code" ? "shared" : property.name == "writer" ? Int64(1) : nil)
        })]
        let other = try processContext(database, policy: .mergeByPropertyObjectTrump)
        let otherSaved = LockedValue<Result<Void, any Error>?>(nil)
        var resolutions = 0
        var otherSavedDuringResolution: Bool?
        try store.save(changes) { changes in
            resolutions += 1
            // The other process's save of the same code starts now, while this save holds it.
            Thread.detachNewThread {
                let result = Result { try other.performAndWait {
                    _ = insertItem(code: "shared", writer: 2, into: other)
                    try other.save()
                } }
                otherSaved.withLock { $0 = result }
            }
            Thread.sleep(forTimeInterval: 0.5)
            otherSavedDuringResolution = otherSaved.withLock { $0 != nil }
            return changes
        }
        #expect(resolutions == 1)
        #expect(otherSavedDuringResolution == false)
        var waited = 0
        while otherSaved.withLock({ $0 == nil }), waited < 300 {
            Thread.sleep(forTimeInterval: 0.1)
            waited += 1
        }
        let result = try #require(otherSaved.withLock { $0 })
        #expect(throws: Never.self) { try result.get() }
        // One row: the other process's values on the row this save wrote.
        let reader = try processContext(database, policy: .error)
        let items = try reader.performAndWait { try fetch("Item", in: reader).map { ($0.objectID, $0.value(forKey: "writer") as? Int64) } }
        #expect(items.count == 1)
        #expect(items.first?.0 == id && items.first?.1 == 2)
    }

    @Test("under the error policy a conflict found in the save throws 133021 with the stored object, writes nothing and leaves the new object as it was")
    func errorPolicy() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let first = try processContext(database, policy: .error)
        try first.performAndWait {
            _ = insertItem(code: "taken", writer: 1, into: first)
            try first.save()
        }
        let second = try processContext(database, policy: .error)
        try second.performAndWait {
            let item = insertItem(code: "taken", writer: 2, into: second)
            let free = insertItem(code: "free", writer: 2, into: second)
            let error = try #require(saveError(second) as? ManagedObjectError)
            #expect(error.code == .constraintConflict)
            #expect(error.entityName == "Item" && error.key == "code")
            #expect(error.constraintConflicts.count == 1)
            #expect(error.constraintConflicts.first?.databaseObject?.value(forKey: "writer") as? Int64 == 1)
            #expect(error.constraintConflicts.first?.conflictingObjects.first === item)
            // Nothing written; both new objects keep their values and stay new.
            #expect(item.isInserted && free.isInserted)
            #expect(item.value(forKey: "code") as? String == "taken" && item.value(forKey: "writer") as? Int64 == 2)
            #expect(free.value(forKey: "code") as? String == "free")
            #expect(try fetch("Item", "code == %@", ["free"], in: second).filter { !$0.isInserted }.isEmpty)
            // Under an object-trump policy the same save goes through as an upsert.
            second.mergePolicy = .mergeByPropertyObjectTrump
            try second.save()
        }
        let reader = try processContext(database, policy: .error)
        let stored = try reader.performAndWait {
            try fetch("Item", sortedBy: "code", in: reader).map { "\($0.value(forKey: "code") ?? "-") \($0.value(forKey: "writer") ?? "-")" }
        }
        #expect(stored == ["free 2", "taken 2"])
    }

    @Test("two processes saving overlapping codes over and over never see a conflict error: every code stored once")
    func overlappingSavesNeedNoRetryLoop() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let contexts = try (0..<2).map { _ in try processContext(database, policy: .mergeByPropertyObjectTrump) }
        let failures = LockedValue<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let context = contexts[writer]
            // Writer 0 saves codes 0..<600, writer 1 codes 300..<900, each in its own order.
            var codes = Array((writer * 300)..<(writer * 300 + 600))
            var generator = SystemRandomNumberGenerator()
            codes.shuffle(using: &generator)
            for start in stride(from: 0, to: codes.count, by: 50) {
                do {
                    try context.performAndWait {
                        for code in codes[start..<start + 50] {
                            _ = insertItem(code: "code-\(code)", writer: Int64(writer), into: context)
                        }
                        try context.save()
                        context.reset()
                    }
                } catch {
                    failures.withLock { $0.append("writer \(writer): \(error)") }
                    return
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let reader = try processContext(database, policy: .error)
        let codes = try reader.performAndWait { try fetch("Item", in: reader).compactMap { $0.value(forKey: "code") as? String } }
        #expect(codes.count == 900)
        #expect(Set(codes).count == 900)
    }
}
