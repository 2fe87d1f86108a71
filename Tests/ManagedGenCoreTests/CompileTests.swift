import DataModelReader
import Foundation
@testable import ManagedGenCore
import Testing

/// Typechecks generated code against the built `ManagedObjects` module with
/// `swiftc -typecheck -wmo -swift-version 6 -warnings-as-errors`, one module per model (class
/// names repeat across models). `-wmo` makes it one frontend per model instead of one per file,
/// each parsing every file: several times faster for models with many entities. Needs the package built first (`swift build --build-tests` does it).
///
/// The fixtures always run. The corpus (every model root in ../shared/corpus, generated with
/// `manualCodegen: class` so every entity gets a class) runs when `MANAGEDGEN_CORPUS=1`, with
/// `MANAGEDGEN_CORPUS_OPTIONALITY=strict` for strict typing: `Scripts/compile-generated.sh`
/// runs both.
@Suite struct CompileTests {
    static let packageRoot = GoldenFiles.testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let corpusDirectory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    /// Broken on purpose (see the corpus README): they must fail with an error instead.
    static let brokenCorpusModels: Set<String> = [
        "NijiDigital__gyro/spec/fixtures/xcdatamodel/error_relationship.xcdatamodel",
        "NijiDigital__gyro/spec/fixtures/xcdatamodel/error_undefined_type.xcdatamodel",
    ]

    /// Each fixture compiles, beside a file of the target's own declaring types named like the
    /// runtime's, like the model description's (`Model`, `Entity`, `Attribute`, `Relationship`)
    /// and like `ManagedObject`'s members and the door's methods: common words in apps, which
    /// the generator cannot see and which shadow imported names in every file of the target.
    @Test(arguments: GoldenCase.all)
    func fixtureCompiles(_ golden: GoldenCase) throws {
        let (model, output) = try golden.generate()
        let human = Generator(options: golden.options).humanFiles(for: model, modelFileName: golden.fixture)
        let files = output.files + human + golden.supportingFiles
        let result = try Typechecker.shared().typecheck(files + [Self.shadowingTypes(besides: files)], moduleName: "Fixture")
        #expect(result.succeeded, "\(golden.expected):\n\(result.output.prefix(4000))")
    }

    /// What an app's target may declare that generated code must not be confused by.
    static let shadowingNames: [String] = {
        // `DataModel` too: the module's name, which generated code must not qualify with.
        let modelDescription = RuntimeContract.ModelLiteral.types.sorted() + ["DataModel"]
        let members = SwiftNames.managedObjectMembers.union(RuntimeContract.ObjectDoor.methods).union(RuntimeContract.ClassDoor.methods)
            .filter { SwiftNames.isIdentifier($0) && !SwiftNames.reservedWords.contains($0) }
        return (modelDescription + RuntimeContract.types.sorted() + members.sorted())
    }()

    /// `struct <Name> {}` for each of `shadowingNames` that `files` do not declare themselves
    /// (a model may have an entity named `Entity`).
    static func shadowingTypes(besides files: [GeneratedFile]) -> GeneratedFile {
        let text = files.map(\.contents).joined(separator: "\n")
        let names = shadowingNames.filter { name in
            !text.contains("class \(name):") && !text.contains("class \(name) ") && !text.contains("enum \(name) ")
                && !text.contains("struct \(name) ") && !text.contains("protocol \(name) ") && !text.contains("struct \(name):")
                && !text.contains("enum \(name):") && !text.contains("protocol \(name):")
        }
        return GeneratedFile(name: "TargetsOwnTypes.swift", contents: names.map { "struct \($0) {}" }.joined(separator: "\n") + "\n")
    }

