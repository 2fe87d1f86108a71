// Measures `managedgen generate` on a synthetic 1,000-entity model: reading (next to
// `xmllint --noout` on the same file, when installed), generation, writing, and the time
// swiftc takes to typecheck the generated code against ManagedObjects (whole-module, one
// frontend: without -wmo swiftc starts a frontend per file, each parsing all 1,001 files).
//
//   swift run -c release GenerateBenchmark [--entities 1000] [--no-typecheck]
//
// The typecheck needs the root package built in debug (`swift build` at the root): it uses
// ../.build/debug/Modules.
import DataModelReader
import Foundation
import ManagedGenCore

let arguments = CommandLine.arguments
let entityCount = arguments.firstIndex(of: "--entities").flatMap { Int(arguments[$0 + 1]) } ?? 1000
let typecheck = !arguments.contains("--no-typecheck")
let rootDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let work = FileManager.default.temporaryDirectory.appendingPathComponent("managedgen-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
let modelURL = work.appendingPathComponent("Synthetic.xcdatamodel")
try FileManager.default.createDirectory(at: modelURL, withIntermediateDirectories: true)
let contentsURL = modelURL.appendingPathComponent("contents")
try Data(syntheticModel(entities: entityCount).utf8).write(to: contentsURL)
let size = (try FileManager.default.attributesOfItem(atPath: contentsURL.path)[.size] as? Int) ?? 0
print("model: \(entityCount) entities, \(size / 1024) KiB")

if let xmllint = which("xmllint") {
    let (_, seconds) = try measure { try run(xmllint, ["--noout", contentsURL.path]) }
    print(String(format: "xmllint --noout:   %7.3f s", seconds))
} else {
    print("xmllint --noout:   (xmllint not installed)")
}

let (loaded, readSeconds) = measure { ModelLoader().load(at: modelURL.path) }
guard let model = loaded.bundle?.current.model, !loaded.hasErrors else {
    for diagnostic in loaded.diagnostics { print(diagnostic) }
    exit(1)
}
print(String(format: "read + validate:   %7.3f s", readSeconds))

let generator = Generator()
var (output, generateSeconds) = measure { generator.generate(model, modelFileName: "Synthetic.xcdatamodel") }
for _ in 0..<2 {
    let (again, seconds) = measure { generator.generate(model, modelFileName: "Synthetic.xcdatamodel") }
    output = again
    generateSeconds = min(generateSeconds, seconds)
}
let lines = output.files.reduce(0) { $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count }
print(String(format: "generate:          %7.3f s  (%d files, %d lines; best of 3)", generateSeconds, output.files.count, lines))

let outputURL = work.appendingPathComponent("Generated")
let (_, writeSeconds) = try measure { try OutputWriter().write(output.files, toDirectory: outputURL) }
print(String(format: "write:             %7.3f s", writeSeconds))

if typecheck {
    let modules = rootDirectory.appendingPathComponent(".build/debug/Modules")
    guard let swiftc = which("swiftc"), FileManager.default.fileExists(atPath: modules.appendingPathComponent("ManagedObjects.swiftmodule").path) else {
        print("typecheck:         (needs swiftc and `swift build` at \(rootDirectory.path))")
        exit(0)
    }
    let files = output.files.map { outputURL.appendingPathComponent($0.name).path }
    let (result, seconds) = try measure {
        try run(swiftc, [
            "-typecheck", "-wmo", "-swift-version", "6", "-warnings-as-errors", "-module-name", "Synthetic",
            "-I", modules.path,
            "-Xcc", "-fmodule-map-file=\(rootDirectory.appendingPathComponent("Sources/CLibXML2/module.modulemap").path)",
            // ManagedObjects imports GRDB, whose SQLite module clients must find too.
            "-Xcc", "-fmodule-map-file=\(rootDirectory.appendingPathComponent(".build/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap").path)",
            "-Xcc", "-I/usr/include/libxml2",
        ] + files)
    }
    if result.status != 0 {
        print(result.output.split(separator: "\n").prefix(20).joined(separator: "\n"))
        print("typecheck:         FAILED")
        exit(1)
    }
    print(String(format: "typecheck (swiftc): %6.3f s", seconds))
}
