import DataModel
import Foundation
import GRDB
import ManagedObjects
import Testing

/// The model of the store `StoreSaveLoop` writes: entries of numbered batches.
enum SaveLoopModel {
    static let managedObjectModel = ManagedObjectModel(Model(entities: [
        Entity(name: "Entry", attributes: [
            Attribute(name: "batch", type: .integer64, isOptional: true),
            Attribute(name: "item", type: .integer64, isOptional: true),
        ]),
    ]))
    /// Entries per save, as `StoreSaveLoop` inserts them.
    static let batchSize = 8
}

@Suite("SQLite store: a process killed while saving")
struct SQLiteCrashSafetyTests {
    /// `StoreSaveLoop`, built beside the test bundle (`swift build` builds every target).
    static let saveLoopExecutable = siblingExecutable("StoreSaveLoop")

    /// Runs `StoreSaveLoop` with `arguments` and kills it `delay` seconds after it reported
    /// opening its store (never, when `delay` is nil); everything it wrote.
    static func runSaveLoop(_ arguments: [String], killAfter delay: Double?) throws -> String {
        let process = Process()
        process.executableURL = saveLoopExecutable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        var received = Data()
        while !received.starts(with: Data("open\n".utf8)) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }  // exited before opening: the lines say why not
            received.append(chunk)
        }
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        received.append(reader.readDataToEndOfFile())
        return String(decoding: received, as: UTF8.self)
    }

    /// The lines `StoreSaveLoop` reported before it was killed at a random moment of `window`
    /// after it had opened the store.
    private func runSaveLoopUntilKilled(store: URL, firstSequence: Int64, window: KillWindow) throws -> [String] {
        let output = try Self.runSaveLoop([store.path, String(firstSequence)], killAfter: window.nextDelay())
        // Only whole lines: a report cut short by the kill was never made.
        var lines = output.components(separatedBy: "\n")
        lines.removeLast()
        return lines
    }

    /// Copies the store's files (the WAL holds saves not yet checkpointed) so that checking
    /// them cannot change the store the next run writes to.
    private func copyOfStore(_ store: URL, into directory: TemporaryDirectory, run: Int) throws -> URL {
        let copy = directory.file("copy-\(run).sqlite")
        for suffix in ["", "-wal"] {
            let source = URL(fileURLWithPath: store.path + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: copy.path + suffix))
            }
        }
        return copy
    }

    @Test("after each of 100 kills the store opens, is intact and holds exactly the saves that returned",
          .timeLimit(.minutes(5)))
    func killedWhileSaving() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.saveLoopExecutable.path),
                     "build StoreSaveLoop first (swift build)")
        let files = try TemporaryDirectory()
        let store = files.file("SaveLoop.sqlite")
        var lastKept: Int64 = 0
        var killsDuringSaves = 0
        var batchesKept = 0
        var window = KillWindow()
        for run in 1...100 {
            let lines = try runSaveLoopUntilKilled(store: store, firstSequence: lastKept + 1, window: window)
            try #require(lines.first == "open", "run \(run): the save loop did not open the store: \(lines)")
            let reported = lines.dropFirst().map { Int64($0)! }
            if !reported.isEmpty { killsDuringSaves += 1 }
            window.record(savesReturned: !reported.isEmpty)

            // The store opens again, through the runtime, and counts its entries.
            let context = try sqliteContext(SaveLoopModel.managedObjectModel, at: store)
            let entries = try context.performAndWait {
                try context.count(for: FetchRequest<ManagedObject>(entityName: "Entry"))
            }

            let copy = try copyOfStore(store, into: files, run: run)
            let database = try DatabaseQueue(path: copy.path)
            let (integrity, batchSizes) = try database.read { db in
                (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                 try Dictionary(uniqueKeysWithValues: Row.fetchAll(
                    db, sql: "SELECT ZBATCH, COUNT(*) FROM ZENTRY WHERE ZBATCH > ? GROUP BY ZBATCH",
                    arguments: [lastKept]).map { row -> (Int64, Int) in (row[0], row[1]) }))
            }
            try database.close()
            try FileManager.default.removeItem(at: copy)
            try? FileManager.default.removeItem(atPath: copy.path + "-wal")

            #expect(integrity == "ok", "run \(run)")
            #expect(batchSizes.values.allSatisfy { $0 == SaveLoopModel.batchSize },
                    "run \(run): a batch is half applied: \(batchSizes)")
            let kept = Set(batchSizes.keys)
            // Every save that returned is kept; at most the one after the last report committed
            // without being reported (killed between the commit and the report).
            let lastReported = reported.last ?? lastKept
            let lost = Set(reported).subtracting(kept)
            #expect(lost.isEmpty, "run \(run): saves that returned are lost: \(lost.sorted())")
            let unreported = kept.subtracting(reported)
            #expect(unreported.isSubset(of: [lastReported + 1]),
                    "run \(run): kept saves that never ran: \(unreported.sorted()) (last reported: \(lastReported))")
            batchesKept += kept.count
            #expect(entries == batchesKept * SaveLoopModel.batchSize, "run \(run)")
            lastKept = kept.max() ?? lastKept
        }
        // The kills must land during saves, or the test checks only opening.
        #expect(killsDuringSaves >= 50, "\(killsDuringSaves) of 100 kills landed during saves")
    }
}
