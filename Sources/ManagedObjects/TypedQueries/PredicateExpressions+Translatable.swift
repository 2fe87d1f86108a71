import DataModel
import Foundation

// Foundation's predicate expressions and the format-string syntax each stands for. Operands are
// translated through `PredicateTranslator`, which names an operand that has no equivalent.
// Foundation's predicates need macOS 14 and its siblings; the package supports macOS 13.

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Variable: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        .expression(try translator.syntax(of: key, in: self))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Value: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        .value(RawValueStorage.comparable(value))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.NilLiteral: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm { .value(nil) }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.KeyPath: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let base = try translator.translate(root)
        if case .value(let value) = base {
            // A key path on a captured value (`user.name`) is read now, as Swift would.
            guard let value = value as? Root.Output else {
                throw PredicateTranslator.untranslatable(self, "reads \(keyPath) of nil")
            }
            return .value(RawValueStorage.comparable(value[keyPath: keyPath]))
        }
        let baseSyntax = try translator.expression(from: base, of: root)
        switch KeyPathNames.name(of: keyPath, from: Root.Output.self) {
        case .property(let name)?:
            return .expression(PredicateTranslator.appending(name, to: baseSyntax))
        case .count?:
            return .expression(PredicateTranslator.appending("@count", to: baseSyntax))
        case .isEmpty?:
            let count = PredicateTranslator.appending("@count", to: baseSyntax)
            return .predicate(.comparison(PredicateComparison(count, .equalTo, .literal(.integer(0)))))
        case .isEmptyString?:
            return .predicate(.comparison(PredicateComparison(baseSyntax, .equalTo, .literal(.string("")))))
        case nil:
            throw PredicateTranslator.untranslatable(
                self, "reads \(keyPath), which is not a stored property of a generated class (nor a collection's count)")
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Conjunction: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let operands = [try translator.predicate(lhs), try translator.predicate(rhs)].flatMap { operand in
            if case .and(let nested) = operand { nested } else { [operand] }
        }
        return .predicate(.and(operands))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Disjunction: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let operands = [try translator.predicate(lhs), try translator.predicate(rhs)].flatMap { operand in
            if case .or(let nested) = operand { nested } else { [operand] }
        }
        return .predicate(.or(operands))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Negation: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        .predicate(.not(try translator.predicate(wrapped)))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Equal: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        try translator.equality(lhs, rhs, negated: false)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.NotEqual: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        try translator.equality(lhs, rhs, negated: true)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Comparison: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let operatorType: PredicateOperator = switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqualTo
        }
        return try translator.comparison(lhs, operatorType, rhs)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.OptionalFlatMap: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let wrappedTerm = try translator.translate(wrapped)
        if case .value(nil) = wrappedTerm { return .value(nil) }
        let wrappedSyntax = try translator.expression(from: wrappedTerm, of: wrapped)
        translator.bind(variable.key, to: wrappedSyntax)
        switch try translator.translate(transform) {
        case .predicate(let condition):
            return .optionalCondition(condition, wrapped: [wrappedSyntax])
        case .optionalCondition(let condition, let inner):
            return .optionalCondition(condition, wrapped: [wrappedSyntax] + inner)
        case let result:
            // A value read through `nil` is `nil` in key-value reads, as `?.` gives.
            return result
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.NilCoalesce: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        switch try translator.translate(lhs) {
        case .optionalCondition(let condition, let wrapped):
            let present = PredicateSyntax.and(wrapped.map(PredicateTranslator.isNotNil) + [condition])
            let absent = PredicateSyntax.or(wrapped.map(PredicateTranslator.isNil))
            switch try translator.predicate(rhs) {
            case .value(false): return .predicate(present)
            case .value(true): return .predicate(.or([absent, condition]))
            case let fallback: return .predicate(.or([present, .and([absent, fallback])]))
            }
        case .value(let value?):
            return .value(value)
        case .value(nil):
            return try translator.translate(rhs)
        case let value:
            return .coalesced(try translator.expression(from: value, of: lhs), fallback: try translator.expression(rhs))
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.ForcedUnwrap: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        switch try translator.translate(inner) {
        case .optionalCondition(let condition, let wrapped):
            .predicate(.and(wrapped.map(PredicateTranslator.isNotNil) + [condition]))
        case let term:
            term
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceContains: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        try translator.comparison(element, .in, sequence)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceContainsWhere: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let collection = try translator.expression(sequence)
        return try translator.subquery(variable.key) { translator, name in
            let condition = try translator.predicate(test)
            // One comparison of a member's key path with a value is `ANY tweets.x …`, the form
            // format strings use and SQL stores run.
            if case .comparison(var comparison) = condition, comparison.modifier == .direct,
               case .keyPathOn(.variable(name), let path) = comparison.left, comparison.right.isConstant {
                comparison.left = PredicateTranslator.appending(path, to: collection)
                comparison.modifier = .any
                return .predicate(.comparison(comparison))
            }
            let matches = PredicateExpressionSyntax.subquery(collection: collection, variable: name, predicate: condition)
            return .predicate(.comparison(PredicateComparison(
                PredicateTranslator.appending("@count", to: matches), .greaterThan, .literal(.integer(0)))))
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceAllSatisfy: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let collection = try translator.expression(sequence)
        return try translator.subquery(variable.key) { translator, name in
            // Not `ALL tweets.x …`, which passes over members whose `x` is nil.
            let failing = PredicateExpressionSyntax.subquery(
                collection: collection, variable: name, predicate: .not(try translator.predicate(test)))
            return .predicate(.comparison(PredicateComparison(
                PredicateTranslator.appending("@count", to: failing), .equalTo, .literal(.integer(0)))))
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Filter: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let collection = try translator.expression(sequence)
        return try translator.subquery(variable.key) { translator, name in
            .expression(.subquery(collection: collection, variable: name, predicate: try translator.predicate(filter)))
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.SequenceStartsWith: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        guard Base.Output.self is any StringProtocol.Type else {
            throw PredicateTranslator.untranslatable(self, "is starts(with:) on a collection that is not a string")
        }
        return try translator.comparison(base, .beginsWith, prefix)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.CollectionContainsCollection: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        guard Base.Output.self is any StringProtocol.Type else {
            throw PredicateTranslator.untranslatable(self, "is contains(_:) on a collection that is not a string")
        }
        return try translator.comparison(base, .contains, other)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Arithmetic: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        let operatorType: PredicateArithmeticOperator = switch op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        }
        return .expression(.arithmetic(operatorType, try translator.expression(lhs), try translator.expression(rhs)))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.FloatDivision: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        .expression(.arithmetic(.divide, try translator.expression(lhs), try translator.expression(rhs)))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.UnaryMinus: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        .expression(.negation(try translator.expression(wrapped)))
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.Conditional: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        .expression(.ternary(
            try translator.predicate(test), try translator.expression(trueBranch), try translator.expression(falseBranch)))
    }
}

#if canImport(Darwin)
// Foundation offers these two in predicates on Apple platforms only.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.StringCaseInsensitiveCompare: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        .stringComparison(try translator.expression(root), try translator.expression(other), [.caseInsensitive])
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PredicateExpressions.StringLocalizedStandardContains: ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm {
        // Case- and diacritic-insensitive, as `localizedStandardContains` is.
        try translator.comparison(root, .contains, other, options: [.caseInsensitive, .diacriticInsensitive])
    }
}
#endif

extension PredicateExpressionSyntax {
    /// Whether the value is known without an object: a literal or a bound argument.
    fileprivate var isConstant: Bool {
        switch self {
        case .literal, .argument: true
        default: false
        }
    }
}
