import DataModel
import Foundation

/// A computed column of a dictionary fetch: Core Data's `NSExpressionDescription` with an
/// aggregate function over a key path (`sum:(amount)`), computed per group of
/// `propertiesToGroupBy`, or over all matching objects when there is no grouping.
public struct ExpressionDescription: Sendable, Hashable, CustomStringConvertible {
    /// Core Data's aggregate functions, with NSExpression's names.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        case sum, average, min, max, count

        /// The collection operator that computes the function over a group's objects.
        var collectionOperator: String {
            switch self {
            case .sum: "@sum"
            case .average: "@avg"
            case .min: "@min"
            case .max: "@max"
            case .count: "@count"
            }
        }
    }

    /// The key of the column in each result dictionary.
    public var name: String
    public var function: Function
    /// What the function works on, from each object (`amount`, `tweeter.followers`).
    public var keyPath: String

    public init(name: String, function: Function, keyPath: String) {
        self.name = name
        self.function = function
        self.keyPath = keyPath
    }

    /// A column from an expression as `NSExpression(format:)` writes one: a function call
    /// (`sum:(amount)`, `average:(price)`, `count:(tweets)`, also `avg:`) or a key path led by a
    /// collection operator (`@sum.amount`, `@count`).
    /// - Throws: ``ObjectPredicateError`` naming what is not such an expression.
    public init(name: String, expressionFormat format: String) throws(ObjectPredicateError) {
        let syntax: PredicateExpressionSyntax
        do {
            syntax = try PredicateExpressionSyntax(parsing: format)
        } catch {
            throw ObjectPredicateError(format: format, message: error.message, column: error.column)
        }
        switch syntax {
        case .function(let functionName, let arguments):
            let bare = functionName.hasSuffix(":") ? String(functionName.dropLast()) : functionName
            let function = bare == "avg" ? Function.average : Function(rawValue: bare)
            guard let function, arguments.count == 1, case .keyPath(let keyPath) = arguments[0] else {
                throw ObjectPredicateError(
                    format: format,
                    message: "an expression description takes sum:, average:, min:, max: or count: of one key path",
                    column: nil)
            }
            self.init(name: name, function: function, keyPath: keyPath)
        case .keyPath(let path) where path.hasPrefix("@"):
            let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
            guard let function = Function.allCases.first(where: { $0.collectionOperator == parts[0] }) else {
                throw ObjectPredicateError(
                    format: format, message: "\(parts[0]) is not @sum, @avg, @min, @max or @count", column: nil)
            }
            self.init(name: name, function: function, keyPath: parts.count > 1 ? parts[1] : "")
        default:
            throw ObjectPredicateError(
                format: format, message: "an expression description is an aggregate such as sum:(amount)", column: nil)
        }
    }

    /// The function over a group's objects, by the one key path reader.
    func value(over group: [any KeyValueCoding]) -> Any? {
        // `@sum.amount` over the group: the operator over each object's amount.
        let path = keyPath.isEmpty ? function.collectionOperator : "\(function.collectionOperator).\(keyPath)"
        return CompiledKeyPath.keyValueResult(CompiledKeyPath(keyValuePath: path).value(from: group))
    }

    public var description: String {
        "\(name) = \(function.rawValue):(\(keyPath))"
    }
}

/// A result row as sort descriptors read it.
final class DictionaryRow: KeyValueCoding {
    let values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }

    func value(forKey key: String) -> Any? { values[key] }
}

/// An object of any class that answers by key, for the sorts that take one class.
final class AnyKeyValueCoding: KeyValueCoding {
    let base: any KeyValueCoding

    init(_ base: any KeyValueCoding) {
        self.base = base
    }

    func value(forKey key: String) -> Any? { base.value(forKey: key) }
}
