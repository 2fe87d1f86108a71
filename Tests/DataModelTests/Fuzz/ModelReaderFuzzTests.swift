import Foundation
import Testing
@testable import DataModel
@testable import DataModelReader

/// Real `contents` files from the shared corpus, mutated with a fixed seed, read and validated.
/// Whatever the damage, reading ends (quickly) in a model or in an error naming the file, and
/// validating a model that did read never traps.
@Suite("Fuzz: model reader")
struct ModelReaderFuzzTests {
    static let seed: UInt64 = 0x5EED_0001
    static let sampledFiles = 48
    static let mutationsPerFile = 45
    /// Reading a mutated file of a few kilobytes takes milliseconds; this much is a hang.
    static let slowInputLimit: TimeInterval = 1

    /// Every `contents` file in the corpus, in a stable order.
    static func corpusContentsFiles() -> [String] {
        let base = ReaderTestPaths.corpus
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".xcdatamodel/contents") { files.append(base + "/" + relative) }
        }
        return files.sorted()
    }

    @Test func mutatedCorpusFilesReadOrFailWithLocatedErrors() throws {
        let all = Self.corpusContentsFiles()
        try #require(all.count >= Self.sampledFiles, "the corpus is missing at \(ReaderTestPaths.corpus)")
        let stride = all.count / Self.sampledFiles
        let sources = (0..<Self.sampledFiles).map { all[$0 * stride] }
        var random = SeededRandom(seed: Self.seed)
        var reads = 0, models = 0, failures = 0
        let started = Date()
        for source in sources {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: source)))
            for round in 0..<Self.mutationsPerFile {
                var mutator = ModelMutator(bytes: original)
                let applied = (0..<random.int(1...3)).map { _ in mutator.applyRandomMutation(using: &random) }
                let path = "Fuzz\(round).xcdatamodel/contents"
                let context = "\(source) after \(applied.joined(separator: ", "))"
                let readStarted = Date()
                let (model, diagnostics) = ModelReader().readModel(xml: mutator.bytes, path: path)
                let validation = model.map { ModelValidator().validate($0) } ?? []
                let elapsed = Date().timeIntervalSince(readStarted)
                #expect(elapsed < Self.slowInputLimit, "took \(elapsed) s: \(context)")
                reads += 1
                if model == nil {
                    failures += 1
                    #expect(diagnostics.hasErrors, "no model and no error: \(context)")
                } else {
                    models += 1
                }
                for diagnostic in diagnostics + validation {
                    // Model diagnostics may be at the file as a whole; when they have a location it is this file.
                    if let location = diagnostic.location {
                        #expect(location.file == path, "\(diagnostic) — \(context)")
                    }
                }
                if model == nil {
                    for diagnostic in diagnostics.errors where !Self.isWholeFileError(diagnostic) {
                        #expect((diagnostic.location?.line ?? 0) >= 1, "XML error without a line: \(diagnostic) — \(context)")
                    }
                }
            }
        }
        let duration = Date().timeIntervalSince(started)
        print("reader fuzz: \(reads) mutated reads of \(sources.count) corpus files, \(models) models, \(failures) refused, in \(String(format: "%.2f", duration)) s")
        #expect(models > 0 && failures > 0, "the mutations should both keep and break some files")
    }

    /// The same mutations through `ModelLoader` from disk: read, validate, sort, with the real path.
    @Test func mutatedFilesLoadFromDisk() throws {
        let all = Self.corpusContentsFiles()
        try #require(!all.isEmpty, "the corpus is missing at \(ReaderTestPaths.corpus)")
        let scratch = FileManager.default.temporaryDirectory.path + "/managedgen-fuzz-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var random = SeededRandom(seed: Self.seed ^ 0xD15C)
        for round in 0..<120 {
            let source = random.pick(all)
            var mutator = ModelMutator(bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: source))))
            let applied = mutator.applyRandomMutation(using: &random)
            let folder = scratch + "/Fuzz\(round).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(mutator.bytes).write(to: URL(fileURLWithPath: folder + "/contents"))
            let result = ModelLoader().load(at: folder)
            #expect(result.bundle != nil || result.diagnostics.hasErrors, "\(source) after \(applied)")
            for diagnostic in result.diagnostics {
                if let file = diagnostic.location?.file {
                    #expect(file.hasPrefix(folder), "\(diagnostic) — \(source) after \(applied)")
                }
            }
        }
    }

    /// Errors about the file as a whole, which have no line.
    static func isWholeFileError(_ diagnostic: Diagnostic) -> Bool {
        ["the file is empty", "not well-formed XML", "more than the limit", "binary", "root element"]
            .contains { diagnostic.message.contains($0) }
    }
}

