import DataModel
import Foundation

/// A predicate ready to evaluate: the syntax tree with arguments and substituted variables
/// turned into values, key paths split, patterns and regular expressions compiled, constant
/// right-hand sides converted once. Built once per `ObjectPredicate`, never per object.
indirect enum CompiledPredicate {
    case constant(Bool)
    case comparison(CompiledComparison)
    case and([CompiledPredicate])
    case or([CompiledPredicate])
    case not(CompiledPredicate)
    case block((Any?, [String: Any]?) -> Bool)

    func evaluate(_ object: PredicateSubject, _ bindings: [String: Any]) -> Bool {
        switch self {
        case .constant(let value): return value
        case .comparison(let comparison): return comparison.evaluate(object, bindings)
        case .and(let operands):
            for operand in operands where !operand.evaluate(object, bindings) { return false }
            return true
        case .or(let operands):
            for operand in operands where operand.evaluate(object, bindings) { return true }
            return false
        case .not(let operand): return !operand.evaluate(object, bindings)
        case .block(let block): return block(object.value, bindings.isEmpty ? nil : bindings)
        }
    }
}

/// The object a predicate is evaluated with, and the same object as `KeyValueCoding` when
/// the caller's static type says it is one (so the first key needs no dynamic cast).
struct PredicateSubject {
    let value: Any?
    let keyValueCoding: KeyValueCoding?

    init(_ value: Any?) {
        self.value = value
        keyValueCoding = nil
    }

    init(_ object: KeyValueCoding) {
        value = object
        keyValueCoding = object
    }
}

indirect enum CompiledExpression {
    case constant(Any?)
    case evaluatedObject
    case keyPath(CompiledKeyPath)
    case keyPathOn(CompiledExpression, CompiledKeyPath)
    case variable(String)
    case aggregate([CompiledExpression])
    case function(PredicateFunction, [CompiledExpression])
    case arithmetic(PredicateArithmeticOperator, CompiledExpression, CompiledExpression)
    case negation(CompiledExpression)
    case index(CompiledExpression, CompiledIndex)
    case subquery(CompiledExpression, variable: String, CompiledPredicate)
    case ternary(CompiledPredicate, CompiledExpression, CompiledExpression)

    enum CompiledIndex {
        case first, last, size
        case expression(CompiledExpression)
    }

    var constantValue: Any?? {
        if case .constant(let value) = self { return .some(value) }
        return nil
    }

    var isKeyPath: Bool {
        switch self {
        case .keyPath, .keyPathOn: true
        default: false
        }
    }

    func evaluate(_ object: PredicateSubject, _ bindings: [String: Any]) -> Any? {
        switch self {
        case .constant(let value): return value
        case .evaluatedObject: return object.value
        case .keyPath(let path): return path.value(from: object)
        case .keyPathOn(let base, let path): return path.value(from: base.evaluate(object, bindings))
        case .variable(let name):
            guard let value = bindings[name] else {
                fatalError("ObjectPredicate: no value for the variable $\(name); pass it in substitutionVariables or use withSubstitutionVariables(_:)")
            }
            return value
        case .aggregate(let items):
            return items.map { $0.evaluate(object, bindings) as Any }
        case .function(let function, let arguments):
            return function.apply(arguments.map { $0.evaluate(object, bindings) })
        case .arithmetic(let op, let left, let right):
            return Arithmetic.apply(op, left.evaluate(object, bindings), right.evaluate(object, bindings))
        case .negation(let operand):
            return Arithmetic.negate(operand.evaluate(object, bindings))
        case .index(let base, let index):
            let value = PredicateValues.normalized(base.evaluate(object, bindings))
            switch index {
            case .first: return PredicateValues.elements(value)?.first
            case .last: return PredicateValues.elements(value)?.last
            case .size:
                if let string = PredicateValues.string(value) { return string.count }
                return PredicateValues.elements(value)?.count
            case .expression(let key):
                let key = PredicateValues.normalized(key.evaluate(object, bindings))
                if let name = PredicateValues.string(key), let value {
                    return PredicateValues.value(of: value, forKey: name)
                }
                guard let position = PredicateFunction.integer(key),
                      let elements = PredicateValues.elements(value) else { return nil }
                return elements.indices.contains(position) ? elements[position] : nil
            }
        case .subquery(let collection, let variable, let predicate):
            let elements = PredicateValues.elements(collection.evaluate(object, bindings)) ?? []
            var scope = bindings
            return elements.filter { element in
                scope[variable] = element
                return predicate.evaluate(object, scope)
            }
        case .ternary(let condition, let ifTrue, let ifFalse):
            return condition.evaluate(object, bindings)
                ? ifTrue.evaluate(object, bindings) : ifFalse.evaluate(object, bindings)
        }
    }
}

/// One comparison, with what can be prepared from a constant right-hand side prepared.
final class CompiledComparison {
    let modifier: PredicateModifier
    let operatorType: PredicateOperator
    let options: PredicateComparisonOptions
    let left: CompiledExpression
    let right: CompiledExpression
    /// The right-hand side's value when it is a constant.
    private let rightConstant: Any??
    /// A constant right-hand side as a scalar (strings folded for the options).
    private let rightScalar: ScalarValue?
    private let rightFoldedString: String?
    private let likePattern: StringMatching.LikePattern?
    private let regularExpression: StringMatching.RegularExpression?

