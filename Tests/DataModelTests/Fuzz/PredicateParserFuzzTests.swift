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

    /// Edge inputs, and inputs the fuzz tests found problems with.
    static let edgeInputs = [
        "", " ", "(", ")", "\"\\", "'", "%", "$", "#", "a ==", "== a", "NOT", "ANY", "{", "a[", "a IN {1,",
        "SUBQUERY(", "TERNARY(a == 1,", "\u{301}", "é == é", String(repeating: "(", count: 500) + "TRUEPREDICATE",
        String(repeating: "NOT ", count: 500) + "TRUEPREDICATE", String(repeating: "-", count: 500) + "1 == a",
    ]

    @Test func edgeInputsParseOrFailAtAColumn() {
        for format in Self.edgeInputs { check(format) }
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

/// Builds predicates from a small grammar: comparisons, AND/OR/NOT, ANY/ALL/NONE, aggregates,
/// arithmetic, key path functions, literals, `$VARIABLES`, `%@` and SUBQUERY.
struct ValidPredicateGenerator {
    static let keyPaths = ["name", "age", "tweets", "owner.name", "walks.@count", "items.@sum.price", "SELF", "#size", "café"]
    static let operators = ["==", "!=", "<", "<=", ">", ">=", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "IN"]
    static let options = ["", "", "[c]", "[d]", "[cd]", "[n]"]
    static let variables = ["$X", "$NAME", "$FETCH_SOURCE", "$limit"]
    static let maxDepth = 4

    mutating func predicate(depth: Int, using random: inout SeededRandom) -> String {
        let leaf = depth >= Self.maxDepth
        switch leaf ? random.int(0..<3) : random.int(0..<9) {
        case 0: return comparison(depth: depth, using: &random)
        case 1: return random.pick(["TRUEPREDICATE", "FALSEPREDICATE"])
        case 2:
            return "\(random.pick(["ANY", "ALL", "NONE", "SOME"])) \(random.pick(Self.keyPaths)) \(random.pick(Self.operators))\(random.pick(Self.options)) \(expression(depth: depth + 1, using: &random))"
        case 3, 4:
            let word = random.pick(["AND", "OR", "&&", "||"])
            return (0..<random.int(2...3)).map { _ in predicate(depth: depth + 1, using: &random) }.joined(separator: " \(word) ")
        case 5: return "NOT " + wrapped(predicate(depth: depth + 1, using: &random))
        case 6: return "!" + wrapped(predicate(depth: depth + 1, using: &random))
        case 7: return "(\(predicate(depth: depth + 1, using: &random)))"
        default:
            return "\(expression(depth: depth + 1, using: &random)) BETWEEN {\(literal(using: &random)), \(literal(using: &random))}"
        }
    }

    private func wrapped(_ predicate: String) -> String { "(\(predicate))" }

    mutating func comparison(depth: Int, using random: inout SeededRandom) -> String {
        "\(expression(depth: depth + 1, using: &random)) \(random.pick(Self.operators))\(random.pick(Self.options)) \(expression(depth: depth + 1, using: &random))"
    }

    mutating func expression(depth: Int, using random: inout SeededRandom) -> String {
        let leaf = depth >= Self.maxDepth
        switch leaf ? random.int(0..<4) : random.int(0..<11) {
        case 0: return random.pick(Self.keyPaths)
        case 1: return literal(using: &random)
        case 2: return random.pick(Self.variables)
        case 3: return "%@"
        case 4:
            return "\(expression(depth: depth + 1, using: &random)) \(random.pick(["+", "-", "*", "/", "**"])) \(expression(depth: depth + 1, using: &random))"
        case 5: return "(\(expression(depth: depth + 1, using: &random)))"
        case 6: return "{" + (0..<random.int(0...3)).map { _ in literal(using: &random) }.joined(separator: ", ") + "}"
        case 7: return "\(random.pick(["sum:", "count:", "max:", "abs:", "uppercase:"]))(\(random.pick(Self.keyPaths)))"
        case 8: return "now()"
        case 9: return "SUBQUERY(tweets, $t, $t.\(random.pick(["name", "age"])) \(random.pick(Self.operators)) \(literal(using: &random))).@count"
        default: return "-\(random.pick(["age", "(age + 1)", "$X"]))"
        }
    }

    mutating func literal(using random: inout SeededRandom) -> String {
        switch random.int(0..<8) {
        case 0: return String(random.int(-1000...1000))
        case 1: return String(Double(random.int(-10000...10000)) / 8)
        case 2: return random.pick(["NULL", "NIL", "TRUE", "FALSE", "YES", "NO"])
        case 3: return "\"\(random.pick(["", "a b", "é", "名前", "it's", "back\\\\slash", "q\\\"uote", "🐕"]))\""
        case 4: return "'\(random.pick(["x", "\\n", "dog*", "?at"]))'"
        case 5: return random.pick(["0x1F", "0b101", "0o17", "1e3", "2.5e-3", String(Int.max), String(Int.min)])
        case 6: return "%@"
        default: return random.pick(Self.variables)
        }
    }
}
