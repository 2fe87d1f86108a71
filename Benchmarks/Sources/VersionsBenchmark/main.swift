// What carrying a bundle's versions in the generated model costs (issue 11: "measure what it
// costs to compile on the largest bundle of the corpus"; issue 17: `generate` on a many-version
// bundle against its current version alone). For the corpus bundle with the most versions, both
// ways in one run: generated with every version (`modelVersions: all`, the default) and with the
// current one alone (`current`): read + generate time in process (best of 5), generated lines,
// and `swiftc -typecheck -wmo` of the output against ManagedObjects (best of 3).
//
//   swift run -c release VersionsBenchmark [--model <path.xcdatamodeld>]
//
// The typecheck needs the root package built in debug (`swift build` at the root).
import DataModelReader
import Foundation
import ManagedGenCore

let arguments = CommandLine.arguments
let rootDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let corpusDirectory = rootDirectory.deletingLastPathComponent().appendingPathComponent("shared/corpus")

/// The `.xcdatamodeld` of the corpus with the most versions (ties: first by path).
func bundleWithMostVersions() -> String? {
    guard let enumerator = FileManager.default.enumerator(atPath: corpusDirectory.path) else { return nil }
    var best: (path: String, versions: Int)?
    while let relative = enumerator.nextObject() as? String {
        guard relative.hasSuffix(".xcdatamodeld") else { continue }
        enumerator.skipDescendants()
        let path = corpusDirectory.appendingPathComponent(relative).path
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }.count
        if versions > (best?.versions ?? 0) || (versions == best?.versions && path < best!.path) { best = (path, versions) }
    }
    return best?.path
}

guard let bundlePath = arguments.firstIndex(of: "--model").map({ arguments[$0 + 1] }) ?? bundleWithMostVersions() else {
    print("no .xcdatamodeld found under \(corpusDirectory.path)")
    exit(1)
}
let fileName = URL(fileURLWithPath: bundlePath).lastPathComponent
let work = FileManager.default.temporaryDirectory.appendingPathComponent("managedgen-versions-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }

struct Way {
    var name: String
    var options: GeneratorOptions
    var seconds = Double.infinity
    var files: [GeneratedFile] = []
    var typecheckSeconds = Double.infinity
}

/// What `managedgen generate` does in process: read (all versions, or the current one alone),
/// validate the current version, generate.
func generate(_ options: GeneratorOptions) -> [GeneratedFile] {
    let loaded = ModelLoader().load(
        at: bundlePath, versions: options.modelVersions == .all ? .all : .currentOnly, validating: .currentOnly)
    guard let bundle = loaded.bundle, !loaded.hasErrors else {
        print(loaded.diagnostics.map(\.description).joined(separator: "\n"))
        exit(1)
    }
    return Generator(options: options).generate(bundle, modelFileName: fileName).files
}

var ways = [
    Way(name: "current version alone", options: GeneratorOptions(manualCodegen: .class, modelVersions: .current)),
    Way(name: "every version", options: GeneratorOptions(manualCodegen: .class, modelVersions: .all)),
]
let versionCount = ModelLoader().load(at: bundlePath, validating: .currentOnly).bundle?.versions.count ?? 0
print("bundle: \(bundlePath.replacingOccurrences(of: corpusDirectory.path + "/", with: "")) (\(versionCount) versions)")
for round in 0..<5 {
    for index in ways.indices {
        let (files, seconds) = measure { generate(ways[index].options) }
        ways[index].seconds = min(ways[index].seconds, seconds)
        if round == 0 { ways[index].files = files }
    }
}

let modules = rootDirectory.appendingPathComponent(".build/debug/Modules")
let swiftc = which("swiftc")
let canTypecheck = swiftc != nil && FileManager.default.fileExists(atPath: modules.appendingPathComponent("ManagedObjects.swiftmodule").path)
if canTypecheck, let swiftc {
    for index in ways.indices {
        let directory = work.appendingPathComponent("way\(index)")
        try OutputWriter().write(ways[index].files, toDirectory: directory)
        let paths = ways[index].files.map { directory.appendingPathComponent($0.name).path }
        for _ in 0..<3 {
            let ((status, output), seconds) = try measure {
                try run(swiftc, [
                    "-typecheck", "-wmo", "-swift-version", "6", "-module-name", "Versions\(index)", "-I", modules.path,
                    "-Xcc", "-fmodule-map-file=\(rootDirectory.path)/.build/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap",
                ] + paths)
            }
            guard status == 0 else { print(output); exit(1) }
            ways[index].typecheckSeconds = min(ways[index].typecheckSeconds, seconds)
        }
    }
} else {
    print("typecheck: skipped (build the root package in debug first)")
}

func lines(_ files: [GeneratedFile]) -> Int {
    files.reduce(0) { $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count }
}
for way in ways {
    print(way.name.padding(toLength: 22, withPad: " ", startingAt: 0)
        + String(format: " read + generate %7.1f ms   %6d lines", way.seconds * 1000, lines(way.files))
        + (canTypecheck ? String(format: "   typecheck %6.2f s", way.typecheckSeconds) : ""))
}
let (current, all) = (ways[0], ways[1])
print(String(format: "every version / current alone: read + generate %.2f×, lines %.2f×", all.seconds / current.seconds,
             Double(lines(all.files)) / Double(lines(current.files)))
    + (canTypecheck ? String(format: ", typecheck %.2f×", all.typecheckSeconds / current.typecheckSeconds) : ""))
