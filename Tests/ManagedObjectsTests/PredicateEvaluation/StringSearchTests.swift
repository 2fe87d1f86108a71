import Foundation
@testable import ManagedObjects
import Testing

@Suite("String search: CONTAINS's byte search")
struct StringSearchTests {
    /// The answer the search must give for ASCII text, written the obvious way.
    static func reference(_ haystack: [UInt8], _ needle: [UInt8], lowering: Bool) -> Bool {
        func folded(_ bytes: [UInt8]) -> [UInt8] { lowering ? bytes.map { (65...90).contains($0) ? $0 + 32 : $0 } : bytes }
        let text = folded(haystack), part = folded(needle)
        guard !part.isEmpty, text.count >= part.count else { return false }
        return (0...(text.count - part.count)).contains { Array(text[$0..<($0 + part.count)]) == part }
    }

    @Test("ASCII text of every length around the 16-byte steps, either case, answers as the obvious search")
    func asciiAgreesWithReference() {
        var random = SeededRandom(seed: 23)
        // Few letters, so needles are found often, at every offset and across step boundaries.
        let alphabet = Array("abAB c%".utf8)
        for _ in 0..<20_000 {
            let haystack = (0..<random.int(0...40)).map { _ in random.pick(alphabet) }
            let needle = (0..<random.int(0...4)).map { _ in random.pick(alphabet) }
            let lowering = random.chance(50)
            let found = haystack.withUnsafeBufferPointer { text in
                needle.withUnsafeBufferPointer { part in StringMatching.asciiSearch(text, part, lowering: lowering) }
            }
            #expect(found == Self.reference(haystack, needle, lowering: lowering),
                    "\(String(decoding: needle, as: UTF8.self)) in \(String(decoding: haystack, as: UTF8.self)), lowering \(lowering)")
        }
    }

    @Test("text that is not ASCII is left to the Unicode search, wherever its first such byte is")
    func nonASCIIIsLeftToUnicode() {
        for text in ["é" + String(repeating: "a", count: 40), String(repeating: "a", count: 40) + "é", "swift\u{301}"] {
            let found = Array(text.utf8).withUnsafeBufferPointer { text in
                Array("a".utf8).withUnsafeBufferPointer { StringMatching.asciiSearch(text, $0, lowering: true) }
            }
            #expect(found == nil, "\(text)")
        }
        #expect(StringMatching.contains("swift\u{301}", foldedPart: "swift", [.caseInsensitive]) == false)
        // The Kelvin sign folds to a k.
        #expect(StringMatching.contains("\u{212A}ELVIN", foldedPart: "kelvin", [.caseInsensitive]))
    }
}
