import Foundation
import Testing
@testable import DataModel
@testable import DataModelReader

/// The model problems Xcode's model compiler builds with (a warning at most) and real models
/// keep: each fixture under `Fixtures/XcodeWarnings` (see its README) reads with its warnings,
/// each at the file and line of the element concerned, and no error.
@Suite("Model problems that are warnings")
struct XcodeWarningFixtureTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var fixture: String
        /// Line and message of each warning, in file order.
        var warnings: [(line: Int, message: String)]
        var testDescription: String { fixture }
    }

    static let cases: [Case] = [
        Case(fixture: "InverseMismatch", warnings: [
            (6, "relationship 'Author.drafts' names 'Book.author' as its inverse, but that relationship's inverse is 'books'"),
        ]),
        Case(fixture: "MissingInverse", warnings: [
            (4, "relationship 'Cart.items' has no inverse"),
            (5, "relationship 'Cart.owner' has no inverse"),
            (6, "relationship 'Cart.coupon' names inverseEntity 'Item' but no inverseName; it has no inverse"),
        ]),
        Case(fixture: "DestinationNotInModel", warnings: [
            (5, "destination entity 'Pedigree' of relationship 'Animal.pedigree' is not in the model"),
        ]),
        Case(fixture: "OrderedToOne", warnings: [
            (4, "relationship 'Track.album' is ordered but to-one; ordered is ignored"),
        ]),
        Case(fixture: "MinCountAboveMaxCount", warnings: [
            (4, "relationship 'Team.players' has minCount 5 above maxCount 2"),
        ]),
        Case(fixture: "ConfigurationListsEntityTwice", warnings: [
            (6, "configuration 'Cloud' lists entity 'Note' more than once"),
        ]),
        Case(fixture: "UntypedOptionalAttribute", warnings: [
            (5, "attribute 'Product.note' has no type and is not transient; it can only ever be nil"),
        ]),
        Case(fixture: "RelationshipWithoutDestination", warnings: [
            (5, "relationship 'Card.owner' has no destination entity; it can only ever be empty"),
            (6, "relationship 'Card.products' has no destination entity; it can only ever be empty"),
        ]),
    ]

    @Test("each fixture reads with its warnings at their lines and no error", arguments: cases)
    func warnsAndReads(_ testCase: Case) throws {
        let path = ReaderTestPaths.fixture("XcodeWarnings/\(testCase.fixture).xcdatamodel")
        let result = ModelLoader().load(at: path)
        #expect(result.diagnostics.errors.isEmpty, "\(result.diagnostics.errors)")
        let bundle = try result.requireBundle()
        #expect(bundle.current.model.entities.isEmpty == false)
        #expect(result.diagnostics.warnings.map(\.message) == testCase.warnings.map(\.message))
        #expect(result.diagnostics.warnings.map { $0.location?.line } == testCase.warnings.map(\.line))
        for warning in result.diagnostics.warnings {
            #expect(warning.location?.file == path + "/contents")
            #expect(warning.description.hasPrefix(path + "/contents:"))
            #expect(warning.description.contains(": warning: "))
        }
    }

    /// Every fixture in the folder is one of the cases above (a fixture added is a case added).
    @Test func everyFixtureIsACase() throws {
        let folder = ReaderTestPaths.fixture("XcodeWarnings")
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
        #expect(Set(fixtures) == Set(Self.cases.map(\.fixture)))
    }
}
