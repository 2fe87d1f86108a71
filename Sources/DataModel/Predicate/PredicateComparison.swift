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
