import DataModel
import Foundation
import ModelFileLoading
import Testing
@testable import ManagedObjects

/// Every version of every model in the shared corpus of real models (`../shared/corpus`) loads
/// at run time, as Core Data loads what Xcode's model compiler accepted: a bundle through
/// `ManagedObjectModelVersions(contentsOf:)` (every version, as migration needs them), a
/// standalone `.xcdatamodel` through `ManagedObjectModel(contentsOf:)`. Only the models the
/// corpus README lists as broken on purpose are refused.
@Suite("Model files: every version of the corpus loads")
struct CorpusModelLoadingTests {
    static let corpus = ModelFileTests.corpus

    /// Broken on purpose (the corpus README's table): Xcode refuses them too.
    static let broken: Set<String> = [
        "NijiDigital__gyro/spec/fixtures/xcdatamodel/error_relationship.xcdatamodel",
        "NijiDigital__gyro/spec/fixtures/xcdatamodel/error_undefined_type.xcdatamodel",
    ]

    /// Model roots: `.xcdatamodeld` bundles and `.xcdatamodel` folders outside a bundle.
    static func modelRoots() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: corpus.path) else { return [] }
        var roots: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodeld") || relative.hasSuffix(".xcdatamodel") {
                roots.append(relative)
                walker.skipDescendants()
            }
        }
        return roots.sorted()
    }

    /// The version folders of a bundle, as the file system has them.
    static func versionFolders(of root: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(root).path)
            .filter { $0.hasSuffix(".xcdatamodel") }
    }

    @Test("every version of every bundle and every standalone model loads; only the broken ones are refused")
    func everyVersionLoads() throws {
        let roots = Self.modelRoots()
        try #require(roots.count >= 241, "the corpus is expected at \(Self.corpus.path)")
        var loaded = 0
        var total = 0
        var failures: [String] = []
        for root in roots {
            let url = Self.corpus.appendingPathComponent(root)
            if Self.broken.contains(root) {
                #expect(throws: DiagnosticError.self, "\(root) is broken on purpose") { try ManagedObjectModel(contentsOf: url) }
                continue
            }
            if root.hasSuffix(".xcdatamodeld") {
                let folders = try Self.versionFolders(of: root)
                total += folders.count
                do {
                    let versions = try ManagedObjectModelVersions(contentsOf: url)
                    #expect(versions.versions.count == folders.count, "\(root)")
                    #expect(versions.current != nil, "\(root)")
                    loaded += versions.versions.count
                } catch {
                    failures.append("\(root) (\(folders.count) versions): \(error)")
                }
            } else {
                total += 1
                do {
                    _ = try ManagedObjectModel(contentsOf: url)
                    loaded += 1
                } catch {
                    failures.append("\(root): \(error)")
                }
            }
        }
        print("corpus model versions loading: \(loaded)/\(total) (\(failures.count) model roots refused)")
        #expect(failures.isEmpty, "\(failures.count) model root(s) refused:\n\(failures.joined(separator: "\n"))")
        #expect(total >= 369)
    }
}
