import DataModelReader
import Foundation
import ManagedGenCore
import Testing

/// The API generated code offers its users, per golden case, compared with the list in
/// `ExpectedAPI/<case>.txt`: what lives in the runtime instead of the generated text (fetch
/// conveniences in a protocol extension, accessor helpers) must leave that list unchanged.
///
/// The list comes from the compiler, not from the text: the generated files are built into a
/// module and `swift-symbolgraph-extract` lists its symbols at the case's access level, members
/// inherited from protocol extensions included (SPI excluded: users do not see it). In a final
/// class `Self` is the class, so it is written as the class. Re-recorded with `MANAGEDGEN_RECORD=1`, like the golden files.
@Suite struct GeneratedAPITests {
    static let expectedDirectory = GoldenFiles.testsDirectory.appendingPathComponent("ExpectedAPI")

    @Test(arguments: GoldenCase.all)
    func generatedAPIIsUnchanged(_ golden: GoldenCase) throws {
        let (model, output) = try golden.generate()
        let human = Generator(options: golden.options).humanFiles(for: model, modelFileName: golden.fixture)
        let accessLevel = golden.options.accessLevel == .public ? "public" : "internal"
        let api = try Typechecker.shared().symbolList(of: output.files + human + golden.supportingFiles, accessLevel: accessLevel)
        let file = Self.expectedDirectory.appendingPathComponent("\(golden.expected).txt")
        if GoldenFiles.isRecording {
            try FileManager.default.createDirectory(at: Self.expectedDirectory, withIntermediateDirectories: true)
            try Data(api.utf8).write(to: file)
            Issue.record("Recorded ExpectedAPI/\(golden.expected).txt; run again without MANAGEDGEN_RECORD=1 to compare.")
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        let expectedLines = Set(expected.split(separator: "\n"))
        let actualLines = Set(api.split(separator: "\n"))
        let missing = expectedLines.subtracting(actualLines).sorted()
        let added = actualLines.subtracting(expectedLines).sorted()
        #expect(missing.isEmpty && added.isEmpty, """
            The API of \(golden.expected) changed (set MANAGEDGEN_RECORD=1 to re-record):
            missing:
            \(missing.joined(separator: "\n"))
            added:
            \(added.joined(separator: "\n"))
            """)
    }
}

extension Typechecker {
    /// One line per symbol of `files` built as a module: `<access> <path>: <declaration>`, sorted.
    func symbolList(of files: [GeneratedFile], accessLevel: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("managedgen-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try files.map { file in
            let url = directory.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url)
            return url.path
        }
        let clangArguments = ["-Xcc", "-I/usr/include/libxml2"] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
        let build = try Self.run(swiftc, [
            "-emit-module", "-wmo", "-parse-as-library", "-swift-version", "6", "-module-name", "Fixture",
            "-emit-module-path", directory.appendingPathComponent("Fixture.swiftmodule").path, "-I", modules,
        ] + clangArguments + paths)
        guard build.status == 0 else { throw TypecheckError(description: "emit-module failed:\n\(build.output.prefix(3000))") }
        let targetInfo = try Self.run(swiftc, ["-print-target-info"])
        let triple = try #require(
            ((try JSONSerialization.jsonObject(with: Data(targetInfo.output.utf8)) as? [String: Any])?["target"] as? [String: Any])?["triple"] as? String)
        let extractor = URL(fileURLWithPath: swiftc).deletingLastPathComponent().appendingPathComponent("swift-symbolgraph-extract").path
        let extract = try Self.run(extractor, [
            "-module-name", "Fixture", "-target", triple, "-I", directory.path, "-I", modules,
            "-minimum-access-level", accessLevel, "-output-dir", directory.path,
        ] + clangArguments)
        guard extract.status == 0 else { throw TypecheckError(description: "symbol graph failed:\n\(extract.output.prefix(3000))") }
        let graph = try Data(contentsOf: directory.appendingPathComponent("Fixture.symbols.json"))
        let symbols = try JSONDecoder().decode(SymbolGraph.self, from: graph).symbols
        let finalTypes = Set(symbols.filter { $0.declaration.hasPrefix("final class ") }.map { $0.pathComponents.joined(separator: ".") })
        // Members of the runtime's public protocol extensions are as visible as the class they are
        // on: with internal generated code that is internal.
        let levels = ["private", "fileprivate", "internal", "package", "public", "open"]
        let caseLevel = accessLevel == "public" ? levels.count - 1 : levels.firstIndex(of: accessLevel) ?? levels.count - 1
        let lines = symbols.filter { $0.spi != true }.map { symbol -> String in
            let access = levels[min(levels.firstIndex(of: symbol.accessLevel) ?? 0, caseLevel)]
            let owner = symbol.pathComponents.dropLast().joined(separator: ".")
            var declaration = symbol.declaration
            if finalTypes.contains(owner) {
                declaration = declaration.replacingOccurrences(of: #"\bSelf\b"#, with: owner, options: .regularExpression)
            }
            return "\(access) \(symbol.pathComponents.joined(separator: ".")): \(declaration)"
        }
        return Set(lines).sorted().joined(separator: "\n") + "\n"
    }

    private struct SymbolGraph: Decodable {
        var symbols: [Symbol]
    }

    private struct Symbol: Decodable {
        var pathComponents: [String]
        var accessLevel: String
        var spi: Bool?
        var declarationFragments: [Fragment]?
        var declaration: String { (declarationFragments ?? []).map(\.spelling).joined() }
    }

    private struct Fragment: Decodable {
        var spelling: String
    }
}
