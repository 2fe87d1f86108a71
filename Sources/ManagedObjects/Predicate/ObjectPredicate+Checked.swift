import Foundation

extension ObjectPredicate {
    /// ``evaluate(with:substitutionVariables:)`` for fetches: an unbound `$VARIABLE` throws
    /// (naming it) instead of stopping the program, so `try? context.fetch(request)` never
    /// ends a server process.
    func evaluateChecked(with object: some KeyValueCoding, substitutionVariables: [String: Any]? = nil) throws(ObjectPredicateError) -> Bool {
        try checkBindings(substitutionVariables)
        return evaluate(with: object, substitutionVariables: substitutionVariables)
    }

    /// Throws when a `$VARIABLE` has no value, neither substituted nor given.
    func checkBindings(_ substitutionVariables: [String: Any]? = nil) throws(ObjectPredicateError) {
        guard !freeVariables.isEmpty else { return }
        let given = substitutionVariables ?? [:]
        if let missing = freeVariables.sorted().first(where: { given[$0] == nil }) {
            throw ObjectPredicateError(
                format: predicateFormat,
                message: "no value for the variable $\(missing); use withSubstitutionVariables(_:) first",
                column: nil)
        }
    }
}

extension ObjectPredicate {
    /// Whether the predicate is a block somewhere (`ObjectPredicate(block:)`): only managed
    /// objects can be handed to a block, so a store cannot evaluate it.
    var containsBlock: Bool {
        switch source {
        case .syntax: false
        case .block: true
        case .and(let operands), .or(let operands): operands.contains(where: \.containsBlock)
        case .not(let operand): operand.containsBlock
        }
    }

    /// Whether evaluating the predicate may read another object than the evaluated one: a key
    /// path with several steps, or a key path given as a `%K` argument (counted as such).
    var mayReadRelatedObjects: Bool {
        switch source {
        case .syntax(let syntax, let arguments):
            syntax.keyPaths.contains { $0.contains(".") || $0.hasPrefix("@") }
                || arguments.contains { PredicateValues.string($0)?.contains(".") ?? false }
        case .block: true
        case .and(let operands), .or(let operands): operands.contains(where: \.mayReadRelatedObjects)
        case .not(let operand): operand.mayReadRelatedObjects
        }
    }
}
