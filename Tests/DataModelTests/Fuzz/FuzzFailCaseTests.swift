import Foundation
import Testing
@testable import DataModel

/// The inputs libFuzzer found failing (kept, minimised, in Fuzz/FailCases), replayed in every
/// test run with the check their fuzz target makes.
@Suite("Fuzz fail cases")
struct FuzzFailCaseTests {
    static let failCases = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/FailCases")

    static func inputs(of target: String) -> [String] {
        let folder = failCases.appendingPathComponent(target)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    @Test("FuzzPredicateParser: refused, or printed and parsed back to the same tree", arguments: inputs(of: "FuzzPredicateParser"))
    func predicateParser(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        guard let tree = try? PredicateSyntax(parsing: text) else { return }
        let printed = tree.format
        #expect(try PredicateSyntax(parsing: printed) == tree)
    }

    @Test("nested parentheses are parsed once each, however deep")
    func nestedParentheses() throws {
        // Before comparisons were remembered, each level parsed the rest twice: 2^60 attempts.
        let deep = String(repeating: "(TERNARY(", count: 60) + "a == 1"
        #expect(throws: PredicateSyntaxError.self) { try PredicateSyntax(parsing: deep) }
        let valid = String(repeating: "(", count: 200) + "a == 1" + String(repeating: ")", count: 200)
        #expect(try PredicateSyntax(parsing: valid) == PredicateSyntax(parsing: "a == 1"))
    }
}
