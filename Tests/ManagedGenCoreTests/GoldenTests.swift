import DataModel
import Foundation
import ManagedGenCore
import Testing

/// One fixture model generated with some options, compared with `Expected/<expected>/`.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    var fixture: String
    var expected: String
    var options = GeneratorOptions()
    /// Where a second, compiled copy of the output lives (the seeds' `GeneratedSeedsTests`).
    var compiledCopy: String?

    var testDescription: String { expected }

    static let all: [GoldenCase] = [
        GoldenCase(fixture: "Tweets.xcdatamodeld", expected: "Tweets", compiledCopy: "Tweets"),
        GoldenCase(fixture: "DogWalk.xcdatamodeld", expected: "DogWalk", compiledCopy: "DogWalk"),
        GoldenCase(fixture: "Flights.xcdatamodeld", expected: "Flights", compiledCopy: "Flights"),
        GoldenCase(fixture: "AllTypes.xcdatamodel", expected: "AllTypes"),
        GoldenCase(fixture: "AllTypes.xcdatamodel", expected: "AllTypes-strict", options: GeneratorOptions(optionality: .strict)),
        GoldenCase(fixture: "Inheritance.xcdatamodel", expected: "Inheritance"),
        GoldenCase(fixture: "FetchRequests.xcdatamodel", expected: "FetchRequests"),
        GoldenCase(fixture: "Keywords.xcdatamodel", expected: "Keywords"),
        GoldenCase(
            fixture: "DogWalk.xcdatamodeld", expected: "DogWalk-single-internal",
            options: GeneratorOptions(accessLevel: .internal, wrapperSuffix: "", singleFile: true, modelTypeName: "Walks")),
    ]

    /// Reads the fixture with the reader and generates; reader or generator errors fail the test.
    func generate(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (model: Model, output: GeneratorOutput) {
        let path = GoldenFiles.fixturesDirectory.appendingPathComponent(fixture).path
        let result = ModelLoader().load(at: path)
        let model = try #require(result.bundle?.current.model, "\(result.diagnostics)", sourceLocation: sourceLocation)
        #expect(!result.hasErrors, "\(result.diagnostics)", sourceLocation: sourceLocation)
        let output = Generator(options: options).generate(model, modelFileName: fixture)
        #expect(!output.diagnostics.hasErrors, "\(output.diagnostics)", sourceLocation: sourceLocation)
        return (model, output)
    }
}

@Suite struct GoldenTests {
    @Test(arguments: GoldenCase.all)
    func generatedSourcesMatchExpected(_ golden: GoldenCase) throws {
        let output = try golden.generate().output
        try GoldenFiles.verify(output.files, expected: golden.expected)
        if let copy = golden.compiledCopy {
            // The seeds' generated code is also committed into the GeneratedSeedsTests target,
            // which compiles and runs it against the runtime; this keeps that copy exact.
            try GoldenFiles.verify(output.files, expected: copy, in: GoldenFiles.generatedSeedsDirectory)
        }
    }

    @Test func listedOutputsAreTheGeneratedFiles() throws {
        for golden in GoldenCase.all {
            let (model, output) = try golden.generate()
            #expect(Generator(options: golden.options).outputFileNames(for: model, modelFileName: golden.fixture) == output.files.map(\.name))
        }
    }
}
