import DataModelReader
import Foundation
import ManagedGenCore
import Testing

/// One fixture model generated with some options, compared with `Expected/<expected>/`.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    var fixture: String
    var expected: String
    /// Whether the fixture is a model of `GeneratedSeedsTests` (in its `Models/`), which the
    /// build plugin generates for and whose tests run the result.
    var isPluginTargetModel = false
    var options = GeneratorOptions()
    /// Swift source the generated code needs from the app (a type a model names), compiled with it.
    var supportingSource: String?

    /// The supporting source as a file to compile beside the generated ones.
    var supportingFiles: [GeneratedFile] {
        supportingSource.map { [GeneratedFile(name: "Supporting.swift", contents: $0 + "\n")] } ?? []
    }

    var testDescription: String { expected }

    static let all: [GoldenCase] = [
        GoldenCase(fixture: "Tweets.xcdatamodeld", expected: "Tweets", isPluginTargetModel: true),
        GoldenCase(fixture: "DogWalk.xcdatamodeld", expected: "DogWalk", isPluginTargetModel: true),
        GoldenCase(fixture: "Flights.xcdatamodeld", expected: "Flights", isPluginTargetModel: true),
        GoldenCase(fixture: "AllTypes.xcdatamodel", expected: "AllTypes"),
        GoldenCase(fixture: "AllTypes.xcdatamodel", expected: "AllTypes-strict", options: GeneratorOptions(optionality: .strict)),
        // To-manys as Xcode types them (`NSSet?`, `NSOrderedSet?`): what the plugin generates for
        // targets on the CoreData product.
        GoldenCase(
            fixture: "AllTypes.xcdatamodel", expected: "AllTypes-foundation", options: GeneratorOptions(toManyCollections: .foundation)),
        GoldenCase(fixture: "Inheritance.xcdatamodel", expected: "Inheritance"),
        GoldenCase(fixture: "FetchRequests.xcdatamodel", expected: "FetchRequests", isPluginTargetModel: true),
        GoldenCase(fixture: "Keywords.xcdatamodel", expected: "Keywords"),
        // Properties named after every member of `ManagedObject` and of generated classes
        // (`ReservedNamesTests` keeps the list complete against the runtime's symbols).
        GoldenCase(fixture: "ReservedNames.xcdatamodel", expected: "ReservedNames", isPluginTargetModel: true),
        // Two versions: the model carries both for migration (`NotesModel.versions`).
        GoldenCase(fixture: "Notes.xcdatamodeld", expected: "Notes", isPluginTargetModel: true),
        // Transformables typed by class name, and a `Codable` struct of the app's (declared in
        // GeneratedSeedsTests, and here for the compile checks).
        GoldenCase(
            fixture: "Transformables.xcdatamodel", expected: "Transformables", isPluginTargetModel: true,
            supportingSource: "public struct BookcaseDimensions: Codable { public var width: Double; public var height: Double; public var shelves: Int }"),
        // Attributes typed with the app's enums (user info `swiftType`, `enumType`, SwiftGen's
        // `RawType`) and snapshots by entity user info; the enums are declared in
        // GeneratedSeedsTests, and here for the compile checks.
        GoldenCase(
            fixture: "Tracker.xcdatamodel", expected: "Tracker", isPluginTargetModel: true,
            supportingSource: trackerEnums),
        // Snapshots by option: a plain model, every attribute type (those that cannot be in a
        // snapshot left out), strict typing, a class tree (leaf classes only), and names that
        // clash with the snapshot's members and type.
        GoldenCase(fixture: "Tweets.xcdatamodeld", expected: "Tweets-snapshots", isPluginTargetModel: true, options: GeneratorOptions(snapshots: true)),
        GoldenCase(fixture: "AllTypes.xcdatamodel", expected: "AllTypes-snapshots", options: GeneratorOptions(snapshots: true)),
        GoldenCase(
            fixture: "AllTypes.xcdatamodel", expected: "AllTypes-strict-snapshots", options: GeneratorOptions(optionality: .strict, snapshots: true)),
        GoldenCase(fixture: "Inheritance.xcdatamodel", expected: "Inheritance-snapshots", options: GeneratorOptions(snapshots: true)),
        GoldenCase(fixture: "SnapshotNames.xcdatamodel", expected: "SnapshotNames", options: GeneratorOptions(snapshots: true)),
        GoldenCase(
            fixture: "DogWalk.xcdatamodeld", expected: "DogWalk-single-internal", isPluginTargetModel: true,
            options: GeneratorOptions(accessLevel: .internal, wrapperSuffix: "", singleFile: true, modelTypeName: "Walks")),
    ]

    /// The app's types the Tracker model names (as `Tests/GeneratedSeedsTests/TrackerScenarios.swift` declares them).
    static let trackerEnums = """
        public enum TicketState: String, Sendable, Codable, Hashable { case open, inProgress, closed }
        public enum TicketPriority: Int, Sendable, Codable, Hashable { case low, normal, high }
        public enum TicketSeverity: UInt8, Sendable, Codable, Hashable { case unknown, minor, major, critical }
        """

    var fixtureURL: URL {
        (isPluginTargetModel ? GoldenFiles.pluginTargetModelsDirectory : GoldenFiles.fixturesDirectory).appendingPathComponent(fixture)
    }

    /// Reads the fixture with the reader and generates; reader or generator errors fail the test.
    func generate(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (model: Model, output: GeneratorOutput) {
        let path = fixtureURL.path
        let result = ModelLoader().load(at: path)
        let bundle = try #require(result.bundle, "\(result.diagnostics)", sourceLocation: sourceLocation)
        let model = bundle.current.model
        #expect(!result.hasErrors, "\(result.diagnostics)", sourceLocation: sourceLocation)
        let output = Generator(options: options).generate(bundle, modelFileName: fixture)
        #expect(!output.diagnostics.hasErrors, "\(output.diagnostics)", sourceLocation: sourceLocation)
        return (model, output)
    }
}

@Suite struct GoldenTests {
    @Test(arguments: GoldenCase.all)
    func generatedSourcesMatchExpected(_ golden: GoldenCase) throws {
        let output = try golden.generate().output
        try GoldenFiles.verify(output.files, expected: golden.expected)
    }

    @Test func listedOutputsAreTheGeneratedFiles() throws {
        for golden in GoldenCase.all {
            let (model, output) = try golden.generate()
            #expect(Generator(options: golden.options).outputFileNames(for: model, modelFileName: golden.fixture) == output.files.map(\.name))
        }
    }
}
