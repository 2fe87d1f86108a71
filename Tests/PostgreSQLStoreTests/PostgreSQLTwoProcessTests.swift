import Foundation
import ManagedObjects
@testable import PostgreSQLStore
import StoreTestSupport
import Testing

@Suite("PostgreSQL store shared by several processes", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLTwoProcessTests {
    /// The child process beside the test bundle (`swift build` builds every target).
    static var insertLoop: URL {
        let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return testBinary.deletingLastPathComponent().appendingPathComponent("PostgreSQLInsertLoop")
    }

    /// The second process starts at half its range (half the codes overlap, met one after the
    /// other) or at the first's (every save races the other process's for the same codes).
    @Test("two processes insert 10,000 objects each, with the other's codes: every code stored once, none lost, each told of the other's saves",
          arguments: [5_000, 0])
    func twoProcessesInsert(secondStart: Int) throws {
        try insertFromProcesses(2, perProcess: 10_000, offset: secondStart, options: [])
    }

    /// Each process inserts its codes in an order of its own, so two saves meet on the same codes
    /// in opposite orders: PostgreSQL's deadlock (40P01) unless the store writes rows in one
    /// order and runs a deadlocked transaction again.
    @Test("two processes upsert overlapping codes in orders of their own: no deadlock reaches them, every code stored once")
    func twoProcessesUpsertInShuffledOrders() throws {
        try insertFromProcesses(2, perProcess: 5_000, offset: 2_500, options: ["--shuffle"])
    }

    /// The load test: four processes, overlapping codes in orders of their own, and after each
    /// save an addition to one shared tally under optimistic locking (133020, refresh, add again).
    @Test("four processes upsert overlapping codes and add to one tally: no error reaches them, every code once, no addition lost")
    func fourProcessesUnderLoad() throws {
        try insertFromProcesses(4, perProcess: 2_500, offset: 1_000, options: ["--shuffle", "--tally"])
    }

    /// Runs `count` insert loops at once, the n-th inserting `perProcess` codes from
    /// `n * offset`; then checks every code is stored once and, with `--tally`, that the tally
    /// holds exactly the additions the processes saw return.
    private func insertFromProcesses(_ count: Int, perProcess: Int, offset: Int, options: [String]) throws {
        let database = PostgreSQLTestServer.freshDatabase()
        // The tables exist before the processes race to create them (they would wait on the
        // creation lock otherwise, which another test covers by opening stores at once).
        let coordinator = try database.makeCoordinator(InsertLoopModel.model)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            let tally = ManagedObject(entity: InsertLoopModel.model["Tally"]!, insertInto: context)
            tally.setValue("shared", forKey: "name")
            tally.setValue(Int64(0), forKey: "hits")
            try context.save()
        }
        let total = perProcess + (count - 1) * offset
        let processes = try InsertLoopProcesses(executable: Self.insertLoop, argumentLists: (1...count).map { writer in
            [database.url.absoluteString, String(writer), String((writer - 1) * offset), String(perProcess), "500", String(total)]
                + options.flatMap { $0 == "--shuffle" ? [$0, String(writer)] : [$0] }
        })
        try processes.go()
        var additions = 0
        for finished in processes.waitForAll() {
            let printed = finished.printed
            #expect(finished.status == 0, "the insert loop exited with \(finished.status): \(printed) \(finished.complaint)")
            // No save is refused for a code another process stored first (133021): the merge
            // policy resolves it inside the store's transaction, which holds the codes.
            #expect(printed.hasPrefix("done \(perProcess / 500) 0\n"), "\(printed)")
            // Each saw every item another saved last, through its notifications.
            #expect(printed.contains("\nseen "), "\(printed)")
            if options.contains("--tally") {
                let line = printed.split(separator: "\n").first { $0.hasPrefix("tally ") }
                additions += line.flatMap { Int($0.dropFirst("tally ".count)) } ?? 0
            }
            print("insert loop: \(printed.split(separator: "\n").filter { !$0.hasPrefix("latencies") }.joined(separator: "; "))")
        }
        let (codes, hits) = try context.performAndWait {
            context.reset()
            let tally = FetchRequest<ManagedObject>(entityName: "Tally")
            return (try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "code") as? String },
                    try context.fetch(tally).first?.value(forKey: "hits") as? Int64)
        }
        let expected = Set((0..<total).map { "item-\($0)" })
        #expect(codes.count == expected.count)
        #expect(Set(codes) == expected)
        if options.contains("--tally") {
            #expect(additions == count * perProcess / 500, "each save's addition returned")
            #expect(hits == Int64(additions), "the tally holds every addition that returned, no more")
        }
    }
}
