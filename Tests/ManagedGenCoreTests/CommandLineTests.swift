import Foundation
import Testing

/// `managedgen generate` as a process: exit status, diagnostics on standard error, what is
/// written (and that nothing is on errors). Runs the `managedgen` built next to the tests.
@Suite struct CommandLineTests {
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static func managedgen() throws -> URL {
        guard let products = BuildProducts.directory(containing: "managedgen") else {
            throw TypecheckError(description: "managedgen not built; run `swift build --build-tests` first")
        }
        return products.appendingPathComponent("managedgen")
    }

    func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try Self.managedgen()
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                   standardError: String(decoding: errorData, as: UTF8.self))
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("managedgen-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    var dogWalk: String { GoldenFiles.pluginTargetModelsDirectory.appendingPathComponent("DogWalk.xcdatamodeld").path }

    @Test func generatesTheExpectedFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try run(["generate", dogWalk, "--output", directory.path])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = GoldenFiles.expectedDirectory.appendingPathComponent("DogWalk")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted()))
        for name in names {
            #expect(FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
                == FileManager.default.contents(atPath: expected.appendingPathComponent(name).path))
        }
    }

    @Test func listOutputsWritesNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let result = try run(["generate", dogWalk, "--output", output.path, "--list-outputs"])
        #expect(result.status == 0)
        #expect(result.standardOutput == ["DogWalkModel", "Dog", "Walk"].map { output.appendingPathComponent("\($0)+ManagedGen.swift").path + "\n" }.joined())
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func modelErrorsExitWithStatusOneAndWriteNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Card" representedClassName="Card" codeGenerationType="class">
                    <relationship name="user" maxCount="1" deletionRule="Nullify"/>
                </entity>
            </model>

            """.utf8).write(to: model.appendingPathComponent("contents"))
        let output = directory.appendingPathComponent("out")
        let result = try run(["generate", model.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Broken.xcdatamodel/contents:4:"))
        #expect(result.standardError.contains(": error: "))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// `generate` validates the current version only: an older version that does not validate
    /// does not stop it (it is left out of the versions the model carries, with a warning), an
    /// error in the current one does; `validate` reports the older one as an error.
    @Test func generateValidatesTheCurrentVersionOnlyAndValidateEveryVersion() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("Versions.xcdatamodeld")
        func writeVersion(_ name: String, _ entity: String) throws {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("""
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    \(entity)
                </model>

                """.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        let broken = #"<entity name="Card" codeGenerationType="class"><relationship name="user" maxCount="1" deletionRule="Nullify"/></entity>"#
        let good = #"<entity name="Card" representedClassName="Card" codeGenerationType="class"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
        try writeVersion("Versions", broken)
        try writeVersion("Versions 2", good)
        func setCurrent(_ name: String) throws {
            try Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(name).xcdatamodel</string></dict></plist>

                """.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        try setCurrent("Versions 2")
        let output = directory.appendingPathComponent("out")
        let generated = try run(["generate", bundle.path, "--output", output.path])
        #expect(generated.status == 0, "\(generated.standardError)")
        #expect(generated.standardError.contains("Versions.xcdatamodel/contents: warning: version 'Versions' is not carried for migration"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("Card+ManagedGen.swift").path))
        let modelFile = try String(contentsOf: output.appendingPathComponent("VersionsModel+ManagedGen.swift"), encoding: .utf8)
        #expect(!modelFile.contains("static let versions"), "only one sound version: nothing to carry")
        let validated = try run(["validate", bundle.path])
        #expect(validated.status == 1)
        #expect(validated.standardError.contains("Versions.xcdatamodel/contents:3:"))

        try setCurrent("Versions")
        let failed = try run(["generate", bundle.path, "--output", directory.appendingPathComponent("out2").path])
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("Versions.xcdatamodel/contents:3:"))
        #expect(failed.standardError.contains(": error: "))
    }

    @Test func optionsComeFromTheConfigFileAndFlagsOverrideThem() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("managedgen.json")
        try Data(#"{"singleFile": true, "accessLevel": "internal", "modelTypeName": "Walks"}"#.utf8).write(to: config)
        let output = directory.appendingPathComponent("out")
        let result = try run(["generate", dogWalk, "--output", output.path, "--config", config.path, "--access-level", "package"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["Walks+ManagedGen.swift"])
        let text = String(decoding: FileManager.default.contents(atPath: output.appendingPathComponent("Walks+ManagedGen.swift").path)!, as: UTF8.self)
        #expect(text.contains("package final class Dog: ManagedObjects.ManagedObject {"))

        try Data(#"{"singelFile": true}"#.utf8).write(to: config)
        let bad = try run(["generate", dogWalk, "--output", output.path, "--config", config.path])
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("managedgen.json: error: invalid configuration: 'singelFile': unknown option"))
    }

    /// The build plugin's `--default-to-many-collections foundation` (targets on the CoreData
    /// product) gives Xcode's `NSOrderedSet?`, unless the configuration file chooses.
    @Test func defaultToManyCollectionsYieldsToTheConfigFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("DogWalk+ManagedGen.swift")
        func walksDeclaration(_ arguments: [String]) throws -> String? {
            let result = try run(["generate", dogWalk, "--output-file", file.path] + arguments)
            #expect(result.status == 0, "\(result.standardError)")
            let text = String(decoding: FileManager.default.contents(atPath: file.path) ?? Data(), as: UTF8.self)
            // The declaration's line and the next (its getter, when it does not fit on one line).
            let lines = text.split(separator: "\n")
            return lines.firstIndex { $0.contains("public var walks:") }.map { lines[$0...min($0 + 1, lines.count - 1)].joined(separator: "\n") }
        }
        let foundation = try walksDeclaration(["--default-to-many-collections", "foundation"])
        #expect(foundation?.contains("public var walks: NSOrderedSet? {\n        get { _managedGen.nsOrderedSet(at: 1) }") == true, "\(foundation ?? "")")
        #expect(try walksDeclaration([])?.contains("public var walks: ManagedObjects.OrderedSet<Walk> {") == true)

        let config = directory.appendingPathComponent("managedgen.json")
        try Data(#"{"toManyCollections": "swift"}"#.utf8).write(to: config)
        let configured = try walksDeclaration(["--config", config.path, "--default-to-many-collections", "foundation"])
        #expect(configured?.contains("public var walks: ManagedObjects.OrderedSet<Walk> {") == true, "\(configured ?? "")")
        try Data(#"{"singleFile": true}"#.utf8).write(to: config)
        let unset = try walksDeclaration(["--config", config.path, "--default-to-many-collections", "foundation"])
        #expect(unset?.contains("public var walks: NSOrderedSet? {") == true, "\(unset ?? "")")
    }

    @Test func outputFileWritesOneFileAtThatPath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gen/DogWalk+ManagedGen.swift")
        let result = try run(["generate", dogWalk, "--output-file", file.path])
        #expect(result.status == 0, "\(result.standardError)")
        let text = String(decoding: FileManager.default.contents(atPath: file.path) ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("// Generated by ManagedGen from DogWalk.xcdatamodeld. Do not edit.\n"))
        #expect(text.contains("public final class Dog: ManagedObjects.ManagedObject {") && text.contains("public enum DogWalkModel {"))
    }

    @Test func generateSaysWhatItWroteThenThatNothingChanged() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try run(["generate", dogWalk, "--output", directory.path])
        #expect(first.standardOutput.contains("Generated 3 file(s) for DogWalk.xcdatamodeld") && first.standardOutput.contains("3 written, 0 unchanged"))
        let second = try run(["generate", dogWalk, "--output", directory.path])
        #expect(second.standardOutput.contains("0 written, 3 unchanged, 0 removed"))
        let quiet = try run(["generate", dogWalk, "--output", directory.path, "--quiet"])
        #expect(quiet.status == 0 && quiet.standardOutput.isEmpty)
    }

    @Test func validateSummarizesEachModelAndFailsOnErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("contents")
        try Data(#"<model><entity name="A"><attribute name="x" attributeType="Strin"/></entity></model>"#.utf8).write(to: broken)

        let valid = try run(["validate", dogWalk])
        #expect(valid.status == 0)
        #expect(valid.standardOutput == "\(dogWalk): valid (1 version, 2 entities in the current one, 0 warnings)\n")

        let both = try run(["validate", dogWalk, broken.path])
        #expect(both.status == 1)
        #expect(both.standardOutput.hasSuffix("\(broken.path): 1 error, 0 warnings\n"))
        #expect(both.standardError.contains("\(broken.path):1:"))
    }
}
