import Foundation
import ManagedObjects
@testable import PostgreSQLStore
import StoreTestSupport
import Testing

@Suite("PostgreSQL store: connection faults", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLConnectionFaultTests {
    static let model = InsertLoopModel.model
    static let batchSize = 20

    /// What one save of one writer came to.
    struct Outcome {
        var writer: Int
        var batch: Int
        var started: Date
        var seconds: Double
        /// `nil`: the save returned.
        var error: (any Error)?
    }

    /// Three writers save batches through one store while the server (a test-scoped one, see
    /// `RestartableTestServer`) stops for a second and starts again.
    @Test("the server restarts under three writers: every save returns or throws 134070 naming the database, no batch is half written, the same store saves, fetches and hears remote changes afterwards")
    func serverRestartsUnderLoad() throws {
        let server = try RestartableTestServer()
        defer { server.stop() }
        let url = URL(string: server.url.absoluteString + "?connect_timeout=3")!
        let location = "127.0.0.1:\(server.port)/managedgen"
        let store = try PostgreSQLStore(model: Self.model, url: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.model)
        coordinator.addPersistentStore(store)
        // Another store on the database, as another process's, listening for this one's saves.
        let observer = try PostgreSQLStore(model: Self.model, url: url)
        let heard = LockedValue(Set<ManagedObjectID>())
        try observer.startObservingRemoteChanges { changes in heard.withLock { $0.formUnion(changes.inserted) } }

        let outcomes = LockedValue([Outcome]())
        let stopping = LockedValue(false)
        let writers = DispatchGroup()
        for writer in 1...3 {
            writers.enter()
            Thread.detachNewThread {
                defer { writers.leave() }
                let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
                var batch = 0
                while !stopping.withLock({ $0 }) {
                    batch += 1
                    let started = Date()
                    let error = context.performAndWait { () -> (any Error)? in
                        for number in 0..<Self.batchSize {
                            let item = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
                            item.setValue("w\(writer)-b\(batch)-\(number)", forKey: "code")
                            item.setValue(Int64(writer), forKey: "writer")
                        }
                        defer { context.reset() }
                        do {
                            try context.save()
                            return nil
                        } catch {
                            return error
                        }
                    }
                    outcomes.withLock {
                        $0.append(Outcome(writer: writer, batch: batch, started: started, seconds: Date().timeIntervalSince(started), error: error))
                    }
                    // While the server is away saves fail at once: no need to spin.
                    if error != nil { Thread.sleep(forTimeInterval: 0.02) }
                }
            }
        }
        /// Waits (60 s at most) until every writer saved `count` batches started after `since`.
        func waitForSaves(_ count: Int, since: Date) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let saved = outcomes.withLock { outcomes in
                    (1...3).map { writer in outcomes.filter { $0.writer == writer && $0.error == nil && $0.started > since }.count }
                }
                if saved.allSatisfy({ $0 >= count }) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        let began = Date()
        let savedBefore = waitForSaves(3, since: began)
        try server.restart(pausing: 1)
        let restarted = Date()
        let savedAfter = waitForSaves(3, since: restarted)
        stopping.withLock { $0 = true }
        writers.wait()
        #expect(savedBefore, "the writers saved before the restart")
        #expect(savedAfter, "every writer saved through the same store after the restart")

        let all = outcomes.withLock { $0 }
        let failures = all.filter { $0.error != nil }
        #expect(!failures.isEmpty, "saves were made while the server was away, and failed")
        for failure in failures {
            let error = failure.error as? ManagedObjectError
            #expect(error?.code == .persistentStoreOperation, "\(String(describing: failure.error))")
            #expect(error?.message.contains(location) == true, "\(String(describing: failure.error))")
        }
        #expect(all.map(\.seconds).max() ?? 0 < 15, "no save waited past the connect timeout and the retries")

        // Every returned save is stored whole; a failed one not at all, unless its outcome was
        // unknown (the connection went after COMMIT was sent): then whole or not at all.
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        let codes = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "code") as? String }
        }
        var storedPerBatch: [String: Int] = [:]
        for code in codes { storedPerBatch[String(code[..<code.lastIndex(of: "-")!]), default: 0] += 1 }
        for outcome in all {
            let stored = storedPerBatch["w\(outcome.writer)-b\(outcome.batch)"] ?? 0
            if outcome.error == nil {
                #expect(stored == Self.batchSize, "writer \(outcome.writer) batch \(outcome.batch) returned; \(stored) stored")
            } else if (outcome.error as? ManagedObjectError)?.message.contains("unknown") == true {
                #expect(stored == 0 || stored == Self.batchSize, "writer \(outcome.writer) batch \(outcome.batch): \(stored) stored")
            } else {
                #expect(stored == 0, "writer \(outcome.writer) batch \(outcome.batch) failed; \(stored) stored: \(String(describing: outcome.error))")
            }
        }
        #expect(codes.count == storedPerBatch.values.reduce(0, +))

        // The observer listens again: a save made now reaches it (its listener's connection
        // went with the restart).
        var reached = false
        let deadline = Date().addingTimeInterval(30)
        var marker = 0
        while !reached && Date() < deadline {
            marker += 1
            let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
            let objectID = try context.performAndWait {
                let item = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
                item.setValue("marker-\(marker)", forKey: "code")
                try context.save()
                return item.objectID
            }
            for _ in 0..<20 where !reached {
                Thread.sleep(forTimeInterval: 0.05)
                reached = heard.withLock { $0.contains(objectID) }
            }
        }
        #expect(reached, "the observing store heard a save made after the restart")

        // The server gone for good: a call fails at once with 134070 naming the database.
        server.stop()
        let asked = Date()
        let error = #expect(throws: ManagedObjectError.self) {
            try reader.performAndWait {
                reader.reset()
                return try reader.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
            }
        }
        #expect(error?.code == .persistentStoreOperation)
        #expect(error?.message.contains(location) == true, "\(String(describing: error))")
        #expect(Date().timeIntervalSince(asked) < 10)
    }

    @Test("statement_timeout in the URL: every connection has it; a fetch and a save held past it fail with 134070 naming the database and the limit; the store works afterwards")
    func statementTimeout() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let url = URL(string: database.url.absoluteString + "&statement_timeout=50")!
        let store = try PostgreSQLStore(model: Self.model, url: url)
        let pool = store.pool
        let setting = try pool.withConnection { try pool.query("SHOW statement_timeout", on: $0).first?.decode(String.self) }
        #expect(setting == "50ms")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.model)
        coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        let item = try context.performAndWait {
            let item = ManagedObject(entity: Self.model["Item"]!, insertInto: context)
            item.setValue("held", forKey: "code")
            try context.save()
            return item
        }

        // Another connection holds the table: the store's statements wait on it, past the limit.
        let holder = try pool.openDedicatedConnection()
        defer { PostgreSQLConnectionPool.close(holder) }
        try pool.execute("BEGIN", on: holder)
        try pool.execute("LOCK TABLE ZITEM IN ACCESS EXCLUSIVE MODE", on: holder)
        let started = Date()
        let fetchError = #expect(throws: ManagedObjectError.self) {
            try context.performAndWait { try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        }
        let saveError = #expect(throws: ManagedObjectError.self) {
            try context.performAndWait {
                item.setValue(Int64(7), forKey: "writer")
                try context.save()
            }
        }
        #expect(Date().timeIntervalSince(started) < 5)
        for error in [fetchError, saveError] {
            #expect(error?.code == .persistentStoreOperation)
            #expect(error?.message.contains(pool.location) == true, "\(String(describing: error))")
            #expect(error?.message.contains("statement timeout") == true, "\(String(describing: error))")
            #expect(error?.message.contains("statement_timeout=50 ms") == true, "\(String(describing: error))")
            // The server's error stays with it (NSUnderlyingErrorKey): query_canceled.
            #expect(error?.underlyingError.flatMap(PostgreSQLConnectionPool.sqlState(of:)) == "57014", "\(String(describing: error?.underlyingError))")
        }
        try pool.execute("ROLLBACK", on: holder)

        try context.performAndWait {
            try context.save()
            context.reset()
            let items = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            #expect(items.map { $0.value(forKey: "writer") as? Int64 } == [7])
        }
    }

    @Test("a bad statement_timeout or connect_timeout is refused when the store is added (134080), naming the parameter", arguments: [
        "statement_timeout=soon", "statement_timeout=-1", "statement_timeout=5s", "connect_timeout=0", "connect_timeout=1.5",
    ])
    func badTimeouts(parameter: String) throws {
        let container = PersistentContainer(name: "Items", managedObjectModel: Self.model)
        PostgreSQLStore.registerStoreType()
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(type: .postgreSQL, url: URL(string: "postgres://user@127.0.0.1:1/db?\(parameter)")!),
        ]
        let error = #expect(throws: ManagedObjectError.self) { try container.loadPersistentStores() }
        #expect(error?.code == .persistentStoreOpen)
        let name = String(parameter[..<parameter.firstIndex(of: "=")!])
        #expect(error?.message.contains(name) == true, "\(String(describing: error))")
    }
}