/// Damages a model file the ways files get damaged, and the ways a hostile file might be built.
struct ModelMutator {
    var bytes: [UInt8]

    static let elementNames = [
        "entity", "attribute", "relationship", "fetchedProperty", "fetchRequest", "configuration",
        "memberEntity", "userInfo", "entry", "uniquenessConstraints", "uniquenessConstraint", "constraint",
        "fetchIndex", "fetchIndexElement", "elements", "element", "composite", "model", "x",
    ]
    static let attributeNames = [
        "name", "attributeType", "optional", "destinationEntity", "inverseName", "inverseEntity",
        "toMany", "ordered", "deleteRule", "parentEntity", "representedClassName", "codeGenerationType",
        "defaultValueString", "minValueString", "maxValueString", "usesScalarValueType", "predicateString",
        "derivationExpression", "minCount", "maxCount", "isAbstract", "transient", "composite", "entity",
        "customClassName", "valueTransformerName", "fetchRequest", "resultType", "key", "value", "bogus",
    ]
    static let values = [
        "", "YES", "NO", "Integer 16", "Integer 64", "Decimal", "Double", "String", "Boolean", "Date",
        "Binary", "UUID", "URI", "Transformable", "Object ID", "Composite", "Undefined", "Cascade", "Deny",
        "-1", "0", "99999999999999999999", "1e309", "nan", "Entity", "name == $X", "name ==", "SUBQUERY(",
        "%@", "é", "\u{202E}gnp", "a\u{301}", "🐕", "名前", "&amp;", "&lt;&gt;", "\u{7F}",
    ]
    static let unicode: [Character] = ["é", "\u{301}", "\u{202E}", "\u{FEFF}", "🐕", "名", "\u{10FFFF}", "\u{1}", "\0", "ß", "İ", "\u{2028}"]

    var text: String {
        get { String(decoding: bytes, as: UTF8.self) }
        set { bytes = Array(newValue.utf8) }
    }

