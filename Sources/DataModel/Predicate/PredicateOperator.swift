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
