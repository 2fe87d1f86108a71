import DataModel
import Foundation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObjectPredicate {
    /// The format-string predicate a Foundation `Predicate` (`#Predicate<Tweet> { … }`) stands
    /// for: the same syntax tree `ObjectPredicate("…")` parses into, its captured values bound as
    /// arguments, so every store evaluates (or translates to SQL) it as it does a format string.
    ///
    /// ```swift
    /// let busy = try ObjectPredicate(#Predicate<TwitterUser> { $0.tweets.count > 5 })
    /// busy.format   // tweets.@count > %@
    /// ```
    ///
    /// - Throws: ``ManagedObjectError`` (`invalidFetchRequest`) naming the first expression that
    ///   has no format-string equivalent (a method call the language lacks, a key path that is
    ///   not a stored property of a generated class).
    public init<Object>(_ predicate: Predicate<Object>) throws {
        var translator = PredicateTranslator(root: predicate.variable.key)
        do {
            let syntax = try translator.predicate(predicate.expression)
            try self.init(syntax: syntax, arguments: translator.arguments)
        } catch {
            throw ManagedObjectError(
                .invalidFetchRequest, "#Predicate<\(Object.self)>: \(error)", entityName: "\(Object.self)")
        }
    }
}

/// A Foundation predicate expression with a format-string equivalent. Foundation's
/// `PredicateExpressions` types adopt it (as SwiftData's do its own), their operands translated
/// in turn; one that does not adopt it is named in the error.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
protocol ObjectPredicateTranslatable {
    func translated(by translator: inout PredicateTranslator) throws -> PredicateTerm
}

/// What an expression translates to.
enum PredicateTerm {
    /// A condition (`a > 1`, `a AND b`).
    case predicate(PredicateSyntax)
    /// A value read from the object (`text`, `tweets.@count`, `$v.name`).
    case expression(PredicateExpressionSyntax)
    /// A value known at translation (a captured value or literal).
    case value(Any?)
    /// `wrapped?.test`: `condition` where each of `wrapped` is not `nil`, else `nil`.
    case optionalCondition(PredicateSyntax, wrapped: [PredicateExpressionSyntax])
    /// `value ?? fallback`.
    case coalesced(PredicateExpressionSyntax, fallback: PredicateExpressionSyntax)
    /// `lhs.caseInsensitiveCompare(rhs)`: a `ComparisonResult` the comparison with it decides.
    case stringComparison(PredicateExpressionSyntax, PredicateExpressionSyntax, PredicateComparisonOptions)
}

/// An expression of a Foundation predicate with no format-string equivalent; `ObjectPredicate(_:)`
/// throws it as a ``ManagedObjectError`` naming the predicate's type.
struct UntranslatableExpression: Error, CustomStringConvertible {
    let description: String
}

