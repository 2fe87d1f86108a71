import Foundation

/// A key path compiled once into steps; a collection operator ends it and takes the rest of
/// the path as its argument (`items.@sum.price`). The one reader of key paths: predicates and
/// expressions read with ``value(from:)-(PredicateSubject)``, key-value coding
/// (`value(forKeyPath:)`) and sort descriptors with ``keyValue(of:)``.
///
/// A key applied to a collection (a to-many relationship) is applied to each element, the
/// values flattened into one collection with nils left out. Through an unordered collection
/// (a set), each value counts once before a collection operator and in key-value coding's
/// result, as `NSSet.value(forKey:)` gives a set. A comparison of such values in a predicate
/// holds when it holds for any of them (a Core Data store's semantics; see `CompiledComparison`).
struct CompiledKeyPath: Equatable {
    enum Step: Equatable {
        case key(String)
        case collectionOperator(CollectionOperator, rest: CompiledKeyPath?)
    }

    let steps: [Step]

    /// A key path as predicates write it; empty keys and unknown operators are errors.
    init(_ path: String) throws(PredicateCompileError) {
        var steps: [Step] = []
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, component) in components.enumerated() {
            guard !component.isEmpty else { throw PredicateCompileError("empty key in key path '\(path)'") }
            guard component.hasPrefix("@") else {
                steps.append(.key(component))
                continue
            }
            guard let op = CollectionOperator(rawValue: String(component.dropFirst())) else {
                throw PredicateCompileError(
                    "unknown collection operator '\(component)' in key path '\(path)'; the operators are @count, @sum, @avg, @min, @max, @unionOfObjects, @distinctUnionOfObjects, @unionOfArrays, @distinctUnionOfArrays and @distinctUnionOfSets")
            }
            let rest = components[(index + 1)...]
            steps.append(.collectionOperator(op, rest: rest.isEmpty ? nil : try CompiledKeyPath(rest.joined(separator: "."))))
            break
        }
        self.steps = steps
    }

    /// A key path as key-value coding reads it, which does not fail: empty keys are skipped
    /// and an `@name` that is no collection operator is read as a key (answering `nil`).
    init(keyValueKeys keys: some Collection<String>) {
        var steps: [Step] = []
        var remaining = keys.filter { !$0.isEmpty }[...]
        while let key = remaining.popFirst() {
            if key.hasPrefix("@"), let op = CollectionOperator(rawValue: String(key.dropFirst())) {
                steps.append(.collectionOperator(op, rest: remaining.isEmpty ? nil : CompiledKeyPath(keyValueKeys: remaining)))
                break
            }
            steps.append(.key(key))
        }
        self.steps = steps
    }

    /// `init(keyValueKeys:)` for a dotted path.
    init(keyValuePath path: String) {
        self.init(keyValueKeys: path.split(separator: ".").map(String.init))
    }

    /// The value as key-value coding gives it (`value(forKeyPath:)`): the values a to-many
    /// path reaches as an array, each once through an unordered relationship.
    func keyValue(of object: KeyValueCoding) -> Any? {
        Self.keyValueResult(value(from: PredicateSubject(object)))
    }

    /// A value read by ``value(from:)-(PredicateSubject)`` as key-value coding gives it.
    static func keyValueResult(_ value: Any?) -> Any? {
        guard PredicateValues.isFannedOut(value), let values = value as? FannedOutValues else { return value }
        return values.distinctElements
    }

    /// The value as predicates read it: a to-many path's values stay marked as such
    /// (`FannedOutValues`) so that a comparison can treat them as `ANY`. An object known to
    /// answer by key is asked directly for the first key, without a dynamic cast.
    func value(from subject: PredicateSubject) -> Any? {
        guard !steps.isEmpty else { return subject.value }
        if let object = subject.keyValueCoding, case .key(let key) = steps[0] {
            return value(from: object.storedValue(forKey: key), startingAt: 1)
        }
        return value(from: subject.value, startingAt: 0)
    }

    func value(from start: Any?, startingAt firstStep: Int = 0) -> Any? {
        var current = start
        for index in firstStep..<steps.count {
            guard let value = current else { return nil }
            switch steps[index] {
            case .key(let key):
                if let dictionary = PredicateValues.dictionary(value) {
                    current = dictionary[key]
                } else if let object = value as? KeyValueCoding {
                    current = object.storedValue(forKey: key)
                } else if let container = value as? PredicateKeyedContainer {
                    current = container.predicateValue(forKey: key)
                } else if let collection = PredicateValues.collection(value) {
                    current = Self.fanOut(collection, key)
                } else {
                    current = PredicateValues.value(of: value, forKey: key)
                }
            case .collectionOperator(let op, let rest):
                let operands: [Any]
                if PredicateValues.isFannedOut(value), let values = value as? FannedOutValues {
                    operands = values.distinctElements
                } else {
                    operands = PredicateValues.elements(value) ?? PredicateValues.normalized(value).map { [$0] } ?? []
                }
                return op.apply(operands, rest: rest)
            }
        }
        return current
    }

    /// Each element's value for `key`; collections among them are flattened, so a path
    /// through two to-many relationships reaches every object at its end.
    private static func fanOut(_ collection: PredicateCollection, _ key: String) -> FannedOutValues {
        let elements = collection.predicateElements
        var result: [Any] = []
        result.reserveCapacity(elements.count)
        var isUnordered = collection.isUnordered
        for element in elements {
            guard let element = PredicateValues.normalized(element),
                  let value = PredicateValues.normalized(PredicateValues.value(of: element, forKey: key))
            else { continue }
            if let nested = PredicateValues.collection(value) {
                result.append(contentsOf: nested.predicateElements)
                isUnordered = isUnordered || nested.isUnordered
            } else {
                result.append(value)
            }
        }
        return FannedOutValues(predicateElements: result, isUnordered: isUnordered)
    }
}

