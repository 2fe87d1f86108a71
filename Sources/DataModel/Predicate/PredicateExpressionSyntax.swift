/// An expression: one side of a comparison (`NSExpression`).
public indirect enum PredicateExpressionSyntax: Hashable, Sendable {
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// A key path from the evaluated object: `name`, `tweeter.name`, `tweets.@count`,
    /// `items.@sum.price`. Components are joined with `.`; a `#` escape is not kept.
    case keyPath(String)
    /// A key path applied to another expression's value: `$f.age`, `SELF.name`,
    /// `SUBQUERY(…).@count`, `list[FIRST].name`.
    case keyPathOn(PredicateExpressionSyntax, String)
    /// A constant written in the format string.
    case literal(PredicateLiteral)
    /// A format argument (`%@`, `%K`, `%d` …): the 0-based position among the format's arguments.
    case argument(index: Int, kind: PredicateArgumentKind)
    /// `$NAME`: a substitution variable (or a `SUBQUERY` iteration variable).
    case variable(String)
    /// `{a, b, c}`: a literal collection.
    case aggregate([PredicateExpressionSyntax])
    /// A function call: `now()`, `sum:(x)`, `canonical:(name)`, `FUNCTION(obj, 'name', …)`,
    /// `CAST(x, 'NSDate')`. The name is kept as written (with its colon, keywords upper-cased).
    case function(String, [PredicateExpressionSyntax])
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a ** b`.
    case arithmetic(PredicateArithmeticOperator, PredicateExpressionSyntax, PredicateExpressionSyntax)
    /// `-a` (a negative number literal is a ``literal(_:)`` instead).
    case negation(PredicateExpressionSyntax)
    /// `a[FIRST]`, `a[LAST]`, `a[SIZE]`, `a[2]`, `a['key']`.
    case index(PredicateExpressionSyntax, PredicateIndex)
    /// `SUBQUERY(collection, $variable, predicate)`: the members of the collection the predicate
    /// accepts, each bound to the variable.
    case subquery(collection: PredicateExpressionSyntax, variable: String, predicate: PredicateSyntax)
    /// `TERNARY(predicate, ifTrue, ifFalse)`.
    case ternary(PredicateSyntax, PredicateExpressionSyntax, PredicateExpressionSyntax)
    /// `$variable := expression`.
    case assignment(variable: String, PredicateExpressionSyntax)

    /// Parses an expression format string (`NSExpression(format:)`), as a derived attribute's
    /// derivation (`now()`, `canonical:(name)`, `items.@count`) is written.
    public init(parsing format: String) throws(PredicateSyntaxError) {
        var parser = PredicateParser(format)
        self = try parser.parseExpressionToEnd()
    }
}