/// Walks a Foundation predicate's expression tree into ``PredicateSyntax``.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct PredicateTranslator {
    /// The syntax each closure variable stands for: the evaluated object, a `SUBQUERY`
    /// variable, or what an optional's `flatMap` unwraps.
    private var variables: [PredicateExpressions.VariableID: PredicateExpressionSyntax]
    /// Values the syntax refers to by `%@` position.
    private(set) var arguments: [Any?] = []
    private var subqueryCount = 0

    init(root: PredicateExpressions.VariableID) {
        variables = [root: .evaluatedObject]
    }

    // MARK: Operands

    /// Translates `expression` with this translator's state (arguments, variables).
    mutating func translate(_ expression: Any) throws -> PredicateTerm {
        guard let translatable = expression as? any ObjectPredicateTranslatable else {
            throw Self.untranslatable(expression, "has no format-string equivalent")
        }
        return try translatable.translated(by: &self)
    }

    /// `expression` as a condition: a Bool value read from the object is compared with `true`.
    mutating func predicate(_ expression: Any) throws -> PredicateSyntax {
        try predicate(from: translate(expression), of: expression)
    }

    mutating func predicate(from term: PredicateTerm, of expression: Any) throws -> PredicateSyntax {
        switch term {
        case .predicate(let syntax):
            return syntax
        case .expression(let value):
            return .comparison(PredicateComparison(value, .equalTo, .literal(.bool(true))))
        case .value(let value as Bool):
            return .value(value)
        case .optionalCondition(let condition, let wrapped):
            return .and(wrapped.map(Self.isNotNil) + [condition])
        case .coalesced(let value, let fallback):
            return Self.coalescedComparison(value, fallback) { .comparison(PredicateComparison($0, .equalTo, .literal(.bool(true)))) }
        case .value, .stringComparison:
            throw Self.untranslatable(expression, "is not a condition")
        }
    }

    /// `expression` as a value: a captured value becomes a bound argument.
    mutating func expression(_ expression: Any) throws -> PredicateExpressionSyntax {
        try self.expression(from: translate(expression), of: expression)
    }

    mutating func expression(from term: PredicateTerm, of expression: Any) throws -> PredicateExpressionSyntax {
        switch term {
        case .expression(let syntax):
            return syntax
        case .value(let value):
            guard let value else { return .literal(.null) }
            arguments.append(value)
            return .argument(index: arguments.count - 1, kind: .object)
        case .coalesced(let value, let fallback):
            return .ternary(Self.isNotNil(value), value, fallback)
        case .predicate, .optionalCondition, .stringComparison:
            throw Self.untranslatable(expression, "is a condition, not a value")
        }
    }

    // MARK: Building

    /// `lhs operator rhs`, with `lhs ?? fallback` on either side split into both cases.
    mutating func comparison(
        _ lhs: Any, _ operatorType: PredicateOperator, _ rhs: Any, options: PredicateComparisonOptions = []
    ) throws -> PredicateTerm {
        try comparison(translate(lhs), of: lhs, operatorType, translate(rhs), of: rhs, options: options)
    }

    mutating func comparison(
        _ left: PredicateTerm, of lhs: Any, _ operatorType: PredicateOperator, _ right: PredicateTerm, of rhs: Any,
        options: PredicateComparisonOptions = []
    ) throws -> PredicateTerm {
        if case .coalesced(let value, let fallback) = left {
            let rightSyntax = try expression(from: right, of: rhs)
            return .predicate(Self.coalescedComparison(value, fallback) {
                .comparison(PredicateComparison($0, operatorType, rightSyntax, options: options))
            })
        }
        if case .coalesced(let value, let fallback) = right {
            let leftSyntax = try expression(from: left, of: lhs)
            return .predicate(Self.coalescedComparison(value, fallback) {
                .comparison(PredicateComparison(leftSyntax, operatorType, $0, options: options))
            })
        }
        return .predicate(.comparison(PredicateComparison(
            try expression(from: left, of: lhs), operatorType, try expression(from: right, of: rhs), options: options)))
    }

    /// `(value ?? fallback) …` as `(value != nil AND value …) OR (value == nil AND fallback …)`,
    /// which a store can run in SQL where `TERNARY` it cannot.
    private static func coalescedComparison(
        _ value: PredicateExpressionSyntax, _ fallback: PredicateExpressionSyntax,
        _ compare: (PredicateExpressionSyntax) -> PredicateSyntax
    ) -> PredicateSyntax {
        .or([.and([isNotNil(value), compare(value)]), .and([isNil(value), compare(fallback)])])
    }

    /// `lhs == rhs` (or `!=`), where either side may be a condition compared with a Bool, or a
    /// `caseInsensitiveCompare` compared with a `ComparisonResult`.
    mutating func equality(_ lhs: Any, _ rhs: Any, negated: Bool) throws -> PredicateTerm {
        let left = try translate(lhs)
        let right = try translate(rhs)
        func negatedIf(_ syntax: PredicateSyntax) -> PredicateTerm { .predicate(negated ? .not(syntax) : syntax) }
        switch (left, right) {
        case (.stringComparison(let a, let b, let options), .value(let result as ComparisonResult)),
             (.value(let result as ComparisonResult), .stringComparison(let a, let b, let options)):
            let operatorType: PredicateOperator = switch result {
            case .orderedSame: .equalTo
            case .orderedAscending: .lessThan
            case .orderedDescending: .greaterThan
            }
            return negatedIf(.comparison(PredicateComparison(a, operatorType, b, options: options)))
        case (.predicate(let condition), .value(let flag as Bool)), (.value(let flag as Bool), .predicate(let condition)):
            return .predicate(flag != negated ? condition : .not(condition))
        default:
            return try comparison(left, of: lhs, negated ? .notEqualTo : .equalTo, right, of: rhs)
        }
    }

    static func isNil(_ value: PredicateExpressionSyntax) -> PredicateSyntax {
        .comparison(PredicateComparison(value, .equalTo, .literal(.null)))
    }

    static func isNotNil(_ value: PredicateExpressionSyntax) -> PredicateSyntax {
        .comparison(PredicateComparison(value, .notEqualTo, .literal(.null)))
    }

    /// `base.key`.
    static func appending(_ key: String, to base: PredicateExpressionSyntax) -> PredicateExpressionSyntax {
        switch base {
        case .evaluatedObject: .keyPath(key)
        case .keyPath(let path): .keyPath(path + "." + key)
        case .keyPathOn(let root, let path): .keyPathOn(root, path + "." + key)
        default: .keyPathOn(base, key)
        }
    }

    /// Makes `variable` stand for `syntax` while its closure is translated.
    mutating func bind(_ variable: PredicateExpressions.VariableID, to syntax: PredicateExpressionSyntax) {
        variables[variable] = syntax
    }

    func syntax(of variable: PredicateExpressions.VariableID, in expression: Any) throws -> PredicateExpressionSyntax {
        guard let syntax = variables[variable] else { throw Self.untranslatable(expression, "uses an unknown variable") }
        return syntax
    }

    /// A fresh `SUBQUERY` variable for `variable`, bound while `body` runs.
    mutating func subquery<T>(
        _ variable: PredicateExpressions.VariableID, _ body: (inout PredicateTranslator, String) throws -> T
    ) rethrows -> T {
        subqueryCount += 1
        let name = "v\(subqueryCount)"
        let saved = variables[variable]
        variables[variable] = .variable(name)
        defer { variables[variable] = saved }
        return try body(&self, name)
    }

    static func untranslatable(_ expression: Any, _ reason: String) -> UntranslatableExpression {
        UntranslatableExpression(description: "\(describe(expression)) \(reason)")
    }

    /// An expression's type without module prefixes, then its value: enough to find it in the
    /// closure.
    static func describe(_ expression: Any) -> String {
        let text = "\(expression)"
            .replacingOccurrences(of: "FoundationEssentials.", with: "")
            .replacingOccurrences(of: "PredicateExpressions.", with: "")
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}
