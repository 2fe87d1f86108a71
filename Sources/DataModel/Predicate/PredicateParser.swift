/// A recursive-descent parser for the predicate format-string language, after Apple's
/// "BNF Definition of Cocoa Predicates" and "Predicate Format String Syntax":
///
/// ```
/// predicate   ::= or
/// or          ::= and (("OR" | "||") and)*
/// and         ::= not (("AND" | "&&") not)*
/// not         ::= ("NOT" | "!") not | "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison  ::= [ANY | SOME | ALL | NONE] expression operator ["[" c|d|n|l … "]"] expression
/// expression  ::= term (("+" | "-") term)*
/// term        ::= unary (("*" | "/") unary)*
/// unary       ::= "-" unary | power
/// power       ::= postfix ["**" unary]
/// postfix     ::= primary ("." key | "[" index "]")*
/// primary     ::= literal | %arg | $var [":=" expression] | "{" list "}" | "(" expression ")"
///               | key | @operator | name "(" list ")" | name: "(" list ")"
///               | SUBQUERY "(" expression "," $var "," predicate ")"
///               | TERNARY "(" predicate "," expression "," expression ")"
/// ```
///
/// `(` is ambiguous (a parenthesized predicate or expression): the parser tries a comparison
/// first and falls back to a predicate, reporting whichever attempt got further. Each
/// comparison's outcome is remembered by where it started, so falling back never parses the
/// same tokens as a comparison again (nested parentheses would otherwise take time exponential
/// in their depth).
struct PredicateParser {
    private let tokens: [PredicateToken]
    private let scalars: [Unicode.Scalar]
    private let lexerError: PredicateSyntaxError?
    private var index = 0
    private var argumentCount = 0
    /// Shared by the copies backtracking makes.
    private let comparisons = ComparisonMemo()

    private final class ComparisonMemo {
        struct Start: Hashable {
            var index: Int
            var argumentCount: Int
        }

        enum Outcome {
            case parsed(PredicateComparison, endIndex: Int, argumentCount: Int)
            case failed(PredicateSyntaxError, reachedIndex: Int)
        }

        var outcomes: [Start: Outcome] = [:]
    }

    init(_ format: String) {
        var lexer = PredicateLexer(format)
        do {
            (tokens, scalars) = try lexer.tokenize()
            lexerError = nil
        } catch {
            tokens = []
            scalars = []
            lexerError = error
        }
    }

    mutating func parsePredicateToEnd() throws(PredicateSyntaxError) -> PredicateSyntax {
        if let lexerError { throw lexerError }
        let predicate = try parseOr()
        try expectEnd()
        return predicate
    }

