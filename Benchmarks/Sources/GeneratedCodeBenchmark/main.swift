// Measures what the generated code costs the people who build it: for the synthetic
// 1,000-entity model and the largest model of the shared corpus (by entities in its current
// version), the generated lines and bytes per entity, and the time of `swiftc -typecheck -wmo`
// and of an optimised whole-module build (`-O -wmo -c`) of the generated code against a stored-property
// baseline: the same classes (same names and superclasses) with each generated property as a
// plain stored `var` of the same type and nothing else; and the typecheck against the same
// generated code without its key-path tables (what typed queries cost). The ratios are what
// matters; each figure is the median of `--runs` runs, the two sides alternating, in wall time
// and in the compiler's CPU time.
//
//   swift run -c release GeneratedCodeBenchmark [--entities 1000] [--runs 3] [--corpus-model <path>]
//       [--no-build] [--keep <dir>] [--modules-scratch-path <dir>]
//
// Needs the root package built in debug (`swift build` at the root): it compiles against
// .build/debug/Modules, or the debug modules of `--modules-scratch-path` (a root build with
// `--scratch-path`). `--no-build` skips the -O builds (they take minutes for 1,000 entities).
import DataModelReader
import Foundation
import ManagedGenCore

let arguments = CommandLine.arguments
func option(_ name: String) -> String? { arguments.firstIndex(of: name).map { arguments[$0 + 1] } }
let entityCount = option("--entities").flatMap(Int.init) ?? 1000
let runs = option("--runs").flatMap(Int.init) ?? 3
let optimisedBuild = !arguments.contains("--no-build")
let rootDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let corpusDirectory = rootDirectory.deletingLastPathComponent().appendingPathComponent("shared/corpus")
let scratchDirectory = option("--modules-scratch-path").map { URL(fileURLWithPath: $0, relativeTo: rootDirectory) }
    ?? rootDirectory.appendingPathComponent(".build")
let modules = scratchDirectory.appendingPathComponent("debug/Modules")
guard let swiftc = which("swiftc"), FileManager.default.fileExists(atPath: modules.appendingPathComponent("ManagedObjects.swiftmodule").path) else {
    print("needs swiftc and `swift build` at \(rootDirectory.path)")
    exit(1)
}

let work = URL(fileURLWithPath: option("--keep") ?? FileManager.default.temporaryDirectory
    .appendingPathComponent("managedgen-generated-code-benchmark-\(ProcessInfo.processInfo.processIdentifier)").path)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { if option("--keep") == nil { try? FileManager.default.removeItem(at: work) } }

/// The largest model root of the corpus by entities in its current version (ties: first by path).
func largestCorpusModel() -> String? {
    guard let enumerator = FileManager.default.enumerator(atPath: corpusDirectory.path) else { return nil }
    var best: (path: String, entities: Int)?
    var roots: [String] = []
    while let relative = enumerator.nextObject() as? String {
        if relative.hasSuffix(".xcdatamodeld") || relative.hasSuffix(".xcdatamodel") {
            roots.append(relative)
            enumerator.skipDescendants()
        }
    }
    for root in roots.sorted() {
        let path = corpusDirectory.appendingPathComponent(root).path
        guard let count = ModelReader().read(at: path).bundle?.current.model.entities.count else { continue }
        if count > (best?.entities ?? 0) { best = (path, count) }
    }
    return best?.path
}

/// The baseline for generated files: each generated class with the generated properties of
/// its extensions as stored `var`s of the same type (no accessors, methods, keys or model).
/// Generated structs (composite attributes) are kept as they are, since properties use them.
func storedPropertyBaseline(of files: [GeneratedFile]) -> [GeneratedFile] {
    var superclassByClass: [String: String] = [:]
    var classOrder: [String] = []
    var headerByClass: [String: String] = [:]
    var propertiesByClass: [String: [String]] = [:]
    var structs: [String] = []
    for file in files {
        var currentExtension: String?
        var structLines: [String]?
        for line in file.contents.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var collected = structLines {
                collected.append(line)
                if line == "}" {
                    structs.append(collected.joined(separator: "\n"))
                    structLines = nil
                } else {
                    structLines = collected
                }
                continue
            }
            if !line.hasPrefix(" "), line.contains("struct "), line.hasSuffix("{") {
                structLines = [line]
            } else if !line.hasPrefix(" "), !line.hasPrefix("extension"), line.contains("class "), line.hasSuffix("{"),
                      let colon = line.range(of: ": ") {
                let declaration = line[..<colon.lowerBound]
                let name = String(declaration.split(separator: " ").last!)
                headerByClass[name] = String(declaration)
                superclassByClass[name] = String(line[colon.upperBound...].dropLast(2))
                classOrder.append(name)
            } else if line.hasPrefix("extension ") {
                currentExtension = String(line.dropFirst("extension ".count).prefix { $0 != " " && $0 != ":" })
            } else if line == "}" {
                currentExtension = nil
            } else if let type = currentExtension, line.hasPrefix("    "), !line.hasPrefix("     "),
                      let property = storedProperty(line) {
                propertiesByClass[type, default: []].append(property)
            }
        }
    }
    // Category entities: the class is the user's; the baseline declares it.
    for name in propertiesByClass.keys.sorted() where headerByClass[name] == nil {
        headerByClass[name] = "public class \(name)"
        superclassByClass[name] = "ManagedObject"
        classOrder.append(name)
    }
    var baseline: [GeneratedFile] = []
    for name in classOrder {
        let properties = propertiesByClass[name, default: []].map { "    \($0)\n" }.joined()
        baseline.append(GeneratedFile(name: "\(name)+Baseline.swift", contents: """
            import Foundation
            import ManagedObjects

            \(headerByClass[name]!): \(superclassByClass[name]!) {
            \(properties)}

            """))
    }
    if !structs.isEmpty {
        baseline.append(GeneratedFile(name: "Structs+Baseline.swift", contents: "import Foundation\nimport ManagedObjects\n\n" + structs.joined(separator: "\n\n") + "\n"))
    }
    return baseline
}

