import Foundation

extension ObjectPredicate {
    /// Whether the predicate is a block somewhere (`ObjectPredicate(block:)`): only managed
    /// objects can be handed to a block, so a store cannot evaluate it.
    package var containsBlock: Bool {
        switch source {
        case .syntax: false
        case .block: true
        case .and(let operands), .or(let operands): operands.contains(where: \.containsBlock)
        case .not(let operand): operand.containsBlock
        }
    }

    /// Whether evaluating the predicate may read another object than the evaluated one: a
    /// block, or a key path (written or given by `%K`) with several steps or an operator.
    var mayReadRelatedObjects: Bool {
        containsBlock || keyPathsRead.contains { $0.contains(".") || $0.hasPrefix("@") }
    }
}