    /// Applies one mutation and says which, for the failure message.
    mutating func applyRandomMutation(using random: inout SeededRandom) -> String {
        switch random.int(0..<11) {
        case 0:
            let count = random.int(1...8)
            for _ in 0..<count where !bytes.isEmpty {
                bytes[random.int(0..<bytes.count)] ^= UInt8(random.int(1...255))
            }
            return "\(count) byte flips"
        case 1:
            let end = random.int(0...bytes.count)
            bytes.removeSubrange(end...)
            return "truncation at byte \(end)"
        case 2:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = random.int(0..<lines.count)
            lines.insert(lines[line], at: line)
            text = lines.joined(separator: "\n")
            return "line \(line + 1) duplicated"
        case 3:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = random.int(0..<lines.count)
            lines.remove(at: line)
            text = lines.joined(separator: "\n")
            return "line \(line + 1) deleted"
        case 4:
            return swapAttributeValues(using: &random)
        case 5:
            let attribute = " \(random.pick(Self.attributeNames))=\"\(Self.escaped(random.pick(Self.values)))\""
            return insertAfterRandomTagName(attribute, using: &random)
        case 6:
            let name = random.pick(Self.elementNames)
            let attributes = (0..<random.int(0...3)).map { _ in
                " \(random.pick(Self.attributeNames))=\"\(Self.escaped(random.pick(Self.values)))\""
            }.joined()
            return insertAtRandomLineStart("<\(name)\(attributes)/>", using: &random)
        case 7:
            let depth = random.int(10...300)
            let name = random.pick(Self.elementNames)
            let element = String(repeating: "<\(name) name=\"N\">", count: depth) + String(repeating: "</\(name)>", count: depth)
            return insertAtRandomLineStart(element, using: &random) + " (nested \(depth) deep)"
        case 8:
            var characters = Array(text)
            let count = random.int(1...5)
            for _ in 0..<count {
                characters.insert(random.pick(Self.unicode), at: random.int(0...characters.count))
            }
            text = String(characters)
            return "\(count) unicode characters inserted"
        case 9:
            return replaceRandomAttributeValue(with: random.pick(Self.values), using: &random)
        default:
            let length = random.int(1...64)
            let junk = (0..<length).map { _ in UInt8(random.int(0...255)) }
            bytes.insert(contentsOf: junk, at: random.int(0...bytes.count))
            return "\(length) random bytes inserted"
        }
    }

    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The ranges of the values of `attr="value"` in the text.
    private func attributeValueRanges() -> [Range<String.Index>] {
        let text = self.text
        var ranges: [Range<String.Index>] = []
        var searchStart = text.startIndex
        while let open = text.range(of: "=\"", range: searchStart..<text.endIndex) {
            guard let close = text.range(of: "\"", range: open.upperBound..<text.endIndex) else { break }
            ranges.append(open.upperBound..<close.lowerBound)
            searchStart = close.upperBound
        }
        return ranges
    }

    private mutating func swapAttributeValues(using random: inout SeededRandom) -> String {
        let ranges = attributeValueRanges()
        guard ranges.count >= 2 else { return "no attribute values to swap" }
        var first = random.int(0..<ranges.count), second = random.int(0..<ranges.count)
        if first > second { swap(&first, &second) }
        guard first != second else { return "one attribute value swapped with itself" }
        let original = text
        let a = original[ranges[first]], b = original[ranges[second]]
        text = String(original[..<ranges[first].lowerBound]) + b + original[ranges[first].upperBound..<ranges[second].lowerBound]
            + a + original[ranges[second].upperBound...]
        return "attribute values '\(a)' and '\(b)' swapped"
    }

    private mutating func replaceRandomAttributeValue(with value: String, using random: inout SeededRandom) -> String {
        let ranges = attributeValueRanges()
        guard !ranges.isEmpty else { return "no attribute value to replace" }
        let range = ranges[random.int(0..<ranges.count)]
        var changed = text
        let old = changed[range]
        changed.replaceSubrange(range, with: Self.escaped(value))
        text = changed
        return "attribute value '\(old)' replaced by '\(value)'"
    }

    private mutating func insertAfterRandomTagName(_ insertion: String, using random: inout SeededRandom) -> String {
        let original = text
        var tagEnds: [String.Index] = []
        var index = original.startIndex
        while let open = original.range(of: "<", range: index..<original.endIndex) {
            let nameEnd = original[open.upperBound...].firstIndex { $0 == " " || $0 == ">" || $0 == "/" } ?? original.endIndex
            if original[open.upperBound...].first.map({ $0.isLetter }) == true { tagEnds.append(nameEnd) }
            index = open.upperBound
        }
        guard !tagEnds.isEmpty else { return "no tag for an attribute" }
        let at = tagEnds[random.int(0..<tagEnds.count)]
        text = String(original[..<at]) + insertion + original[at...]
        return "attribute\(insertion) inserted"
    }

    private mutating func insertAtRandomLineStart(_ insertion: String, using random: inout SeededRandom) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = random.int(0...lines.count)
        lines.insert(insertion, at: line)
        text = lines.joined(separator: "\n")
        return "'\(insertion.prefix(80))' inserted at line \(line + 1)"
    }
}