    mutating func parseExpressionToEnd() throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        if let lexerError { throw lexerError }
        let expression = try parseExpression()
        try expectEnd()
        return expression
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[index] }

    private func error(_ message: String, at token: PredicateToken? = nil) -> PredicateSyntaxError {
        let offset = (token ?? current).offset
        return PredicateSyntaxError(message, column: PredicateLexer.column(ofOffset: offset, in: scalars))
    }

    private func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .word(let name, let escaped): "'\(escaped ? "#" : "")\(name)'"
        case .functionName(let name): "'\(name)'"
        case .collectionOperator(let name): "'@\(name)'"
        case .string(let text): "string \"\(text)\""
        case .integer(let value): "number \(value)"
        case .double(let value): "number \(value)"
        case .argument(let kind): "argument \(kind.specifier)"
        case .variable(let name): "variable $\(name)"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the predicate"
        }
    }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private mutating func take(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func expect(_ symbol: String, _ context: String) throws(PredicateSyntaxError) {
        guard take(symbol) else { throw error("expected '\(symbol)' \(context), found \(describe(current))") }
    }

    private mutating func expectEnd() throws(PredicateSyntaxError) {
        guard current.kind == .end else {
            throw error("unexpected \(describe(current)); expected AND, OR or the end of the predicate")
        }
    }

    /// The upper-cased keyword the current token spells, if it is an unescaped word.
    private var keyword: String? {
        if case .word(let name, false) = current.kind { return name.uppercased() }
        return nil
    }

    private mutating func takeKeyword(_ word: String) -> Bool {
        guard keyword == word else { return false }
        advance()
        return true
    }

    private func nextIsSymbol(_ symbol: String) -> Bool {
        index + 1 < tokens.count && tokens[index + 1].kind == .symbol(symbol)
    }

    /// Words that can never be a key unless escaped with `#`.
    private static let strictKeywords: Set<String> = [
        "AND", "OR", "NOT", "IN", "ALL", "ANY", "SOME", "NONE", "LIKE", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    // MARK: Predicates

    private mutating func parseOr() throws(PredicateSyntaxError) -> PredicateSyntax {
        var operands = [try parseAnd()]
        while takeKeyword("OR") || take("||") { operands.append(try parseAnd()) }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(PredicateSyntaxError) -> PredicateSyntax {
        var operands = [try parseNot()]
        while takeKeyword("AND") || take("&&") { operands.append(try parseNot()) }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseNot() throws(PredicateSyntaxError) -> PredicateSyntax {
        if takeKeyword("NOT") || take("!") { return .not(try parseNot()) }
        if takeKeyword("TRUEPREDICATE") { return .value(true) }
        if takeKeyword("FALSEPREDICATE") { return .value(false) }
        guard isSymbol("(") else { return .comparison(try parseComparison()) }

        // `(a + b) > 1` or `(a > 1 OR b)`: try a comparison, then a parenthesized predicate.
        let start = self
        let comparisonError: PredicateSyntaxError
        do {
            return .comparison(try parseRememberedComparison())
        } catch {
            comparisonError = error
        }
        let comparisonReached = index
        self = start
        advance()
        do {
            let inner = try parseOr()
            try expect(")", "to close the parenthesis")
            return inner
        } catch {
            throw index >= comparisonReached ? error : comparisonError
        }
    }

    /// `parseComparison()`, or what it gave the last time it started at this token.
    private mutating func parseRememberedComparison() throws(PredicateSyntaxError) -> PredicateComparison {
        let start = ComparisonMemo.Start(index: index, argumentCount: argumentCount)
        switch comparisons.outcomes[start] {
        case .parsed(let comparison, let endIndex, let count)?:
            index = endIndex
            argumentCount = count
            return comparison
        case .failed(let error, let reachedIndex)?:
            index = reachedIndex
            throw error
        case nil:
            do {
                let comparison = try parseComparison()
                comparisons.outcomes[start] = .parsed(comparison, endIndex: index, argumentCount: argumentCount)
                return comparison
            } catch {
                comparisons.outcomes[start] = .failed(error, reachedIndex: index)
                throw error
            }
        }
    }

    private mutating func parseComparison() throws(PredicateSyntaxError) -> PredicateComparison {
        var modifier = PredicateModifier.direct
        switch keyword {
        case "ANY", "SOME": modifier = .any
        case "ALL": modifier = .all
        case "NONE": modifier = .none
        default: break
        }
        if modifier != .direct { advance() }

        let left = try parseExpression()
        guard let operatorType = parseOperator() else {
            if current.kind == .end {
                throw error("expected a comparison operator (such as ==, <, CONTAINS, IN) after the expression")
            }
            throw error("expected a comparison operator (such as ==, <, CONTAINS, IN), found \(describe(current))")
        }
        var options: PredicateComparisonOptions = []
        if isSymbol("[") {
            let open = current
            advance()
            guard case .word(let letters, false) = current.kind else {
                throw error("expected comparison options such as [c], [d] or [cd]", at: open)
            }
            for letter in letters.lowercased() {
                switch letter {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                case "l": options.insert(.localeSensitive)
                default:
                    throw error("unknown comparison option '\(letter)'; the options are c, d, n and l")
                }
            }
            advance()
            try expect("]", "to close the comparison options")
        }
        let right = try parseExpression()
        return PredicateComparison(left, operatorType, right, options: options, modifier: modifier)
    }

    private mutating func parseOperator() -> PredicateOperator? {
        let type: PredicateOperator?
        switch current.kind {
        case .symbol(let symbol):
            switch symbol {
            case "=", "==": type = .equalTo
            case "!=", "<>": type = .notEqualTo
            case "<": type = .lessThan
            case "<=", "=<": type = .lessThanOrEqualTo
            case ">": type = .greaterThan
            case ">=", "=>": type = .greaterThanOrEqualTo
            default: type = nil
            }
        case .word(let name, false):
            switch name.uppercased() {
            case "MATCHES": type = .matches
            case "LIKE": type = .like
            case "BEGINSWITH": type = .beginsWith
            case "ENDSWITH": type = .endsWith
            case "IN": type = .in
            case "CONTAINS": type = .contains
            case "BETWEEN": type = .between
            default: type = nil
            }
        default: type = nil
        }
        if type != nil { advance() }
        return type
    }

    // MARK: Expressions

    private mutating func parseExpression() throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        var left = try parseTerm()
        while true {
            if take("+") {
                left = .arithmetic(.add, left, try parseTerm())
            } else if take("-") {
                left = .arithmetic(.subtract, left, try parseTerm())
            } else {
                return left
            }
        }
    }

    private mutating func parseTerm() throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        var left = try parseUnary()
        while true {
            if take("*") {
                left = .arithmetic(.multiply, left, try parseUnary())
            } else if take("/") {
                left = .arithmetic(.divide, left, try parseUnary())
            } else {
                return left
            }
        }
    }

    private mutating func parseUnary() throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        if isSymbol("-") {
            // `-5` is a negative literal; `-x` and `-(5)` negate.
            switch tokens[index + 1].kind {
            case .integer(let value):
                advance()
                advance()
                return try parsePower(base: try parsePostfix(.literal(.integer(-value))))
            case .double(let value):
                advance()
                advance()
                return try parsePower(base: try parsePostfix(.literal(.double(-value))))
            default:
                advance()
                return .negation(try parseUnary())
            }
        }
        return try parsePower(base: try parsePostfix(try parsePrimary()))
    }

    private mutating func parsePower(base: PredicateExpressionSyntax) throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        guard take("**") else { return base }
        return .arithmetic(.power, base, try parseUnary())
    }

    private mutating func parsePostfix(_ base: PredicateExpressionSyntax) throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        var expression = base
        while true {
            if take(".") {
                let component: String
                switch current.kind {
                case .word(let name, _): component = name
                case .collectionOperator(let name): component = "@" + name
                default: throw error("expected a key after '.', found \(describe(current))")
                }
                advance()
                switch expression {
                case .keyPath(let path): expression = .keyPath(path + "." + component)
                case .keyPathOn(let root, let path): expression = .keyPathOn(root, path + "." + component)
                default: expression = .keyPathOn(expression, component)
                }
            } else if isSymbol("[") {
                advance()
                let subscriptIndex: PredicateIndex
                switch keyword {
                case "FIRST": subscriptIndex = .first; advance()
                case "LAST": subscriptIndex = .last; advance()
                case "SIZE": subscriptIndex = .size; advance()
                default: subscriptIndex = .expression(try parseExpression())
                }
                try expect("]", "to close the index")
                expression = .index(expression, subscriptIndex)
            } else {
                return expression
            }
        }
    }

    private mutating func parseList(closing: String, _ context: String) throws(PredicateSyntaxError) -> [PredicateExpressionSyntax] {
        var items: [PredicateExpressionSyntax] = []
        if take(closing) { return items }
        repeat { items.append(try parseExpression()) } while take(",")
        try expect(closing, context)
        return items
    }

    private mutating func parsePrimary() throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        let token = current
        switch token.kind {
        case .integer(let value):
            advance()
            return .literal(.integer(value))
        case .double(let value):
            advance()
            return .literal(.double(value))
        case .string(let text):
            advance()
            return .literal(.string(text))
        case .argument(let kind):
            advance()
            defer { argumentCount += 1 }
            return .argument(index: argumentCount, kind: kind)
        case .variable(let name):
            advance()
            if take(":=") { return .assignment(variable: name, try parseExpression()) }
            return .variable(name)
        case .collectionOperator(let name):
            advance()
            return .keyPath("@" + name)
        case .functionName(let name):
            advance()
            try expect("(", "after the function name \(name)")
            return .function(name, try parseList(closing: ")", "to close the arguments of \(name)"))
        case .symbol("{"):
            advance()
            return .aggregate(try parseList(closing: "}", "to close the collection"))
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expect(")", "to close the parenthesis")
            return inner
        case .word(let name, let escaped):
            if escaped {
                advance()
                return .keyPath(name)
            }
            return try parseWord(name)
        case .end:
            throw error("expected an expression, found the end of the predicate")
        default:
            throw error("expected an expression, found \(describe(token))")
        }
    }

    private mutating func parseWord(_ name: String) throws(PredicateSyntaxError) -> PredicateExpressionSyntax {
        let token = current
        let upper = name.uppercased()
        switch upper {
        case "TRUE", "YES": advance(); return .literal(.bool(true))
        case "FALSE", "NO": advance(); return .literal(.bool(false))
        case "NULL", "NIL": advance(); return .literal(.null)
        case "SELF": advance(); return .evaluatedObject
        case "SUBQUERY":
            advance()
            try expect("(", "after SUBQUERY")
            let collection = try parseExpression()
            try expect(",", "after the collection of SUBQUERY")
            guard case .variable(let variable) = current.kind else {
                throw error("expected the iteration variable ($x) of SUBQUERY, found \(describe(current))")
            }
            advance()
            try expect(",", "after the variable of SUBQUERY")
            let predicate = try parseOr()
            try expect(")", "to close SUBQUERY")
            return .subquery(collection: collection, variable: variable, predicate: predicate)
        case "TERNARY" where nextIsSymbol("("):
            advance()
            advance()
            let condition = try parseOr()
            try expect(",", "after the condition of TERNARY")
            let ifTrue = try parseExpression()
            try expect(",", "after the second argument of TERNARY")
            let ifFalse = try parseExpression()
            try expect(")", "to close TERNARY")
            return .ternary(condition, ifTrue, ifFalse)
        case "FUNCTION" where nextIsSymbol("("), "CAST" where nextIsSymbol("("), "FETCH" where nextIsSymbol("("):
            advance()
            advance()
            return .function(upper, try parseList(closing: ")", "to close the arguments of \(upper)"))
        default:
            if Self.strictKeywords.contains(upper) {
                throw error("expected an expression, found the keyword \(upper); a key of that name is written #\(name)", at: token)
            }
            advance()
            if take("(") {
                return .function(name, try parseList(closing: ")", "to close the arguments of \(name)"))
            }
            return .keyPath(name)
        }
    }
}
