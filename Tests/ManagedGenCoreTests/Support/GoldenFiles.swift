import Foundation
import ManagedGenCore
import Testing

/// Compares generated files with the expected ones under `Expected/<name>/`. A difference is a
/// test failure showing the first differing lines. With `MANAGEDGEN_RECORD=1` in the
/// environment the expected files are rewritten instead — and the test still fails, saying so,
/// so a recording run can never pass for a comparison.
enum GoldenFiles {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixturesDirectory = testsDirectory.appendingPathComponent("Fixtures")
    static let expectedDirectory = testsDirectory.appendingPathComponent("Expected")
    /// The seeds' models (and FetchRequests) live in the `GeneratedSeedsTests` target, where the build plugin
    /// generates their classes and the tests run them: one copy serves both.
    static let pluginTargetModelsDirectory = testsDirectory.deletingLastPathComponent().appendingPathComponent("GeneratedSeedsTests/Models")
    static var isRecording: Bool { ProcessInfo.processInfo.environment["MANAGEDGEN_RECORD"] == "1" }

    static func verify(
        _ files: [GeneratedFile], expected name: String, in root: URL = expectedDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = root.appendingPathComponent(name)
        if isRecording {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files { try Data(file.contents.utf8).write(to: directory.appendingPathComponent(file.name)) }
            Issue.record("Recorded \(files.count) expected file(s) into \(root.lastPathComponent)/\(name); run again without MANAGEDGEN_RECORD=1 to compare.", sourceLocation: sourceLocation)
            return
        }
        let expectedNames = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let actualNames = files.map(\.name).sorted()
        if expectedNames != actualNames {
            Issue.record("""
                Generated files differ from \(root.lastPathComponent)/\(name):
                  expected: \(expectedNames.joined(separator: ", "))
                  actual:   \(actualNames.joined(separator: ", "))
                (set MANAGEDGEN_RECORD=1 to re-record)
                """, sourceLocation: sourceLocation)
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file.name).path) else { continue }
            let expected = String(decoding: data, as: UTF8.self)
            if let difference = firstDifference(expected: expected, actual: file.contents) {
                Issue.record("\(root.lastPathComponent)/\(name)/\(file.name) differs:\n\(difference)\n(set MANAGEDGEN_RECORD=1 to re-record)", sourceLocation: sourceLocation)
            }
        }
    }

    /// A readable line diff around the first differing line, or `nil` when equal.
    static func firstDifference(expected: String, actual: String) -> String? {
        if expected == actual { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var first = 0
        while first < min(expectedLines.count, actualLines.count) && expectedLines[first] == actualLines[first] { first += 1 }
        var lines = ["first difference at line \(first + 1):"]
        for index in max(0, first - 2)..<first { lines.append("  \(expectedLines[index])") }
        for index in first..<min(expectedLines.count, first + 5) { lines.append("- \(expectedLines[index])") }
        for index in first..<min(actualLines.count, first + 5) { lines.append("+ \(actualLines[index])") }
        return lines.joined(separator: "\n")
    }
}
