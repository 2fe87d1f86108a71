import ModelFileLoading
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// Store files spoiled the ways a disk, a bug or an attacker spoils them, each opened and read
/// whole by `StoreReadProbe` in a process of its own: the outcome is a clear error or a read,
/// never a crash; memory stays bounded; a refused file is left byte for byte as it was. The
/// table of outcomes, times and peak memory is printed.
@Suite("SQLite store: hostile store files", .serialized)
struct HostileStoreTests {
    static let probe = siblingExecutable("StoreReadProbe")

    /// CoreDataPlus's SampleModel V1 store, as Core Data wrote it: cars in a three-entity
    /// hierarchy (one table, told apart by Z_ENT) owned by people.
    static let store = "alemar11__CoreDataPlus/SampleModel_V1.sqlite"
    static let model = RealSQLiteStoreTests.shared
        .appendingPathComponent("corpus/alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld")

    struct Report: Decodable {
        var outcome: String
        var milliseconds: Double
        var peakKiB: Int
    }

    /// How a case spoils its copy of the store.
    enum Spoil: Sendable {
        case sql(String)
        case metadataPlist(@Sendable () throws -> Data)
        case bytes(@Sendable (inout Data) -> Void)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var spoil: Spoil
        /// The outcome's start: "read " (opened and read whole), "open: CODE" or "read: CODE"; empty
        /// where any of them will do (a spoiled page may be found at the open or at a read).
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "untouched", spoil: .sql("SELECT 1"), expected: "read "),
        Case(name: "Z_METADATA plist of 32 MiB", spoil: .metadataPlist {
            try PropertyListSerialization.data(
                fromPropertyList: ["NSStoreType": "SQLite", "Junk": Data(count: 32 << 20)], format: .binary, options: 0)
        }, expected: "read "),
        Case(name: "Z_METADATA plist nested 100,000 deep", spoil: .metadataPlist {
            Data(("<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: 100_000)
                + String(repeating: "</array>", count: 100_000) + "</plist>").utf8)
        }, expected: "read "),
        Case(name: "Z_METADATA plist not a plist", spoil: .metadataPlist { Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }) },
             expected: "read "),
        Case(name: "Z_METADATA empty", spoil: .sql("DELETE FROM Z_METADATA"), expected: "open: 134020"),
        // A libFuzzer find (Fuzz/FailCases/FuzzStoreOpener): GRDB's row subscript trapped on it.
        Case(name: "Z_UUID a blob that is not text", spoil: .sql("UPDATE Z_METADATA SET Z_UUID = x'00ff80'"), expected: "open: 134020"),
        Case(name: "Z_PRIMARYKEY names and numbers of the wrong kinds", spoil: .sql("UPDATE Z_PRIMARYKEY SET Z_NAME = x'ff', Z_MAX = 'many' WHERE Z_ENT = 2"),
             expected: "open: 134100"),
        Case(name: "text, blobs and numbers in the wrong columns", spoil: .sql("""
            UPDATE ZCAR SET ZISLIMITEDEDITION = 'yes', ZMARKEDFORDELETIONASOF = 'tomorrow', ZMAKER = x'00ff00',
                ZCOLOR = 42, ZOWNER = 'abc' WHERE Z_PK <= 10
            """), expected: "read "),
        Case(name: "Z_ENT of no entity", spoil: .sql("UPDATE ZCAR SET Z_ENT = 99 WHERE Z_PK <= 3"), expected: "read "),
        Case(name: "Z_ENT NULL", spoil: .sql("UPDATE ZCAR SET Z_ENT = NULL WHERE Z_PK <= 3"), expected: "read "),
        Case(name: "to-one keys pointing nowhere", spoil: .sql("UPDATE ZCAR SET ZOWNER = 9999 WHERE Z_PK <= 5"), expected: "read "),
        Case(name: "a cycle of parents in Z_PRIMARYKEY", spoil: .sql("UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_ENT = 1"),
             expected: "read "),
        Case(name: "Z_MAX below the existing keys", spoil: .sql("UPDATE Z_PRIMARYKEY SET Z_MAX = 0"), expected: "read "),
        Case(name: "an entity missing from Z_PRIMARYKEY", spoil: .sql("DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'"),
             expected: "open: 134"),
        Case(name: "an entity's table dropped", spoil: .sql("DROP TABLE ZPERSON"), expected: "open: 134"),
        Case(name: "a column dropped", spoil: .sql("""
            DROP INDEX Z_Person_UNIQUE_firstName_lastName; ALTER TABLE ZPERSON DROP COLUMN ZFIRSTNAME
            """), expected: "open: 134"),
        Case(name: "truncated to half", spoil: .bytes { $0 = $0.prefix($0.count / 2) }, expected: ""),
        Case(name: "a page of garbage", spoil: .bytes { bytes in
            for index in 8192..<min(12288, bytes.count) { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        }, expected: "read: 134180"),
        // A libFuzzer find (Fuzz/FailCases/FuzzStoreOpener): reads see nothing wrong, but the
        // first write needs a page the pointer map does not know (the header's page count is
        // not trusted, so the file's size counts). The open's WAL set-up wrote, failed, and left
        // the file turned to WAL mode.
        Case(name: "rollback journal, a page the pointer map does not know", spoil: .bytes { bytes in
            bytes[18] = 1 // write and read versions 1: a rollback journal, not WAL
            bytes[19] = 1
            bytes.replaceSubrange(92..<96, with: [0, 0, 0, 0]) // "version valid for" no longer the change counter
            bytes.append(Data(count: 4096))
        }, expected: "open: 134080"),
        Case(name: "not SQLite", spoil: .bytes { bytes in bytes = Data(repeating: 0x42, count: 4096) }, expected: "open: 134080"),
    ]

    @Test("a spoiled store is refused untouched or read whole, in bounded memory", arguments: cases)
    func spoiledStore(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(Self.store, into: directory)
        try Self.spoil(url, testCase.spoil)
        let before = try Data(contentsOf: url)
        let report = try Self.runProbe(store: url)
        print(String(format: "hostile store | %@ | %@ | %.1f ms | %.1f MiB",
                     testCase.name, report.outcome, report.milliseconds, Double(report.peakKiB) / 1024))
        #expect(report.outcome.hasPrefix(testCase.expected), "\(report.outcome)")
        #expect(report.peakKiB < 256 * 1024, "peak \(report.peakKiB) KiB")
        if report.outcome.hasPrefix("open:") {
            #expect(try Data(contentsOf: url) == before, "a refused store was changed")
        }
    }

    @Test("a key allocator behind the rows (Z_MAX 0, or NULL) does not hand out taken keys", arguments: ["0", "NULL"])
    func keyAllocatorBehindTheRows(_ value: String) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(Self.store, into: directory)
        try Self.spoil(url, .sql("UPDATE Z_PRIMARYKEY SET Z_MAX = \(value)"))
        let model = try ManagedObjectModel(contentsOf: Self.model, versionName: "SampleModel")
        let context = try sqliteContext(model, at: url)
        let keys = try context.performAndWait {
            let people = try (0..<3).map { index in
                let person = ManagedObject(entity: try #require(model["Person"]), insertInto: context)
                person.setValue("New", forKey: "firstName")
                person.setValue("Person \(index)", forKey: "lastName")
                person.setValue(UUID(), forKey: "id")
                person.setValue(Date(), forKey: "updatedAt")
                return person
            }
            try context.save()
            return people.compactMap(\.objectID.storeNumber)
        }
        #expect(keys == [21, 22, 23], "the file's 20 people keep 1...20")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZPERSON") == "23")
    }

    /// The inputs libFuzzer found (Fuzz/FailCases/FuzzStoreOpener), opened as the fuzz target
    /// opens them, with each model of a real store: an open that fails leaves the file byte for
    /// byte as it was.
    static let fuzzFailCases = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/FailCases/FuzzStoreOpener")
    static let fuzzModels = [
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", "SampleModel"),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3"),
        ("raywenderlich__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld",
         "SurfJournalModel"),
    ]

    @Test("every kept fuzz input: a failed open leaves the file as it was, with every model")
    func fuzzFailCasesLeaveRefusedFilesUntouched() throws {
        let inputs = try FileManager.default.contentsOfDirectory(at: Self.fuzzFailCases, includingPropertiesForKeys: nil)
        #expect(inputs.count >= 3)
        let models = try Self.fuzzModels.map { path, version in
            try ManagedObjectModel(
                contentsOf: RealSQLiteStoreTests.shared.appendingPathComponent("corpus").appendingPathComponent(path),
                versionName: version)
        }
        for input in inputs {
            let bytes = try Data(contentsOf: input)
            for model in models {
                let directory = try TemporaryDirectory()
                let url = directory.url.appendingPathComponent("Fuzz.sqlite")
                try bytes.write(to: url)
                let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
                do {
                    try coordinator.addPersistentStore(type: .sqlite, at: url)
                } catch {
                    #expect(try Data(contentsOf: url) == bytes, "\(input.lastPathComponent): a failed open (\(error)) changed the file")
                }
            }
        }
    }

    static func spoil(_ url: URL, _ spoil: Spoil) throws {
        switch spoil {
        case .sql(let sql):
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { try $0.execute(sql: sql) }
            try queue.close()
        case .metadataPlist(let plist):
            let data = try plist()
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { try $0.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [data]) }
            try queue.close()
        case .bytes(let change):
            var bytes = try Data(contentsOf: url)
            change(&bytes)
            try bytes.write(to: url)
        }
    }

    /// Runs `StoreReadProbe` on the store; a crash (a signal, or no report) fails the test.
    static func runProbe(store: URL) throws -> Report {
        let process = Process()
        process.executableURL = probe
        process.arguments = [store.path, model.path, "SampleModel"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0,
              let report = try? JSONDecoder().decode(Report.self, from: data) else {
            throw ProbeCrashed(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
        }
        return report
    }

    struct ProbeCrashed: Error, CustomStringConvertible {
        var status: Int32
        var output: String
        var description: String { "StoreReadProbe did not report (status \(status)): \(output)" }
    }
}
