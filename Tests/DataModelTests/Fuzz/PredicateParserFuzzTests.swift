import Testing
@testable import DataModel

/// The predicate parser on random token soup and on random valid predicates, with a fixed seed:
/// it either refuses with a column inside the string (or just past its end), or builds a tree
/// whose printed form parses back to the same tree.
@Suite("Fuzz: predicate parser")
struct PredicateParserFuzzTests {
    static let seed: UInt64 = 0x5EED_0002

    /// The grammar's tokens, some near-misses, and garbage.
    static let tokens = [
        "AND", "OR", "NOT", "&&", "||", "!", "ANY", "ALL", "NONE", "SOME", "IN", "LIKE", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "[c]", "[cd]", "[n]", "[x]", "==", "=", "!=", "<>",
        "<", "<=", "=<", ">", ">=", "=>", "+", "-", "*", "/", "**", "(", ")", "{", "}", "[", "]", ",", ".",
        ":=", "@count", "@sum", "@avg", "@min", "@max", "@distinctUnionOfObjects", "SELF", "NULL", "NIL",
        "TRUE", "FALSE", "YES", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "FIRST", "LAST", "SIZE",
        "SUBQUERY", "TERNARY", "FUNCTION", "CAST", "now()", "sum:", "name", "tweets", "age", "#size",
        "$X", "$FETCH_SOURCE", "$", "%@", "%K", "%d", "%", "%%", "42", "-7", "0x1F", "0b101", "0o17", "1e3",
        "2.5", "1e999", "99999999999999999999", "'text'", "\"quoted\"", "'unterminated", "\"\\u00e9\"",
        "\"\\", "é", "名前", "🐕", "\u{0}", "\u{301}", "#", "@", ";", "`", "?", "~", "\\",
    ]

    @Test func randomTokenSequencesParseOrFailAtAColumn() {
        var random = SeededRandom(seed: Self.seed)
        var parsed = 0, refused = 0
        for _ in 0..<4000 {
            let count = random.int(1...12)
            let separator = random.chance(80) ? " " : ""
            let format = (0..<count).map { _ in random.pick(Self.tokens) }.joined(separator: separator)
            switch check(format) {
            case .parsed: parsed += 1
            case .refused: refused += 1
            }
        }
        print("predicate fuzz: \(parsed) random token sequences parsed, \(refused) refused")
        #expect(parsed > 0 && refused > 0)
    }

    @Test func randomValidPredicatesRoundTrip() {
        var random = SeededRandom(seed: Self.seed ^ 0xA11D)
        var generator = ValidPredicateGenerator()
        for _ in 0..<2500 {
            let format = generator.predicate(depth: 0, using: &random)
            do {
                let tree = try PredicateSyntax(parsing: format)
                let printed = tree.format
                let reparsed = try? PredicateSyntax(parsing: printed)
                #expect(reparsed == tree, "\(format)\n printed as \(printed)")
                #expect(reparsed?.format == printed, "\(format)\n printed as \(printed)")
            } catch {
                Issue.record("a valid predicate was refused: \(format)\n \(error)")
            }
        }
    }

    /// Valid predicates with a few tokens deleted, duplicated, swapped or replaced: near misses,
    /// which reach deeper into the parser than token soup does.
    @Test func damagedValidPredicatesParseOrFailAtAColumn() {
        var random = SeededRandom(seed: Self.seed ^ 0xDA4A)
        var generator = ValidPredicateGenerator()
        var parsed = 0, refused = 0
        for _ in 0..<2500 {
            var words = generator.predicate(depth: 0, using: &random).split(separator: " ").map(String.init)
            for _ in 0..<random.int(1...2) {
                let at = random.int(0..<words.count)
                switch random.int(0..<4) {
                case 0: words.remove(at: at)
                case 1: words.insert(words[at], at: at)
                case 2: words.swapAt(at, random.int(0..<words.count))
                default: words[at] = random.pick(Self.tokens)
                }
                if words.isEmpty { words = [random.pick(Self.tokens)] }
            }
            switch check(words.joined(separator: random.chance(90) ? " " : "")) {
            case .parsed: parsed += 1
            case .refused: refused += 1
            }
        }
        print("predicate fuzz: \(parsed) damaged valid predicates parsed, \(refused) refused")
        #expect(parsed > 0 && refused > 0)
    }

    /// Edge inputs, and inputs the fuzz tests found problems with.
    static let edgeInputs = [
        "", " ", "(", ")", "\"\\", "'", "%", "$", "#", "a ==", "== a", "NOT", "ANY", "{", "a[", "a IN {1,",
        "SUBQUERY(", "TERNARY(a == 1,", "\u{301}", "é == é", String(repeating: "(", count: 500) + "TRUEPREDICATE",
        String(repeating: "NOT ", count: 500) + "TRUEPREDICATE", String(repeating: "-", count: 500) + "1 == a",
        // Found by the fuzz tests: an infinite literal printed as `(1.0 / 0.0)`, which reads
        // back as arithmetic.
        "ANY 1e999 ENDSWITH sum:(items.@sum.price)", "-1e999 <= name", "a BETWEEN {1e999, -1e999}",
    ]

    @Test func edgeInputsParseOrFailAtAColumn() {
        for format in Self.edgeInputs { check(format) }
    }

    @Test func infiniteLiteralsRoundTrip() throws {
        let tree = try PredicateSyntax(parsing: "a < 1e999 AND b > -1e999")
        #expect(tree.format == "a < 1e999 AND b > -1e999")
        #expect(try PredicateSyntax(parsing: tree.format) == tree)
    }

    enum Outcome { case parsed, refused }

    @discardableResult
    func check(_ format: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Outcome {
        do {
            let tree = try PredicateSyntax(parsing: format)
            let printed = tree.format
            do {
                let reparsed = try PredicateSyntax(parsing: printed)
                #expect(reparsed == tree, "'\(format)' printed as '\(printed)' parses differently", sourceLocation: sourceLocation)
            } catch {
                Issue.record("'\(format)' printed as '\(printed)', which does not parse: \(error)", sourceLocation: sourceLocation)
            }
            return .parsed
        } catch {
            #expect((1...(format.count + 1)).contains(error.column), "'\(format)': \(error)", sourceLocation: sourceLocation)
            return .refused
        }
    }
}
