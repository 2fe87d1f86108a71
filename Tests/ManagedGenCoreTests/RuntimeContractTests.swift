import DataModelReader
import Foundation
@testable import ManagedGenCore
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
        #expect(members.count > 40)
        let fixture = GoldenFiles.pluginTargetModelsDirectory.appendingPathComponent("ReservedNames.xcdatamodel").path
        let model = try ModelLoader().load(at: fixture).requireBundle().current.model
        let attributeNames = Set(try #require(model.entity(named: "Reserved")).attributes.map(\.name))
        let missing = members.subtracting(attributeNames).sorted()
        #expect(missing.isEmpty, "add these to Tests/GeneratedSeedsTests/Models/ReservedNames.xcdatamodel: \(missing)")
        // `id` stands beside `Identifiable`'s (see `SwiftNames.managedObjectMembers`).
        let unreserved = members.subtracting(SwiftNames.managedObjectMembers).subtracting(["id"])
        #expect(unreserved.isEmpty, "reserve these in SwiftNames.managedObjectMembers: \(unreserved.sorted())")
    }

    /// Generated code goes through one door: of the runtime's generated-code SPI, only the door
    /// (`_managedGen`) and what generated classes override are members of `ManagedObject` and
    /// `FetchableManagedObject`, so only those are names a model property cannot have. (The
    /// symbol graph leaves out `_`-prefixed names such as the door itself; every fixture's
    /// generated code compiling through it, `CompileTests`, shows the door is there.)
    @Test func theGeneratedCodeSPIOnObjectsAndClassesIsTheDoor() throws {
        let spi = try RuntimeSymbols.memberNames(of: ["ManagedObject", "FetchableManagedObject"], spiOnly: true)
        #expect(spi == RuntimeContract.reservedMembers.filter { !$0.hasPrefix("_") })
        #expect(RuntimeContract.reservedMembers.count <= 2)
    }

    /// Every name the generator emits (`RuntimeContract`) is in the built runtime: the door's
    /// methods, the snapshot values' members and the runtime types generated code names.
    @Test func everyNameTheGeneratorEmitsIsInTheRuntime() throws {
        let objectDoor = try RuntimeSymbols.memberNames(of: [RuntimeContract.ObjectDoor.type])
        #expect(RuntimeContract.ObjectDoor.methods.subtracting(objectDoor).isEmpty,
                "missing from GeneratedObjectAccess: \(RuntimeContract.ObjectDoor.methods.subtracting(objectDoor).sorted())")
        let classDoor = try RuntimeSymbols.memberNames(of: [RuntimeContract.ClassDoor.type])
        #expect(RuntimeContract.ClassDoor.methods.subtracting(classDoor).isEmpty,
                "missing from GeneratedClassAccess: \(RuntimeContract.ClassDoor.methods.subtracting(classDoor).sorted())")
        let snapshotValues = try RuntimeSymbols.memberNames(of: [RuntimeContract.SnapshotValues.type])
        #expect(RuntimeContract.SnapshotValues.members.subtracting(snapshotValues).isEmpty)
        let managedObject = try RuntimeSymbols.memberNames(of: ["ManagedObject", "FetchableManagedObject"])
        let overridden: Set = [RuntimeContract.storedPropertyLayoutHash, RuntimeContract.entityName, RuntimeContract.propertyNamesByKeyPath]
        #expect(overridden.subtracting(managedObject).isEmpty, "\(overridden.subtracting(managedObject).sorted())")
        let types = try RuntimeSymbols.topLevelNames()
        #expect(RuntimeContract.types.subtracting(types).subtracting(["OrderedSet"]).isEmpty,
                "not in ManagedObjects: \(RuntimeContract.types.subtracting(types).sorted())")
        let modelLiteral = try RuntimeSymbols.memberNames(of: [RuntimeContract.ModelLiteral.type])
        #expect(RuntimeContract.ModelLiteral.types == modelLiteral, "ModelLiteral's aliases: \(modelLiteral.sorted())")
        #expect(Set(RuntimeContract.ModelLiteral.aliased).isSubset(of: RuntimeContract.ModelLiteral.types))
        // Nothing generated code writes reaches the runtime another way: every `ManagedObjects.`
        // name in the golden files is a runtime type, and every `ManagedObjects.ModelLiteral.`
        // name one of its model description types.
        var named: Set<String> = []
        var literalTypes: Set<String> = []
        for golden in GoldenCase.all {
            for file in try golden.generate().output.files {
                for match in file.contents.matches(of: /ManagedObjects\.([A-Za-z]+)/) { named.insert(String(match.output.1)) }
                for match in file.contents.matches(of: /ManagedObjects\.ModelLiteral\.([A-Za-z]+)/) {
                    literalTypes.insert(String(match.output.1))
                }
            }
        }
        #expect(literalTypes.isSuperset(of: RuntimeContract.ModelLiteral.aliased), "the model enums' aliases")
        #expect(literalTypes.isSubset(of: RuntimeContract.ModelLiteral.types), "\(literalTypes.subtracting(RuntimeContract.ModelLiteral.types))")
        #expect(named.subtracting(RuntimeContract.types).isEmpty,
                "\(named.subtracting(RuntimeContract.types).sorted())")
    }
}

/// Names declared by the built `ManagedObjects` module, from `swift-symbolgraph-extract`.
enum RuntimeSymbols {
    /// The identifier names of the members (methods without their labels; no operators or
    /// initialisers) of the given types, SPI included (`spiOnly`: only SPI ones).
    static func memberNames(of types: Set<String>, spiOnly: Bool = false) throws -> Set<String> {
        var names: Set<String> = []
        for symbol in try graph().symbols where symbol.pathComponents.count == 2 && types.contains(symbol.pathComponents[0]) {
            guard !spiOnly || symbol.spi == true else { continue }
            let name = String(symbol.pathComponents[1].prefix { $0 != "(" })
            if SwiftNames.isIdentifier(name) && name != "init" { names.insert(name) }
        }
        return names
    }

    /// The names of the module's top-level declarations, SPI included.
    static func topLevelNames() throws -> Set<String> {
        Set(try graph().symbols.filter { $0.pathComponents.count == 1 }.map { $0.pathComponents[0] })
    }

    /// The built module's symbol graph, extracted once.
    private static func graph() throws -> SymbolGraph { try extracted.get() }

    /// A static `let`: extracted by the first test that asks, once.
    private static let extracted = Result { try extractGraph() }

    private static func extractGraph() throws -> SymbolGraph {
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
        return try JSONDecoder().decode(SymbolGraph.self, from: data)
    }

    struct SymbolGraph: Decodable, Sendable {
        struct Symbol: Decodable, Sendable {
            var pathComponents: [String]
            /// Whether the symbol is SPI (`@_spi`); absent for public ones.
            var spi: Bool?
        }
        var symbols: [Symbol]
    }
}
