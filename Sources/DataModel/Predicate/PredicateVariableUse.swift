/// A `$VARIABLE` in a predicate and what it is compared with: how the generator types a
/// fetch-request template's parameters (`name == $NAME` → `NAME` has the type of `name`).
public struct PredicateVariableUse: Hashable, Sendable {
    /// The variable's name, without `$`.
    public var name: String
    /// The key path, from the evaluated object, on the other side of the comparison
    /// (`name` in `name == $NAME`), or `nil` when the other side is not a key path.
    public var comparedKeyPath: String?
    /// The key path applied to the variable itself (`id` in `$FETCH_SOURCE.id == mangaId`).
    public var memberKeyPath: String?
    /// The comparison's operator, or `nil` when the variable is not a side of a comparison.
    public var operatorType: PredicateOperator?
    /// The comparison's modifier (`ANY tags.name == $TAG` compares with each element).
    public var modifier: PredicateModifier
    /// Whether the variable stands for a collection of values of the key path's type:
    /// `x IN $LIST`, `x BETWEEN $RANGE`, `$LIST CONTAINS x`.
    public var isCollection: Bool

    public init(
        name: String, comparedKeyPath: String? = nil, memberKeyPath: String? = nil,
        operatorType: PredicateOperator? = nil, modifier: PredicateModifier = .direct,
        isCollection: Bool = false
    ) {
        self.name = name
        self.comparedKeyPath = comparedKeyPath
        self.memberKeyPath = memberKeyPath
        self.operatorType = operatorType
        self.modifier = modifier
        self.isCollection = isCollection
    }

    /// `$FETCH_SOURCE` and `$FETCHED_PROPERTY`, which Core Data binds itself for a fetched
    /// property; they are not parameters.
    public var isFetchedPropertyVariable: Bool {
        name == PredicateSyntax.fetchSourceVariable || name == PredicateSyntax.fetchedPropertyVariable
    }
}
