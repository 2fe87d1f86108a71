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
