/// A predicate as written in Core Data's format-string language (`NSPredicate(format:)`),
/// parsed into value types: the syntax tree shared by the generator (which checks template
/// predicates and types their `$VARIABLES`) and the runtime (which evaluates it).
///
/// Format arguments (`%@`, `%K`, `%d` …) stay placeholders (``PredicateExpressionSyntax/argument(index:kind:)``);
/// the runtime substitutes values when it builds an `ObjectPredicate`, so the tree holds no `Any`.
///
/// ```swift
/// let syntax = try PredicateSyntax(parsing: "tweeter.name = %@ AND created > $SINCE")
/// syntax.format      // tweeter.name == %@ AND created > $SINCE
/// ```
public indirect enum PredicateSyntax: Hashable, Sendable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case value(Bool)
    /// `left operator[options] right`, optionally with `ANY`, `ALL` or `NONE` in front.
    case comparison(PredicateComparison)
    /// `a AND b AND …` (`&&`). A parsed chain is one node; an empty list is true.
    case and([PredicateSyntax])
    /// `a OR b OR …` (`||`). A parsed chain is one node; an empty list is false.
    case or([PredicateSyntax])
    /// `NOT a` (`!a`).
    case not(PredicateSyntax)

    /// Parses a predicate format string.
    /// - Throws: ``PredicateSyntaxError`` naming the 1-based column of the first problem.
    public init(parsing format: String) throws(PredicateSyntaxError) {
        var parser = PredicateParser(format)
        self = try parser.parsePredicateToEnd()
    }
}

/// A comparison predicate: `modifier left operatorType[options] right`.
public struct PredicateComparison: Hashable, Sendable {
    public var modifier: PredicateModifier
    public var left: PredicateExpressionSyntax
    public var operatorType: PredicateOperator
    public var options: PredicateComparisonOptions
    public var right: PredicateExpressionSyntax

    public init(
        _ left: PredicateExpressionSyntax, _ operatorType: PredicateOperator,
        _ right: PredicateExpressionSyntax, options: PredicateComparisonOptions = [],
        modifier: PredicateModifier = .direct
    ) {
        self.modifier = modifier
        self.left = left
        self.operatorType = operatorType
        self.options = options
        self.right = right
    }
}

/// How a comparison treats a collection on its left: `NSComparisonPredicate.Modifier`, plus
/// `NONE` (which Foundation stores as `NOT ANY`). `SOME` is read as `ANY`, its synonym.
public enum PredicateModifier: String, Hashable, Sendable, CaseIterable {
    case direct
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// The operator of a comparison (`NSComparisonPredicate.Operator`).
public enum PredicateOperator: String, Hashable, Sendable, CaseIterable {
    case lessThan = "<"
    case lessThanOrEqualTo = "<="
    case greaterThan = ">"
    case greaterThanOrEqualTo = ">="
    case equalTo = "=="
    case notEqualTo = "!="
    case matches = "MATCHES"
    case like = "LIKE"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case `in` = "IN"
    case contains = "CONTAINS"
    case between = "BETWEEN"

    /// The spelling the printer writes.
    public var spelling: String { rawValue }
}

/// `[c]`, `[d]`, `[n]`, `[l]` and their combinations (`NSComparisonPredicate.Options`).
public struct PredicateComparisonOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: letters compare without regard to case.
    public static let caseInsensitive = PredicateComparisonOptions(rawValue: 1)
    /// `[d]`: letters compare without regard to accents (`é` equals `e`).
    public static let diacriticInsensitive = PredicateComparisonOptions(rawValue: 2)
    /// `[n]`: the strings are already normalized (a speed hint; it changes no result here).
    public static let normalized = PredicateComparisonOptions(rawValue: 4)
    /// `[l]`: compare in the user's locale (accepted; comparisons here are locale-independent).
    public static let localeSensitive = PredicateComparisonOptions(rawValue: 8)

    /// The letters between the brackets, in the printer's order: `cd`, `c`, `dn` …
    public var letters: String {
        var text = ""
        if contains(.caseInsensitive) { text += "c" }
        if contains(.diacriticInsensitive) { text += "d" }
        if contains(.normalized) { text += "n" }
        if contains(.localeSensitive) { text += "l" }
        return text
    }
}

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

/// A literal value in a format string.
public enum PredicateLiteral: Hashable, Sendable {
    /// `NULL`, `NIL`.
    case null
    /// `TRUE`, `YES`, `FALSE`, `NO`.
    case bool(Bool)
    /// `42`, `-7`, `0x1F`, `0o17`, `0b101`.
    case integer(Int)
    /// `2.5`, `1e3`, `-0.5`; also an integer literal too large for `Int`.
    case double(Double)
    /// `"text"` or `'text'`, escapes resolved.
    case string(String)
}

/// What a format argument is expected to hold, from its conversion (`%@`, `%K`, `%d` …).
public enum PredicateArgumentKind: String, Hashable, Sendable, CaseIterable {
    /// `%@`: an object (string, number, date, managed object, collection …).
    case object = "@"
    /// `%K`: a key path, substituted as a key path rather than a value.
    case keyPath = "K"
    /// `%d`, `%i`, `%ld`, `%lld`, `%hd`, `%qi` …
    case signedInteger = "d"
    /// `%u`, `%lu`, `%llu`, `%x`, `%o` …
    case unsignedInteger = "u"
    /// `%f`, `%e`, `%g`, `%lf` …
    case floatingPoint = "f"
    /// `%c`, `%C`.
    case character = "c"
    /// `%s`, `%S`: a C string (pass a Swift `String`).
    case cString = "s"

    /// The specifier the printer writes, `%` included.
    public var specifier: String { "%" + rawValue }
}

/// The operator of an arithmetic expression, named as `NSExpression` names its function.
public enum PredicateArithmeticOperator: String, Hashable, Sendable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"

    /// `NSExpression.function` for this operator: `add:to:`, `from:subtract:` …
    public var functionName: String {
        switch self {
        case .add: "add:to:"
        case .subtract: "from:subtract:"
        case .multiply: "multiply:by:"
        case .divide: "divide:by:"
        case .power: "raise:toPower:"
        }
    }
}

/// What is between the brackets of an index expression.
public indirect enum PredicateIndex: Hashable, Sendable {
    case first
    case last
    case size
    case expression(PredicateExpressionSyntax)
}

extension PredicateSyntax {
    /// The name of the variable a fetched property's predicate uses for the object whose
    /// property is being fetched.
    public static let fetchSourceVariable = "FETCH_SOURCE"
    /// The name of the variable a fetched property's predicate uses for the fetched property
    /// description itself.
    public static let fetchedPropertyVariable = "FETCHED_PROPERTY"

    /// The reserved words of the language (upper case). A key named like one is written with
    /// a `#` in front (`#size`); the printer does so.
    public static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
        "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE",
        "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST",
        "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS", "FUNCTION", "TERNARY",
    ]
}
