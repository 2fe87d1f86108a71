import Foundation
import ManagedObjects
@testable import PostgreSQLStore
import Testing

/// Mirrors the model of `PostgreSQLInsertLoop`, the child process.
enum TwoProcessModel {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(
            name: "Item",
            attributes: [
                Attribute(name: "code", type: .string, isOptional: true),
                Attribute(name: "writer", type: .integer64, isOptional: true),
            ],
            uniquenessConstraints: [["code"]]),
    ]))
}

@Suite("PostgreSQL store shared by two processes", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
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
        try insertFromTwoProcesses(perProcess: 10_000, secondStart: secondStart, shuffled: false)
    }

    /// Each process inserts its codes in an order of its own, so two saves meet on the same codes
    /// in opposite orders: PostgreSQL's deadlock (40P01) unless the store writes rows in one
    /// order and runs a deadlocked transaction again.
    @Test("two processes upsert overlapping codes in orders of their own: no deadlock reaches them, every code stored once")
    func twoProcessesUpsertInShuffledOrders() throws {
        try insertFromTwoProcesses(perProcess: 5_000, secondStart: 2_500, shuffled: true)
    }

    private func insertFromTwoProcesses(perProcess: Int, secondStart: Int, shuffled: Bool) throws {
        let database = PostgreSQLTestServer.freshDatabase()
        // The tables exist before the processes race to create them (they would wait on the
        // creation lock otherwise, which another test covers by opening stores at once).
        _ = try database.makeStore(TwoProcessModel.model)
        let ranges = [(writer: 1, first: 0), (writer: 2, first: secondStart)]
        var processes: [(Process, Pipe)] = []
        for range in ranges {
            let process = Process()
            process.executableURL = Self.insertLoop
            process.arguments = [
                database.url.absoluteString, String(range.writer), String(range.first), String(perProcess), "500",
                String(perProcess + secondStart),
            ] + (shuffled ? [String(range.writer)] : [])
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            processes.append((process, output))
        }
        for (process, output) in processes {
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "the insert loop exited with \(process.terminationStatus): \(printed)")
            #expect(printed.hasPrefix("done \(perProcess / 500) "), "\(printed)")
            // Each saw every item the other saved last, through its notifications.
            #expect(printed.contains("\nseen "), "\(printed)")
            print("insert loop: \(printed.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        let coordinator = try database.makeCoordinator(TwoProcessModel.model)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        let codes = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "code") as? String }
        }
        let expected = Set((0..<(perProcess + secondStart)).map { "item-\($0)" })
        #expect(codes.count == expected.count)
        #expect(Set(codes) == expected)
    }
}
