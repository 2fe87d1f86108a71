import DataModel
import Foundation

extension EntityDescription {
    /// The first step of `keyPath` that names no property, starting from this entity (or one of
    /// its sub-entities, whose objects a fetch may return), with the entity it was looked up
    /// in; `nil` when every step is known. Steps after an attribute, collection operators
    /// (`@count`) and `self` are not checked: key-value coding answers them on values.
    func unknownStep(in keyPath: String) -> (step: String, entity: String)? {
        var entities = selfAndDescendants
        for step in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            if step.hasPrefix("@") { return nil }
            if step.lowercased() == "self" { continue }
            guard let property = entities.lazy.compactMap({ $0.propertiesByName[step] }).first else {
                return (step, entities.first?.name ?? name)
            }
            guard case .relationship(let relationship) = property.kind, let destination = relationship.destinationEntity
            else { return nil }
            entities = destination.selfAndDescendants
        }
        return nil
    }

    /// Throws `invalidFetchRequest` naming the key path, the unknown key and the entity when a
    /// key path of a fetch does not lead anywhere in the model (Core Data raises "keypath not
    /// found in entity").
    func checkKeyPaths(_ keyPaths: [String], in request: @autoclosure () -> String) throws {
        for keyPath in keyPaths {
            if let (step, entityName) = unknownStep(in: keyPath) {
                throw ManagedObjectError(
                    .invalidFetchRequest,
                    "\(request()): key path '\(keyPath)' not found: \(entityName) has no property '\(step)'",
                    entityName: name, key: keyPath)
            }
        }
    }
}

extension ObjectPredicate {
    /// The key paths the predicate reads from the evaluated object: those written in the
    /// format (through `SUBQUERY` collections too) and those given as `%K` arguments.
    package var keyPathsRead: [String] {
        switch source {
        case .syntax(let syntax, let arguments):
            var paths = syntax.keyPaths
            syntax.forEachKeyPathArgument { index, suffix in
                guard index < arguments.count, let path = PredicateValues.string(PredicateValues.normalized(arguments[index]))
                else { return }
                paths.append(suffix.map { path + "." + $0 } ?? path)
            }
            return paths
        case .block: return []
        case .and(let operands), .or(let operands): return operands.flatMap(\.keyPathsRead)
        case .not(let operand): return operand.keyPathsRead
        }
    }
}

extension PredicateSyntax {
    /// Calls `body` with the index of each `%K` argument read from the evaluated object, and
    /// the key path written after it (`%K.name`). `SUBQUERY` predicates, which read their
    /// variable's objects, are not entered.
    func forEachKeyPathArgument(_ body: (Int, String?) -> Void) {
        switch self {
        case .value: break
        case .comparison(let comparison):
            comparison.left.forEachKeyPathArgument(body)
            comparison.right.forEachKeyPathArgument(body)
        case .and(let operands), .or(let operands):
            for operand in operands { operand.forEachKeyPathArgument(body) }
        case .not(let operand):
            operand.forEachKeyPathArgument(body)
        }
    }
}

extension PredicateExpressionSyntax {
    func forEachKeyPathArgument(_ body: (Int, String?) -> Void) {
        switch self {
        case .argument(let index, .keyPath): body(index, nil)
        case .keyPathOn(.argument(let index, .keyPath), let path): body(index, path)
        case .keyPathOn(let base, _), .negation(let base), .index(let base, _), .assignment(_, let base):
            base.forEachKeyPathArgument(body)
        case .aggregate(let items), .function(_, let items):
            for item in items { item.forEachKeyPathArgument(body) }
        case .arithmetic(_, let left, let right):
            left.forEachKeyPathArgument(body)
            right.forEachKeyPathArgument(body)
        case .subquery(let collection, _, _):
            collection.forEachKeyPathArgument(body)
        case .ternary(let condition, let ifTrue, let ifFalse):
            condition.forEachKeyPathArgument(body)
            ifTrue.forEachKeyPathArgument(body)
            ifFalse.forEachKeyPathArgument(body)
        case .evaluatedObject, .keyPath, .literal, .argument, .variable: break
        }
    }
}
