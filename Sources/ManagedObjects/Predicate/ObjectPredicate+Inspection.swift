import Foundation

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