/// `@count`, `@sum.price`, `@distinctUnionOfObjects.name` … in a key path.
///
/// Results follow `NSNumber` arithmetic as Swift code sees it: `@count` is an `Int`; `@sum` of
/// integers is an `Int`, of values with a decimal a `Decimal`, otherwise a `Double`; `@avg` is
/// a `Double`; `@min`/`@max` are the smallest/largest value itself, by ``ValueComparison``.
enum CollectionOperator: String {
    case count, sum, avg, min, max
    case unionOfObjects, distinctUnionOfObjects, unionOfArrays, distinctUnionOfArrays, distinctUnionOfSets

    /// The operator applied to `elements`, each read through `rest` first when there is one.
    func apply(_ elements: [Any], rest: CompiledKeyPath?) -> Any? {
        if self == .count && rest == nil { return elements.count }
        var values: [Any] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = PredicateValues.normalized(rest.map { $0.value(from: element) } ?? element) else { continue }
            // The rest of the path went through a to-many: its values, not the collection.
            if PredicateValues.isFannedOut(value), let fannedOut = value as? FannedOutValues {
                values.append(contentsOf: fannedOut.distinctElements)
            } else {
                values.append(value)
            }
        }
        switch self {
        case .count: return values.count
        case .sum: return PredicateFunction.sum.apply([values])
        case .avg: return PredicateFunction.average.apply([values])
        case .min: return PredicateFunction.min.apply([values])
        case .max: return PredicateFunction.max.apply([values])
        case .unionOfObjects: return values
        case .distinctUnionOfObjects: return ValueComparison.distinct(values)
        case .unionOfArrays: return values.flatMap { PredicateValues.elements($0) ?? [$0] }
        case .distinctUnionOfArrays, .distinctUnionOfSets:
            return ValueComparison.distinct(values.flatMap { PredicateValues.elements($0) ?? [$0] })
        }
    }
}