    /// `ManagedObjects` does not re-export `DataModel`: a file that imports only ManagedObjects
    /// does not see `Model`, `Entity`, `Attribute` or `Relationship` (the same file importing
    /// `DataModel` too compiles, so the failure is the names' visibility, nothing else).
    @Test func theModelDescriptionTypesAreNotVisibleThroughManagedObjects() throws {
        let names = ["Model", "Entity", "Attribute", "Relationship"]
        let declarations = names.map { "func uses\($0)(_ value: \($0)?) {}" }.joined(separator: "\n") + "\n"
        let typechecker = try Typechecker.shared()
        let alone = try typechecker.typecheck(
            [GeneratedFile(name: "App.swift", contents: "import ManagedObjects\n\n" + declarations)], moduleName: "OnlyRuntime")
        #expect(!alone.succeeded)
        for name in names {
            #expect(alone.output.contains("cannot find type '\(name)' in scope"), "\(name): \(alone.output.prefix(2000))")
        }
        let withDataModel = try typechecker.typecheck(
            [GeneratedFile(name: "App.swift", contents: "import DataModel\nimport ManagedObjects\n\n" + declarations)],
            moduleName: "RuntimeAndDataModel")
        #expect(withDataModel.succeeded, "\(withDataModel.output.prefix(2000))")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["MANAGEDGEN_CORPUS"] == "1"))
    func corpusCompiles() throws {
        let roots = Self.corpusRoots()
        #expect(roots.count > 200)
        let typechecker = try Typechecker.shared()
        let failures = Failures()
        let started = Date()
        // Two swiftc processes at a time: the machine has two cores.
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for (offset, root) in roots.enumerated() where offset % 2 == worker {
                let path = Self.corpusDirectory.appendingPathComponent(root).path
                let loaded = ModelLoader().load(at: path)
                if Self.brokenCorpusModels.contains(root) {
                    if !loaded.hasErrors { failures.withLock { $0.append("\(root): expected a model error") } }
                    continue
                }
                guard let bundle = loaded.bundle, !loaded.hasErrors else {
                    failures.withLock { $0.append("\(root): read failed: \(loaded.diagnostics.filter { $0.severity == .error })") }
                    continue
                }
                let fileName = URL(fileURLWithPath: root).lastPathComponent
                let generator = Generator(options: GeneratorOptions(
                    optionality: Self.corpusOptionality, manualCodegen: .class, snapshots: Self.corpusSnapshots))
                let model = bundle.current.model
                let output = generator.generate(bundle, modelFileName: fileName)
                if output.diagnostics.hasErrors {
                    failures.withLock { $0.append("\(root): \(output.diagnostics.filter { $0.severity == .error })") }
                    continue
                }
                let files = output.files + generator.humanFiles(for: model, modelFileName: fileName) + Self.appTypes(namedBy: model)
                do {
                    let result = try typechecker.typecheck(files, moduleName: "Corpus\(offset)")
                    if !result.succeeded {
                        failures.withLock { $0.append("\(root):\n\(result.output.prefix(3000))") }
                    }
                } catch {
                    failures.withLock { $0.append("\(root): \(error)") }
                }
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        print("typechecked \(roots.count) corpus models (\(Self.corpusOptionality.rawValue) typing\(Self.corpusSnapshots ? ", snapshots" : "")) in \(String(format: "%.1f", elapsed)) s")
        let all = failures.withLock { $0 }
        #expect(all.isEmpty, "\(all.count) corpus model(s) failed:\n\(all.joined(separator: "\n\n"))")
    }

    /// `MANAGEDGEN_CORPUS_SNAPSHOTS=1`: every class that can have one gets a snapshot.
    static var corpusSnapshots: Bool { ProcessInfo.processInfo.environment["MANAGEDGEN_CORPUS_SNAPSHOTS"] == "1" }

    /// The Swift types a model's user info gives its attributes (`swiftType`, `enumType`,
    /// SwiftGen's `RawType`), declared as the app would: an enum of the attribute's raw type
    /// with one case. Names the generator ignores (not type names) are not declared.
    static func appTypes(namedBy model: Model) -> [GeneratedFile] {
        var declarations: [String: String] = [:]
        for attribute in model.entities.flatMap(\.attributes) {
            guard let name = UserInfoKeys.swiftTypeKeys.lazy.compactMap({ attribute.userInfo[$0] }).first,
                  SwiftNames.isIdentifier(name), !SwiftNames.reservedWords.contains(name), declarations[name] == nil else { continue }
            switch attribute.type {
            case .string: declarations[name] = "public enum \(name): String, Sendable, Codable, Hashable { case placeholder }"
            case .integer16, .integer32, .integer64: declarations[name] = "public enum \(name): Int, Sendable, Codable, Hashable { case placeholder }"
            default: continue
            }
        }
        guard !declarations.isEmpty else { return [] }
        return [GeneratedFile(name: "AppTypes.swift", contents: declarations.keys.sorted().map { declarations[$0]! }.joined(separator: "\n") + "\n")]
    }

    static var corpusOptionality: GeneratorOptions.Optionality {
        ProcessInfo.processInfo.environment["MANAGEDGEN_CORPUS_OPTIONALITY"].flatMap(GeneratorOptions.Optionality.init(rawValue:)) ?? .xcode
    }

    /// Model roots: `.xcdatamodeld` bundles, and `.xcdatamodel` folders not inside one.
    static func corpusRoots() -> [String] {
        let base = corpusDirectory.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var roots: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodeld") || relative.hasSuffix(".xcdatamodel") {
                roots.append(relative)
                enumerator.skipDescendants()
            }
        }
        return roots.sorted()
    }
}

