import Foundation

/// Follows dotted key paths across relationships, the way Core Data's `value(forKeyPath:)` does.
enum KeyPathReader {
    private static let aggregates: Set<String> = ["@count", "@sum", "@avg", "@min", "@max"]

    static func value(of object: KeyValueCoding, at keys: [String]) -> Any? {
        // `left.@op.right` (KVC) or `left.@op` (as predicates write it): the operator applies to
        // the values `left` leads to, each read further through `right`.
        if let operatorIndex = keys.firstIndex(where: aggregates.contains) {
            let left = Array(keys[..<operatorIndex])
            let right = Array(keys[(operatorIndex + 1)...])
            let collection: Any? = left.isEmpty ? object : plainValue(of: object, at: left)
            var items = elements(of: collection) ?? (collection.map { [$0] } ?? [])
            if !right.isEmpty {
                items = items.flatMap { item -> [Any] in
                    guard let element = item as? KeyValueCoding, let value = plainValue(of: element, at: right)
                    else { return [] }
                    return elements(of: value) ?? [value]
                }
            }
            return aggregate(keys[operatorIndex], of: items)
        }
        return plainValue(of: object, at: keys)
    }

    /// A key path without operators.
    private static func plainValue(of object: KeyValueCoding, at keys: [String]) -> Any? {
        guard let key = keys.first else { return object }
        let rest = Array(keys.dropFirst())
        let value = object.value(forKey: key)
        guard !rest.isEmpty else { return value }
        if let collection = elements(of: value) {
            return flatten(collection, rest, distinct: !(value is OrderedSet<ManagedObject>))
        }
        guard let next = value as? KeyValueCoding else { return nil }
        return plainValue(of: next, at: rest)
    }

    /// The remaining key path applied to each element of a to-many: values flattened into one
    /// array, nils left out.
    private static func flatten(_ collection: [Any], _ keys: [String], distinct: Bool) -> [Any] {
        var results: [Any] = []
        var seenObjects = Set<ObjectIdentifier>()
        var seenValues = Set<AnyHashable>()
        for element in collection {
            guard let object = element as? KeyValueCoding, let value = plainValue(of: object, at: keys) else { continue }
            let items = elements(of: value) ?? [value]
            for item in items {
                if distinct {
                    if let object = item as? ManagedObject {
                        guard seenObjects.insert(ObjectIdentifier(object)).inserted else { continue }
                    } else if let hashable = item as? AnyHashable {
                        guard seenValues.insert(hashable).inserted else { continue }
                    }
                }
                results.append(item)
            }
        }
        return results
    }

    /// The elements of a to-many value (a set, ordered set or array), or `nil` for a single value.
    static func elements(of value: Any?) -> [Any]? {
        switch value {
        case let objects as OrderedSet<ManagedObject>: Array(objects)
        case let objects as Set<ManagedObject>: Array(objects)
        case let array as [Any]: array
        case let set as Set<AnyHashable>: Array(set)
        default: nil
        }
    }

    private static func aggregate(_ operation: String, of values: [Any]) -> Any? {
        if operation == "@count" { return values.count }
        let numbers = values.compactMap(AttributeValues.doubleValue)
        switch operation {
        case "@sum": return numbers.reduce(0, +)
        case "@avg": return numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count)
        case "@min": return values.min { ValueComparison.compare($0, $1) == .orderedAscending }
        case "@max": return values.max { ValueComparison.compare($0, $1) == .orderedAscending }
        default: return nil
        }
    }
}
