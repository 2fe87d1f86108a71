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
