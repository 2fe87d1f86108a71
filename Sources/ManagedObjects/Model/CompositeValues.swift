import Foundation

/// A composite attribute's value as Core Data gives it (`value(forKey:)`): a dictionary of
/// element name to value, a nested composite as a nested dictionary. The one place that takes
/// such a value apart into its stored elements and puts it back together.
package enum CompositeValues {
    /// The dictionary of elements read from a store (path below the attribute, value); `nil`
    /// when every element is `nil`, as for a composite never set. A nested composite whose
    /// elements are all `nil` is left out.
    package static func dictionary(_ elements: [(path: [String], value: Any?)]) -> [String: Any]? {
        var result: [String: Any] = [:]
        var nested: [String: [(path: [String], value: Any?)]] = [:]
        var nestedOrder: [String] = []
        for (path, value) in elements {
            guard let first = path.first else { continue }
            if path.count == 1 {
                if let value { result[first] = value }
            } else {
                if nested[first] == nil { nestedOrder.append(first) }
                nested[first, default: []].append((Array(path.dropFirst()), value))
            }
        }
        for name in nestedOrder {
            if let inner = dictionary(nested[name]!) { result[name] = inner }
        }
        return result.isEmpty ? nil : result
    }

    /// The element at `path` of a composite value (`nil` and `NSNull` give `nil`). A value that
    /// is not a dictionary of element names throws, naming the attribute.
    package static func element(at path: [String], of value: Any?, attribute: @autoclosure () -> String) throws -> Any? {
        var current = value
        for name in path {
            guard let container = current, !(container is NSNull) else { return nil }
            guard let dictionary = container as? [String: Any] else {
                throw ManagedObjectError(
                    .validation,
                    "a composite attribute's value is a dictionary of element names, not \(type(of: container))",
                    key: attribute(), value: "\(container)")
            }
            current = dictionary[name]
        }
        if current is NSNull { return nil }
        return current
    }
}
