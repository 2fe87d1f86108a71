/// What is between the brackets of an index expression.
public indirect enum PredicateIndex: Hashable, Sendable {
    case first
    case last
    case size
    case expression(PredicateExpressionSyntax)
}
