import DataModelReader
import Foundation
import ManagedGenCore
import Testing

/// Every version of every model root in the shared corpus generates, as `managedgen generate`
/// does it: for a bundle, once with each version as the current one (what a project at that
/// version generated), and once with the bundle's own current version carrying every other
/// version for migration (the default `modelVersions: all`), none left out. Code is not
/// typechecked here (`CompileTests.corpusCompiles` does that for current versions).
@Suite struct CorpusGenerationTests {
    @Test func everyVersionOfEveryModelGenerates() throws {
        let roots = CompileTests.corpusRoots()
        try #require(roots.count >= 241, "the corpus is expected at \(CompileTests.corpusDirectory.path)")
        var generated = 0
        var failures: [String] = []
        for root in roots where !CompileTests.brokenCorpusModels.contains(root) {
            let path = CompileTests.corpusDirectory.appendingPathComponent(root).path
            let fileName = URL(fileURLWithPath: root).lastPathComponent
            let all = ModelLoader().load(at: path, validating: .currentOnly)
            guard let bundle = all.bundle, !all.hasErrors else {
                failures.append("\(root): \(all.diagnostics.filter { $0.severity == .error })")
                continue
            }
            // The current version, carrying the others: every one of them carried.
            let carrying = Generator().generate(bundle, modelFileName: fileName)
            let notCarried = carrying.diagnostics.filter { $0.message.contains("is not carried") }
            if carrying.diagnostics.hasErrors || !notCarried.isEmpty {
                failures.append("\(root): \(carrying.diagnostics.filter { $0.severity == .error } + notCarried)")
            }
            // Each version as the current one.
            for version in bundle.versions {
                let one = ModelLoader().load(at: path, versionName: version.name, versions: .currentOnly)
                guard let current = one.bundle?.current, !one.hasErrors else {
                    failures.append("\(root) version \(version.name): \(one.diagnostics.filter { $0.severity == .error })")
                    continue
                }
                let output = Generator(options: GeneratorOptions(modelVersions: .current))
                    .generate(current.model, modelFileName: fileName)
                if output.diagnostics.hasErrors {
                    failures.append("\(root) version \(version.name): \(output.diagnostics.filter { $0.severity == .error })")
                } else {
                    generated += 1
                }
            }
        }
        print("corpus model versions generating: \(generated) (\(failures.count) failures)")
        #expect(failures.isEmpty, "\(failures.count) failure(s):\n\(failures.joined(separator: "\n"))")
        #expect(generated >= 369)
    }

    /// The models Xcode builds with a warning only (DataModelTests' `Fixtures/XcodeWarnings`):
    /// each generates, its warnings passed on and no error, and the code compiles.
    @Test(arguments: try! FileManager.default.contentsOfDirectory(
        atPath: CompileTests.packageRoot.appendingPathComponent("Tests/DataModelTests/Fixtures/XcodeWarnings").path
    ).filter { $0.hasSuffix(".xcdatamodel") }.sorted())
    func warningFixtureGeneratesAndCompiles(_ fixture: String) throws {
        let path = CompileTests.packageRoot.appendingPathComponent("Tests/DataModelTests/Fixtures/XcodeWarnings/\(fixture)").path
        let loaded = ModelLoader().load(at: path)
        let bundle = try loaded.requireBundle()
        #expect(loaded.diagnostics.contains { $0.severity == .warning })
        let generator = Generator(options: GeneratorOptions(manualCodegen: .class))
        let output = generator.generate(bundle, modelFileName: fixture)
        #expect(!output.diagnostics.hasErrors, "\(output.diagnostics)")
        let files = output.files + generator.humanFiles(for: bundle.current.model, modelFileName: fixture)
        let result = try Typechecker.shared().typecheck(files, moduleName: "Warning")
        #expect(result.succeeded, "\(result.output.prefix(3000))")
    }
}
