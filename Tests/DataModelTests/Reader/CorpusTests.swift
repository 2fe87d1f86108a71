import Foundation
import Testing
@testable import DataModel
@testable import DataModelReader

/// Every model of the shared corpus of real models (`../shared/corpus`, see its README) reads
/// and validates without errors, in every version, except the two broken on purpose.
@Suite("Corpus of real models")
struct CorpusTests {
    /// The models the corpus README lists as broken, and the error each must report.
    static let broken: [String: (line: Int, message: String)] = [
        "NijiDigital__gyro/spec/fixtures/xcdatamodel/error_relationship.xcdatamodel":
            (6, "relationship 'FidelityCard.user' has no destination entity, but requires an object"),
        "NijiDigital__gyro/spec/fixtures/xcdatamodel/error_undefined_type.xcdatamodel":
            (5, "attribute 'Product.name' has no type and is not transient; a required attribute needs a type"),
    ]

    /// Model roots: `.xcdatamodeld` bundles, and `.xcdatamodel` folders outside a bundle.
    static func modelRoots() throws -> [String] {
        let corpus = ReaderTestPaths.corpus
        guard let walker = FileManager.default.enumerator(atPath: corpus) else { return [] }
        var roots: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodeld") {
                roots.append(relative)
                walker.skipDescendants()
            } else if relative.hasSuffix(".xcdatamodel") {
                roots.append(relative)
                walker.skipDescendants()
            }
        }
        return roots.sorted()
    }

    @Test func everyModelRootReadsAndOnlyTheBrokenOnesFail() throws {
        let roots = try Self.modelRoots()
        try #require(roots.count >= 241, "the corpus is expected beside the checkout at \(ReaderTestPaths.corpus)")
        var versionCount = 0
        for root in roots {
            let result = ModelLoader().load(at: ReaderTestPaths.corpus + "/" + root)
            if let expected = Self.broken[root] {
                #expect(result.diagnostics.errors.count == 1, "\(root)")
                let error = try #require(result.diagnostics.errors.first)
                #expect(error.message == expected.message)
                #expect(error.location?.line == expected.line)
                #expect(error.location?.file.hasSuffix(root + "/contents") == true)
                continue
            }
            #expect(result.diagnostics.errors.isEmpty, "\(root): \(result.diagnostics.errors)")
            let bundle = try #require(result.bundle, "\(root)")
            versionCount += bundle.versions.count
            // Every version folder of a bundle is read (none in the corpus is binary).
            if root.hasSuffix(".xcdatamodeld") {
                let folders = try FileManager.default.contentsOfDirectory(atPath: ReaderTestPaths.corpus + "/" + root)
                    .filter { $0.hasSuffix(".xcdatamodel") }
                #expect(bundle.versions.count == folders.count, "\(root)")
            }
        }
        #expect(versionCount >= 347)
    }

    @Test func theMixedBundleOfTheCorpusUsesItsCurrentVersion() throws {
        let bundle = try #require(
            ModelLoader().load(at: ReaderTestPaths.corpus + "/Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld").bundle)
        #expect(bundle.versions.count == 6)
        #expect(bundle.currentVersionName == "Simplenote 7")
    }
}
