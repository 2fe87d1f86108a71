import Foundation
import Testing
@testable import DataModel
@testable import DataModelReader

/// Malformed and hostile files end in a diagnostic naming the file, quickly and in bounded
/// memory; nothing outside the file is ever read.
@Suite("Malformed and hostile input")
struct HostileInputTests {
    /// A scratch directory for files too big or too specific to commit.
    private final class ScratchDirectory {
        let path: String

        init() throws {
            path = FileManager.default.temporaryDirectory.path + "/managedgen-reader-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let file = path + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return file
        }
    }

    private func expectFailure(
        _ result: (model: Model?, diagnostics: [Diagnostic]), containing fragment: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(result.model == nil, sourceLocation: sourceLocation)
        #expect(
            result.diagnostics.errors.contains { $0.message.contains(fragment) },
            "\(result.diagnostics)", sourceLocation: sourceLocation)
    }

    @Test func truncatedFile() throws {
        let contents = try String(
            contentsOfFile: ReaderTestPaths.fixture("AllFeatures.xcdatamodel/contents"), encoding: .utf8)
        let truncated = String(contents.prefix(contents.count / 2))
        let result = readModel(truncated)
        #expect(result.model == nil)
        let error = try #require(result.diagnostics.errors.first)
        #expect(error.location?.file == "Test.xcdatamodel/contents")
        #expect((error.location?.line ?? 0) > 1)
    }

    @Test func emptyFile() {
        expectFailure(readModel(""), containing: "the file is empty")
    }

    @Test func binaryJunk() {
        // The same pseudo-random bytes on every run (xorshift).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let junk = (0..<4096).map { _ -> UInt8 in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        let result = ModelReader().readModel(xml: junk, path: "junk")
        #expect(result.model == nil)
        #expect(result.diagnostics.hasErrors)
    }

    @Test func notXMLAtAll() {
        expectFailure(readModel("just some words"), containing: "Start tag expected")
    }

    @Test(.timeLimit(.minutes(1)))
    func billionLaughs() {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n  <!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            xml += "  <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        xml += "]>\n<model><entity name=\"&lol9;\"/></model>"
        let start = ContinuousClock.now
        let result = readModel(xml)
        #expect(ContinuousClock.now - start < .seconds(5))
        expectFailure(result, containing: "XML entity declarations are not allowed in model files (entity 'lol')")
        #expect(result.diagnostics.errors.first?.location?.line == 3)
    }

    @Test func externalEntityNamingALocalFileIsNeverRead() throws {
        let scratch = try ScratchDirectory()
        let secret = "SECRET-CONTENT-\(UUID().uuidString)"
        let secretFile = try scratch.write("secret.txt", Array(secret.utf8))
        for xml in [
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY x SYSTEM \"file://\(secretFile)\">]>\n<model><entity name=\"&x;\"/></model>",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<model><entity name=\"&x;\"/></model>",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY % p SYSTEM \"file://\(secretFile)\"> %p;]>\n<model/>",
        ] {
            let result = readModel(xml)
            expectFailure(result, containing: "XML entity declarations are not allowed")
            #expect(!result.diagnostics.description.contains(secret))
            #expect(!result.diagnostics.description.contains("root:"))
        }
    }

    @Test func externalDTDIsNotLoaded() throws {
        let scratch = try ScratchDirectory()
        let secret = "SECRET-\(UUID().uuidString)"
        let dtd = try scratch.write("model.dtd", Array("<!ENTITY x \"\(secret)\">".utf8))
        let result = readModel(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model SYSTEM \"file://\(dtd)\">\n<model><entity name=\"&x;\"/></model>")
        expectFailure(result, containing: "Entity 'x' not defined")
        #expect(!result.diagnostics.description.contains(secret))
    }

    @Test(.timeLimit(.minutes(1)))
    func veryDeepNesting() {
        let depth = 100_000
        let xml = "<model>" + String(repeating: "<entity>", count: depth) + String(repeating: "</entity>", count: depth) + "</model>"
        let start = ContinuousClock.now
        let result = readModel(xml)
        #expect(ContinuousClock.now - start < .seconds(5))
        expectFailure(result, containing: "nested more than 64 levels deep")
    }

    @Test(.timeLimit(.minutes(1)))
    func sixtyMegabyteAttributeValue() throws {
        let scratch = try ScratchDirectory()
        var bytes = Array(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#.utf8) + [0x0A]
        bytes += Array(#"<model><entity name="E"><attribute name="a" attributeType="String" defaultValueString=""#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 60 << 20)
        bytes += Array(#""/></entity></model>"#.utf8)
        let folder = scratch.path + "/Huge.xcdatamodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try scratch.write("Huge.xcdatamodel/contents", bytes)
        let start = ContinuousClock.now
        let result = ModelLoader().load(at: folder)
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(result.bundle == nil)
        let error = try #require(result.diagnostics.errors.first)
        #expect(error.location?.file == folder + "/contents")
        #expect(error.location?.line == 2)
    }

    @Test func filesOverTheSizeLimitAreRefusedBeforeParsing() {
        let reader = ModelReader(limits: ReaderLimits(maxFileSize: 1_000))
        let result = reader.read(at: ReaderTestPaths.fixture("AllFeatures.xcdatamodel"))
        #expect(result.bundle == nil)
        #expect(result.diagnostics.errors.first?.message.hasSuffix("more than the limit of 1000 bytes") == true)
    }

    @Test func documentsWithTooManyNodesAreRefused() {
        let reader = ModelReader(limits: ReaderLimits(maxNodes: 50))
        let result = reader.read(at: ReaderTestPaths.fixture("AllFeatures.xcdatamodel"))
        #expect(result.bundle == nil)
        #expect(result.diagnostics.errors.first?.message == "the document has more than 50 elements and attributes")
    }

    @Test func manyErrorsAreCapped() {
        let xml = "<model>" + String(repeating: "<entity name=\"a\" name=\"b\"/>", count: 200) + "</model>"
        let result = readModel(xml)
        #expect(result.model == nil)
        #expect(result.diagnostics.count <= 21)
    }

    @Test func parsesOnManyThreadsKeepTheirDiagnosticsApart() async {
        let results = await withTaskGroup(of: (Int, [Diagnostic]).self) { group in
            for index in 0..<64 {
                group.addTask {
                    let xml = index.isMultiple(of: 2)
                        ? modelXML("<entity name=\"E\(index)\" syncable=\"YES\"/>")
                        : "<model><entity name=\"E\(index)\"></model>"
                    return (index, readModel(xml, path: "file\(index)").diagnostics)
                }
            }
            var collected: [Int: [Diagnostic]] = [:]
            for await (index, diagnostics) in group { collected[index] = diagnostics }
            return collected
        }
        for (index, diagnostics) in results {
            if index.isMultiple(of: 2) {
                #expect(diagnostics.isEmpty)
            } else {
                #expect(!diagnostics.isEmpty)
                #expect(diagnostics.allSatisfy { $0.location?.file == "file\(index)" })
            }
        }
    }
}