/// `public var name: Type {` (accessors on the following lines or on this one) →
/// `public var name: Type = <empty value>` (optionals start nil; a type without an obvious empty
/// value becomes implicitly unwrapped, same cost to check).
func storedProperty(_ line: String) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard let varRange = trimmed.range(of: "var "),
          trimmed[..<varRange.lowerBound].split(separator: " ").allSatisfy({ ["public", "package", "internal", "open"].contains($0) }),
          let colon = trimmed.range(of: ": ", range: varRange.upperBound..<trimmed.endIndex),
          let brace = trimmed.range(of: " {", range: colon.upperBound..<trimmed.endIndex) else { return nil }
    let name = trimmed[varRange.upperBound..<colon.lowerBound]
    let type = String(trimmed[colon.upperBound..<brace.lowerBound])
    let access = trimmed[..<varRange.lowerBound]
    if type.hasSuffix("?") { return "\(access)var \(name): \(type)" }
    let unqualified = type.split(separator: ".").last.map(String.init) ?? type
    let empty: String? = switch unqualified {
    case "Int16", "Int32", "Int64", "Int", "Double", "Float", "Decimal": "0"
    case "Bool": "false"
    case "String": "\"\""
    case "Date": "Date()"
    case "Data": "Data()"
    case "UUID": "UUID()"
    default: type.hasPrefix("[") || type.contains("Set<") ? "[]" : nil
    }
    return empty.map { "\(access)var \(name): \(type) = \($0)" } ?? "\(access)var \(name): \(type)!"
}

func write(_ files: [GeneratedFile], to directory: URL) throws -> [String] {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try files.map { file in
        let url = directory.appendingPathComponent(file.name)
        try Data(file.contents.utf8).write(to: url)
        return url.path
    }
}

func swiftcArguments(moduleName: String) -> [String] {
    [
        "-wmo", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library", "-module-name", moduleName,
        "-I", modules.path,
        "-Xcc", "-fmodule-map-file=\(rootDirectory.appendingPathComponent("Sources/CLibXML2/module.modulemap").path)",
        "-Xcc", "-I/usr/include/libxml2",
        // ManagedObjects imports GRDB, whose SQLite module map the root build checked out.
        "-Xcc", "-fmodule-map-file=\(scratchDirectory.appendingPathComponent("checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap").path)",
    ]
}

/// Median seconds of `runs` runs of each command, alternating, so drift hits both alike: wall
/// time, and the compiler's CPU time (user + system), which a loaded machine moves much less.
func compare(_ label: String, generated: [String], baseline: [String], baselineName: String = "baseline") throws {
    var generatedTimes: [(wall: Double, cpu: Double)] = []
    var baselineTimes: [(wall: Double, cpu: Double)] = []
    for _ in 0..<runs {
        for (arguments, isGenerated) in [(generated, true), (baseline, false)] {
            let ((result, wall), cpu) = try measureChildCPU { try measure { try run(swiftc, arguments) } }
            if result.status != 0 {
                print(result.output.split(separator: "\n").prefix(20).joined(separator: "\n"))
                print("\(label): FAILED (\(isGenerated ? "generated" : baselineName))")
                exit(1)
            }
            if isGenerated { generatedTimes.append((wall, cpu)) } else { baselineTimes.append((wall, cpu)) }
        }
    }
    let median = { (times: [Double]) in times.sorted()[times.count / 2] }
    let (g, b) = (median(generatedTimes.map(\.wall)), median(baselineTimes.map(\.wall)))
    let (gc, bc) = (median(generatedTimes.map(\.cpu)), median(baselineTimes.map(\.cpu)))
    print(String(
        format: "  %@ %7.2f s   %@ %7.2f s   ratio %5.2f×   (cpu %6.2f s / %6.2f s = %5.2f×)",
        label.padding(toLength: 22, withPad: " ", startingAt: 0), g, baselineName, b, g / b, gc, bc, gc / bc))
}

