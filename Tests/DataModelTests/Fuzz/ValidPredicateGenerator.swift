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
        case 5: return random.pick(["0x1F", "0b101", "0o17", "1e3", "2.5e-3", "1e999", "-1e999", String(Int.max), String(Int.min)])
        case 6: return "%@"
        default: return random.pick(Self.variables)
        }
    }
}