    init(_ comparison: PredicateComparison, left: CompiledExpression, right: CompiledExpression) throws(PredicateCompileError) {
        modifier = comparison.modifier
        operatorType = comparison.operatorType
        options = comparison.options
        self.left = left
        self.right = right
        rightConstant = right.constantValue
        let constant = rightConstant.flatMap { PredicateValues.normalized($0) }
        var scalar = ScalarValue.from(constant)
        let string = PredicateValues.string(constant).map { StringMatching.fold($0, comparison.options) }
        if case .string = scalar, let string { scalar = .string(string) }
        rightScalar = scalar
        rightFoldedString = string
        if comparison.operatorType == .like, let constant = PredicateValues.string(constant) {
            likePattern = StringMatching.LikePattern(constant, options: comparison.options)
        } else {
            likePattern = nil
        }
        if comparison.operatorType == .matches, let constant = PredicateValues.string(constant) {
            do {
                regularExpression = try StringMatching.RegularExpression(constant, options: comparison.options)
            } catch {
                throw PredicateCompileError("invalid regular expression for MATCHES: \(constant)")
            }
        } else {
            regularExpression = nil
        }
        if comparison.operatorType == .between, let constant,
           PredicateValues.elements(constant)?.count != 2 {
            throw PredicateCompileError("BETWEEN needs a collection of two values, a lower and an upper bound, such as {1, 10}")
        }
    }

    func evaluate(_ object: PredicateSubject, _ bindings: [String: Any]) -> Bool {
        let leftValue = left.evaluate(object, bindings)
        let rightValue: Any? = if let rightConstant { rightConstant } else { right.evaluate(object, bindings) }
        switch modifier {
        case .direct:
            // A key path through a to-many relationship compares as ANY, as in a Core Data store.
            if left.isKeyPath, PredicateValues.isFannedOut(leftValue), let values = leftValue as? FannedOutValues {
                return values.predicateElements.contains { test($0, rightValue) }
            }
            return test(leftValue, rightValue)
        case .any:
            return operands(leftValue).contains { test($0, rightValue) }
        case .all:
            return operands(leftValue).allSatisfy { test($0, rightValue) }
        case .none:
            return !operands(leftValue).contains { test($0, rightValue) }
        }
    }

    private func operands(_ value: Any?) -> [Any] {
        if let elements = PredicateValues.elements(value) { return elements }
        return PredicateValues.normalized(value).map { [$0] } ?? []
    }

    private func foldedRightString(_ rightValue: Any?) -> String? {
        if let rightFoldedString { return rightFoldedString }
        return PredicateValues.string(rightValue).map { StringMatching.fold($0, options) }
    }

    private func order(_ leftValue: Any?, _ rightValue: Any?) -> ComparisonResult? {
        guard let a = ScalarValue.from(leftValue) ?? ScalarValue.from(PredicateValues.normalized(leftValue)) else {
            return nil
        }
        if let rightScalar { return ValueComparison.compare(a, rightScalar, options) }
        guard let b = ScalarValue.from(PredicateValues.normalized(rightValue)) else { return nil }
        return ValueComparison.compare(a, b, options)
    }

    private func test(_ leftValue: Any?, _ rightValue: Any?) -> Bool {
        switch operatorType {
        case .equalTo:
            if rightScalar != nil, let order = order(leftValue, rightValue) { return order == .orderedSame }
            return ValueComparison.equal(leftValue, rightValue, options)
        case .notEqualTo:
            if rightScalar != nil, let order = order(leftValue, rightValue) { return order != .orderedSame }
            return !ValueComparison.equal(leftValue, rightValue, options)
        case .lessThan: return order(leftValue, rightValue) == .orderedAscending
        case .lessThanOrEqualTo:
            let result = order(leftValue, rightValue)
            return result == .orderedAscending || result == .orderedSame
        case .greaterThan: return order(leftValue, rightValue) == .orderedDescending
        case .greaterThanOrEqualTo:
            let result = order(leftValue, rightValue)
            return result == .orderedDescending || result == .orderedSame
        case .beginsWith:
            guard let string = PredicateValues.string(leftValue),
                  let prefix = foldedRightString(rightValue) else { return false }
            return StringMatching.hasPrefix(string, foldedPrefix: prefix, options)
        case .endsWith:
            guard let string = PredicateValues.string(leftValue),
                  let suffix = foldedRightString(rightValue) else { return false }
            return StringMatching.fold(string, options).hasSuffix(suffix)
        case .like:
            guard let string = PredicateValues.string(leftValue) else { return false }
            if let likePattern { return likePattern.matches(string) }
            guard let pattern = PredicateValues.string(rightValue) else { return false }
            return StringMatching.LikePattern(pattern, options: options).matches(string)
        case .matches:
            guard let string = PredicateValues.string(leftValue) else { return false }
            if let regularExpression { return regularExpression.matches(string) }
            guard let pattern = PredicateValues.string(rightValue),
                  let expression = try? StringMatching.RegularExpression(pattern, options: options) else { return false }
            return expression.matches(string)
        case .contains:
            let container = PredicateValues.normalized(leftValue)
            if let string = PredicateValues.string(container) {
                guard let part = foldedRightString(rightValue) else { return false }
                return StringMatching.contains(string, foldedPart: part, options)
            }
            guard let elements = PredicateValues.elements(container) else { return false }
            return elements.contains { ValueComparison.equal($0, rightValue, options) }
        case .in:
            let container = PredicateValues.normalized(rightValue)
            if let string = PredicateValues.string(container) {
                guard let part = PredicateValues.string(leftValue) else { return false }
                return StringMatching.fold(string, options).contains(StringMatching.fold(part, options))
            }
            guard let elements = PredicateValues.elements(container) else { return false }
            return elements.contains { ValueComparison.equal(leftValue, $0, options) }
        case .between:
            guard let bounds = PredicateValues.elements(rightValue), bounds.count == 2,
                  let lower = ValueComparison.compare(leftValue, bounds[0], options),
                  let upper = ValueComparison.compare(leftValue, bounds[1], options) else { return false }
            return lower != .orderedAscending && upper != .orderedDescending
        }
    }
}
