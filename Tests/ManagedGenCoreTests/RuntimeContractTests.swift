import DataModelReader
import Foundation
import ManagedGenCore
import Testing

/// The contract between generated code and the runtime, checked against the built runtime.
@Suite struct RuntimeContractTests {
    /// A file generated for another contract version fails to compile, and the message names the
    /// contract (the line above it says to regenerate).
    @Test func aFileForAnotherContractVersionDoesNotCompile() throws {
        let golden = try #require(GoldenCase.all.first { $0.expected == "DogWalk" })
        let (_, output) = try golden.generate()
        let current = "GeneratedCodeContract.Version\(Generator.runtimeContractVersion)"
        #expect(output.files.allSatisfy { $0.contents.contains(current) }, "every generated file names the contract")

        let typechecker = try Typechecker.shared()
        #expect(try typechecker.typecheck(output.files, moduleName: "ContractCurrent").succeeded)

        let newer = "GeneratedCodeContract.Version\(Generator.runtimeContractVersion + 1)"
        let mismatched = output.files.map { GeneratedFile(name: $0.name, contents: $0.contents.replacingOccurrences(of: current, with: newer)) }
        let result = try typechecker.typecheck(mismatched, moduleName: "ContractNewer")
        #expect(!result.succeeded)
        // The compiler's wording depends on the versions the enum has ("has no member 'Version2'"
        // beside Version1 alone; "'Version3' is not a member type of enum …" beside two).
        let missingVersion = "Version\(Generator.runtimeContractVersion + 1)"
        #expect(result.output.contains("has no member '\(missingVersion)'") || result.output.contains("'\(missingVersion)' is not a member type of enum 'ManagedObjects.GeneratedCodeContract'"),
                "\(result.output.prefix(2000))")
        #expect(result.output.contains("regenerate the file with the managedgen that matches your ManagedObjects"))
    }

    /// The reserved-names fixture names every member of `ManagedObject` and `FetchableManagedObject`
    /// (public and SPI, read from the built module's symbol graph), so a member added to the
    /// runtime without the generator knowing fails here instead of in users' builds.
    @Test func theReservedNamesFixtureCoversEveryRuntimeMember() throws {
        let members = try RuntimeSymbols.memberNames(of: ["ManagedObject", "FetchableManagedObject"])
        #expect(members.count > 80)
        let fixture = GoldenFiles.pluginTargetModelsDirectory.appendingPathComponent("ReservedNames.xcdatamodel").path
        let model = try ModelLoader().load(at: fixture).requireBundle().current.model
        let attributeNames = Set(try #require(model.entity(named: "Reserved")).attributes.map(\.name))
        let missing = members.subtracting(attributeNames).sorted()
        #expect(missing.isEmpty, "add these to Tests/GeneratedSeedsTests/Models/ReservedNames.xcdatamodel: \(missing)")
    }
}

/// Names declared by the built `ManagedObjects` module, from `swift-symbolgraph-extract`.
enum RuntimeSymbols {
    /// The identifier names of the members (methods without their labels; no operators or
    /// initialisers) of the given types, SPI included.
    static func memberNames(of types: Set<String>) throws -> Set<String> {
        let typechecker = try Typechecker.shared()
        let extractor = URL(fileURLWithPath: typechecker.swiftc).deletingLastPathComponent().appendingPathComponent("swift-symbolgraph-extract").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("managedgen-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        #if arch(arm64)
        let architecture = "aarch64"
        #else
        let architecture = "x86_64"
        #endif
        let result = try Typechecker.run(extractor, [
            "-module-name", "ManagedObjects", "-I", typechecker.modules,
            "-target", "\(architecture)-unknown-linux-gnu", "-output-dir", output.path,
            "-minimum-access-level", "public", "-include-spi-symbols",
        ] + typechecker.moduleMaps.flatMap { ["-I", URL(fileURLWithPath: $0).deletingLastPathComponent().path] })
        guard result.status == 0 else { throw TypecheckError(description: "swift-symbolgraph-extract failed:\n\(result.output)") }
        let data = try Data(contentsOf: output.appendingPathComponent("ManagedObjects.symbols.json"))
        let graph = try JSONDecoder().decode(SymbolGraph.self, from: data)
        var names: Set<String> = []
        for symbol in graph.symbols where symbol.pathComponents.count == 2 && types.contains(symbol.pathComponents[0]) {
            let name = String(symbol.pathComponents[1].prefix { $0 != "(" })
            if SwiftNames.isIdentifier(name) && name != "init" { names.insert(name) }
        }
        return names
    }

    private struct SymbolGraph: Decodable {
        struct Symbol: Decodable { var pathComponents: [String] }
        var symbols: [Symbol]
    }
}
