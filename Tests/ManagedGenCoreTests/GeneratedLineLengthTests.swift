import DataModelReader
import Foundation
import ManagedGenCore
import Testing

/// Generated code reads like code a person wrote: no line is longer than 120 columns, in any
/// expected (golden) file or in the code generated for any model of the shared corpus.
@Suite struct GeneratedLineLengthTests {
    static let maximumColumns = 120

    /// The lines of `contents` longer than the limit, as `name:line: (columns) text…`.
    static func longLines(in contents: String, name: String) -> [String] {
        contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            guard line.utf8.count > maximumColumns, line.count > maximumColumns else { return nil }
            return "\(name):\(number + 1): (\(line.count) columns) \(line.prefix(100))…"
        }
    }

    @Test func expectedFilesFitTheLineLimit() throws {
        let root = GoldenFiles.expectedDirectory
        let names = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }.sorted()
        try #require(names.count >= 60, "the expected files are at \(root.path)")
        var long: [String] = []
        for name in names {
            let contents = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            long += Self.longLines(in: contents, name: name)
        }
        #expect(long.isEmpty, "\(long.count) line(s) over \(Self.maximumColumns) columns:\n\(long.prefix(40).joined(separator: "\n"))")
    }

    /// Each corpus model as CI typechecks it (`CompileTests.corpusCompiles`: every version
    /// carried, classes for Manual/None entities, and the files people own), once as is and
    /// once with snapshots on.
    @Test func corpusOutputFitsTheLineLimit() throws {
        let roots = CompileTests.corpusRoots()
        try #require(roots.count >= 241, "the corpus is expected at \(CompileTests.corpusDirectory.path)")
        let generators = [
            Generator(options: GeneratorOptions(manualCodegen: .class)),
            Generator(options: GeneratorOptions(manualCodegen: .class, snapshots: true)),
        ]
        var checkedFiles = 0
        var long: [String] = []
        for root in roots where !CompileTests.brokenCorpusModels.contains(root) {
            let loaded = ModelLoader().load(at: CompileTests.corpusDirectory.appendingPathComponent(root).path)
            let bundle = try loaded.requireBundle()
            let fileName = URL(fileURLWithPath: root).lastPathComponent
            for generator in generators {
                let output = generator.generate(bundle, modelFileName: fileName)
                try #require(!output.diagnostics.hasErrors, "\(root): \(output.diagnostics)")
                for file in output.files + generator.humanFiles(for: bundle.current.model, modelFileName: fileName) {
                    long += Self.longLines(in: file.contents, name: "\(root)/\(file.name)")
                    checkedFiles += 1
                }
            }
        }
        #expect(checkedFiles > 2000)
        #expect(long.isEmpty, "\(long.count) line(s) over \(Self.maximumColumns) columns:\n\(long.prefix(40).joined(separator: "\n"))")
    }
}
