/// A condition objects are tested against: Core Data's `NSPredicate`, renamed because
/// Foundation on Linux already has that name.
///
/// This first form wraps a closure (Core Data's `NSPredicate(block:)`); the format-string
/// form (`ObjectPredicate("tweeter.name = %@", name)`) is built on the predicate syntax in
/// `DataModel`.
public struct ObjectPredicate: @unchecked Sendable {
    // Unchecked: the closure is required to be free of shared mutable state, as
    // NSPredicate(block:) requires of its block.
    private let block: (Any?, [String: Any]?) -> Bool

    /// A predicate that calls `block` with the evaluated object and the substitution variables.
    public init(block: @escaping (_ object: Any?, _ variables: [String: Any]?) -> Bool) {
        self.block = block
    }

    /// Whether `object` satisfies the predicate.
    public func evaluate(with object: Any?, substitutionVariables: [String: Any]? = nil) -> Bool {
        block(object, substitutionVariables)
    }
}
