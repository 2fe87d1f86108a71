import DataModelReader
import Foundation
import Testing

/// Every predicate and derivation expression written in the shared corpus of real models
/// parses, and prints back to text that parses to the same tree. The strings are taken from
/// the `contents` files with a regular expression, independently of the model reader.
@Suite("Predicate syntax: the corpus")
struct CorpusPredicateTests {
    static let corpus: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpus")

    /// `(file, attribute value)` for every `name="…"` attribute in the corpus.
    static func attributeValues(_ name: String) throws -> [(file: String, value: String)] {
        let expression = try NSRegularExpression(pattern: name + "=\"([^\"]*)\"")
        var found: [(String, String)] = []
        let files = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.lastPathComponent == "contents" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                found.append((url.path, unescapeXML(String(text[range]))))
            }
        }
        return found
    }

    static func unescapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func everyPredicateStringParses() throws {
        try #require(FileManager.default.fileExists(atPath: Self.corpus.path), "corpus at \(Self.corpus.path)")
        let predicates = try Self.attributeValues("predicateString")
        #expect(predicates.count >= 7)
        for (file, format) in predicates {
            do {
                let syntax = try PredicateSyntax(parsing: format)
                #expect(try PredicateSyntax(parsing: syntax.format) == syntax, "\(file): \(format)")
            } catch {
                Issue.record("\(file): \(format): \(error)")
            }
        }
        let variables = Set(try predicates.flatMap { try PredicateSyntax(parsing: $0.value).variableNames })
        #expect(variables.isSuperset(of: ["UUID", "NAME", "NEEDLE", "humanName", "parentName", "parent"]))
    }

    @Test func everyDerivationExpressionParses() throws {
        let expressions = try Self.attributeValues("derivationExpression")
        #expect(expressions.count >= 3)
        for (file, format) in expressions {
            do {
                let syntax = try PredicateExpressionSyntax(parsing: format)
                #expect(try PredicateExpressionSyntax(parsing: syntax.format) == syntax, "\(file): \(format)")
            } catch {
                Issue.record("\(file): \(format): \(error)")
            }
        }
    }

    /// The forms FORMAT.md records (from real files): `$FETCH_SOURCE`, escaped `&gt;`,
    /// `==[cd]`.
    @Test("forms seen in real files", arguments: [
        "$FETCH_SOURCE.id == mangaId AND (history == nil OR history.completed == false)",
        "int16 &gt; 100", "floatAttribute > 5", "uuid == $UUID", "name ==[cd] $NAME",
        "self == $FETCH_SOURCE", "owner == $FETCH_SOURCE AND $FETCHED_PROPERTY.userInfo.key != nil",
        "true == true",
    ])
    func formatDocumentForms(format: String) throws {
        let syntax = try PredicateSyntax(parsing: Self.unescapeXML(format))
        #expect(try PredicateSyntax(parsing: syntax.format) == syntax)
    }
}