/// Runs `swiftc -typecheck` on generated files against the package's build products.
struct Typechecker: Sendable {
    let swiftc: String
    let modules: String
    /// The C modules the package's modules import (libxml2; SQLite through GRDB).
    let moduleMaps: [String]

    struct Result: Sendable {
        var succeeded: Bool
        var output: String
    }

    static func shared() throws -> Typechecker {
        let root = CompileTests.packageRoot
        guard let products = BuildProducts.directory(containing: "Modules/ManagedObjects.swiftmodule") else {
            throw TypecheckError(description: "ManagedObjects.swiftmodule not found next to the tests or under \(root.path)/.build; run `swift build --build-tests` first")
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        guard let swiftc = path.split(separator: ":").map({ "\($0)/swiftc" }).first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TypecheckError(description: "swiftc not found in PATH")
        }
        return Typechecker(swiftc: swiftc, modules: products.appendingPathComponent("Modules").path, moduleMaps: [
            root.appendingPathComponent("Sources/CLibXML2/module.modulemap").path,
            BuildProducts.checkouts(of: products).appendingPathComponent("GRDB.swift/Sources/GRDBSQLite/module.modulemap").path,
        ])
    }

    func typecheck(_ files: [GeneratedFile], moduleName: String) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("managedgen-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url)
            paths.append(url.path)
        }
        let result = try Self.run(swiftc, [
            "-typecheck", "-wmo", "-swift-version", "6", "-warnings-as-errors", "-module-name", moduleName,
            "-I", modules, "-Xcc", "-I/usr/include/libxml2",
        ] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + paths)
        return Result(succeeded: result.status == 0, output: result.output)
    }

    /// Runs a tool of the toolchain, its output and errors together.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

struct TypecheckError: Error, CustomStringConvertible {
    var description: String
}

/// Where the package's build products are: next to the running tests first (whatever the build
/// folder: `--scratch-path .build-address` for the sanitizer runs), else the default `.build`.
enum BuildProducts {
    static func directory(containing relativePath: String) -> URL? {
        let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let build = CompileTests.packageRoot.appendingPathComponent(".build")
        let candidates = [testBinary.deletingLastPathComponent()] + [
            "debug", "x86_64-unknown-linux-gnu/debug", "aarch64-unknown-linux-gnu/debug", "arm64-apple-macosx/debug",
        ].map(build.appendingPathComponent)
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(relativePath).path) }
    }

    /// The package checkouts of the build folder holding `products` (`<scratch>/<triple>/debug`).
    static func checkouts(of products: URL) -> URL {
        let scratch = products.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        return scratch.appendingPathComponent("checkouts")
    }
}

/// Failure messages collected from parallel workers.
final class Failures: @unchecked Sendable {
    // Unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var messages: [String] = []

    func withLock<T>(_ body: (inout [String]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&messages)
    }
}