/// The generated files without the key-path tables typed queries read (every line declaring or
/// building `propertyNames…`, and the lines a wrapped one continues on until its brackets close):
/// what typed queries add to generated code is the difference.
func withoutKeyPathTables(_ files: [GeneratedFile]) -> [GeneratedFile] {
    files.map { file in
        var kept: [Substring] = []
        var openBrackets = 0
        for line in file.contents.split(separator: "\n", omittingEmptySubsequences: false) {
            guard openBrackets > 0 || line.contains("propertyNames") else {
                kept.append(line)
                continue
            }
            for character in line {
                if "([{".contains(character) { openBrackets += 1 } else if ")]}".contains(character) { openBrackets -= 1 }
            }
        }
        return GeneratedFile(name: file.name, contents: kept.joined(separator: "\n"))
    }
}

func benchmark(title: String, model: Model, modelFileName: String, moduleName: String) throws {
    let output = Generator(options: GeneratorOptions(manualCodegen: .class)).generate(model, modelFileName: modelFileName)
    guard !output.diagnostics.hasErrors else {
        for diagnostic in output.diagnostics { print(diagnostic) }
        exit(1)
    }
    let lines = output.files.reduce(0) { $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
    let entities = model.entities.count
    print("\(title): \(entities) entities")
    print(String(format: "  generated lines        %7d   (%.1f per entity, %d files)", lines, Double(lines) / Double(entities), output.files.count))
    // Size in bytes, not lines: wrapping a long line adds lines, not code.
    let bytes = output.files.reduce(0) { $0 + $1.contents.utf8.count }
    print(String(format: "  generated bytes        %7d   (%.0f per entity)", bytes, Double(bytes) / Double(entities)))
    let generatedPaths = try write(output.files, to: work.appendingPathComponent("\(moduleName)/Generated"))
    let baselinePaths = try write(storedPropertyBaseline(of: output.files), to: work.appendingPathComponent("\(moduleName)/Baseline"))
    try compare("typecheck -wmo", generated: ["-typecheck"] + swiftcArguments(moduleName: moduleName) + generatedPaths,
                baseline: ["-typecheck"] + swiftcArguments(moduleName: moduleName) + baselinePaths)
    let untypedPaths = try write(withoutKeyPathTables(output.files), to: work.appendingPathComponent("\(moduleName)/WithoutKeyPathTables"))
    try compare("typecheck, key paths", generated: ["-typecheck"] + swiftcArguments(moduleName: moduleName) + generatedPaths,
                baseline: ["-typecheck"] + swiftcArguments(moduleName: moduleName) + untypedPaths, baselineName: "without")
    if optimisedBuild {
        let objects = work.appendingPathComponent(moduleName)
        try compare("build -O -wmo", generated: ["-O", "-c", "-o", objects.appendingPathComponent("generated.o").path] + swiftcArguments(moduleName: moduleName) + generatedPaths,
                    baseline: ["-O", "-c", "-o", objects.appendingPathComponent("baseline.o").path] + swiftcArguments(moduleName: moduleName) + baselinePaths)
    }
}

// The synthetic model.
let syntheticURL = work.appendingPathComponent("Synthetic.xcdatamodel")
try FileManager.default.createDirectory(at: syntheticURL, withIntermediateDirectories: true)
try Data(syntheticModel(entities: entityCount).utf8).write(to: syntheticURL.appendingPathComponent("contents"))
let synthetic = ModelLoader().load(at: syntheticURL.path)
guard let syntheticModel = synthetic.bundle?.current.model, !synthetic.hasErrors else {
    for diagnostic in synthetic.diagnostics { print(diagnostic) }
    exit(1)
}
try benchmark(title: "synthetic model", model: syntheticModel, modelFileName: "Synthetic.xcdatamodel", moduleName: "Synthetic")

// The largest corpus model.
guard let corpusPath = option("--corpus-model") ?? largestCorpusModel() else {
    print("corpus: none found at \(corpusDirectory.path)")
    exit(0)
}
let corpus = ModelLoader().load(at: corpusPath)
guard let corpusModel = corpus.bundle?.current.model, !corpus.hasErrors else {
    for diagnostic in corpus.diagnostics { print(diagnostic) }
    exit(1)
}
let corpusName = corpusPath.hasPrefix(corpusDirectory.path) ? String(corpusPath.dropFirst(corpusDirectory.path.count + 1)) : corpusPath
try benchmark(title: "corpus \(corpusName)", model: corpusModel, modelFileName: URL(fileURLWithPath: corpusPath).lastPathComponent, moduleName: "Corpus")
