import Foundation
import Testing
@testable import StoreTools

/// The `managedgen` executable as a person runs it: output, errors on standard error naming the
/// file, exit statuses, each command's help with an example. Built with the tests (`swift build
/// --build-tests` builds every product), found beside the test bundle.
@Suite("managedgen store commands, run as a process")
struct ManagedGenExecutableTests {
    static func executable() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("managedgen")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw StoreToolError(file: CommandLine.arguments[0], "no managedgen executable beside the tests (build every product first)")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    @Test("each store command's --help shows an example", arguments: ["inspect", "diff", "migrate", "export"])
    func helpHasAnExample(_ command: String) throws {
        let result = try Self.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("Example:"))
        #expect(result.output.contains("managedgen \(command) "))
    }

    @Test("inspect --json prints the report; the store's files are unchanged")
    func inspectJSON() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "raywenderlich__cdt-materials/SurfJournalModel.sqlite" })
        let path = try store.copy(into: folder)
        let before = try folder.contents()
        let result = try Self.run(["inspect", path, "--json", "--model", try #require(store.bundlePath)])
        #expect(result.status == 0, "\(result.error)")
        let report = try JSONDecoder().decode(StoreInspection.self, from: Data(result.output.utf8))
        #expect(report.entities.map(\.objects) == [5000])
        #expect(report.model?.opening == "as is")
        #expect(try folder.contents() == before)
    }

    @Test("export without the app's transformer writes a Transformable's stored bytes, base64")
    func exportsUndecodedBytes() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "objcio__core-data/Moody 2.moody" })
        let path = try store.copy(into: folder)
        let result = try Self.run(["export", path, "--model", try #require(store.bundlePath), "--entity", "Mood", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.error)")
        let moods = try result.output.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(moods.count == 4)
        let rawFolder = try TemporaryFolder()
        let raw = try rawBlobs(store.copy(into: rawFolder), "SELECT ZCOLORS FROM ZMOOD ORDER BY Z_PK")
        #expect(moods.map { ($0["colors"] as? String).flatMap { Data(base64Encoded: $0) } } == raw)
    }

    @Test("errors go to standard error as <file>: error: …, with exit status 1", arguments: [
        ["inspect", "/nonexistent/Store.sqlite"],
        ["export", "/nonexistent/Store.sqlite", "--model", "/nonexistent/Model.xcdatamodeld"],
        ["migrate", "/nonexistent/Store.sqlite", "--model", "/nonexistent/Model.xcdatamodeld", "--dry-run"],
        ["diff", "/nonexistent/Model.xcdatamodeld"],
    ])
    func errors(_ arguments: [String]) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("/nonexistent/"))
        #expect(result.error.contains(": error: "))
        #expect(result.output.isEmpty)
    }

    @Test("a file that is not an SQLite store, and an SQLite file that is not Core Data's, are refused naming them")
    func notAStore() throws {
        let folder = try TemporaryFolder()
        let text = folder.url.appendingPathComponent("notes.sqlite").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let result = try Self.run(["inspect", text])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("\(text): error: is not an SQLite file"))
        let plain = folder.url.appendingPathComponent("plain.sqlite").path
        try makePlainSQLite(at: plain)
        let before = try folder.contents()
        let second = try Self.run(["inspect", plain])
        #expect(second.status == 1)
        #expect(second.error.hasPrefix("\(plain): error: "))
        #expect(second.error.contains("not a Core Data store"))
        #expect(!second.error.contains("managedgen-"), "names the copy instead of the file: \(second.error)")
        #expect(try folder.contents() == before)
    }
}
