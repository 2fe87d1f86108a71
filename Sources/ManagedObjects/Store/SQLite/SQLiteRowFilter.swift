import DataModel
import Foundation
import GRDB

/// A SQL condition that narrows the rows a fetch reads before the predicate is evaluated over
/// them in memory: the first step of predicate → SQL translation.
///
/// The condition keeps **every row the predicate can match** (possibly more), so evaluating
/// the whole predicate over what it keeps gives the same answer as over every row. What it
/// translates: comparisons (`<`, `<=`, `>`, `>=`, `==`, `!=`, no options, no modifier) of an
/// Integer, Double, Boolean or Date attribute of the fetched entity with a number, Boolean or
/// date constant (a literal or a format argument, always bound as a parameter), `== nil` and
/// `!= nil`, and AND / OR of those. A comparison also keeps rows whose column is NULL (where
/// SQL and the predicate's rules for nil could differ), and anything else (NOT, strings,
/// Float and Decimal, key paths through relationships, functions, variables, blocks) keeps
/// every row: an AND drops such a part, an OR with such a part is not translated.
enum SQLiteRowFilter {
    struct Condition {
        var sql: String
        var arguments: [DatabaseValue]
    }

    static func condition(for predicate: ObjectPredicate, storage: [SQLiteSchema.Storage], entity: EntityDescription) -> Condition? {
        switch predicate.source {
        case .syntax(let syntax, let arguments):
            return condition(for: syntax, arguments: arguments, storage: storage, entity: entity)
        case .and(let operands):
            return all(operands.compactMap { condition(for: $0, storage: storage, entity: entity) })
        case .or(let operands):
            return any(operands.map { condition(for: $0, storage: storage, entity: entity) })
        case .not, .block:
            return nil
        }
    }

    private static func condition(
        for syntax: PredicateSyntax, arguments: [Any?], storage: [SQLiteSchema.Storage], entity: EntityDescription
    ) -> Condition? {
        switch syntax {
        case .value(let value):
            return value ? nil : Condition(sql: "0", arguments: [])
        case .and(let operands):
            return all(operands.compactMap { condition(for: $0, arguments: arguments, storage: storage, entity: entity) })
        case .or(let operands):
            return any(operands.map { condition(for: $0, arguments: arguments, storage: storage, entity: entity) })
        case .not:
            return nil
        case .comparison(let comparison):
            return condition(for: comparison, arguments: arguments, storage: storage, entity: entity)
        }
    }

    private static func condition(
        for comparison: PredicateComparison, arguments: [Any?], storage: [SQLiteSchema.Storage], entity: EntityDescription
    ) -> Condition? {
        guard comparison.modifier == .direct, comparison.options.isEmpty else { return nil }
        let operators: [PredicateOperator: (sql: String, flipped: String)] = [
            .lessThan: ("<", ">"), .lessThanOrEqualTo: ("<=", ">="), .greaterThan: (">", "<"),
            .greaterThanOrEqualTo: (">=", "<="), .equalTo: ("=", "="), .notEqualTo: ("<>", "<>"),
        ]
        guard let sqlOperator = operators[comparison.operatorType] else { return nil }
        /// A key path written in the format or given as a `%K` argument.
        func keyPathRead(by expression: PredicateExpressionSyntax) -> String? {
            switch expression {
            case .keyPath(let path): path
            case .argument(let index, .keyPath) where arguments.indices.contains(index): arguments[index] as? String
            default: nil
            }
        }
        let keyPath: String
        let constant: PredicateExpressionSyntax
        let op: String
        if let path = keyPathRead(by: comparison.left), keyPathRead(by: comparison.right) == nil {
            (keyPath, constant, op) = (path, comparison.right, sqlOperator.sql)
        } else if let path = keyPathRead(by: comparison.right), keyPathRead(by: comparison.left) == nil {
            (keyPath, constant, op) = (path, comparison.left, sqlOperator.flipped)
        } else {
            return nil
        }
        guard let property = entity.propertiesByName[keyPath],
              case .attribute(let column, let type) = storage[property.index] else { return nil }
        let value: Any?
        switch constant {
        case .literal(.null): value = nil
        case .literal(.bool(let flag)): value = flag
        case .literal(.integer(let integer)): value = integer
        case .literal(.double(let double)): value = double
        case .argument(let index, let kind) where kind != .keyPath && arguments.indices.contains(index): value = arguments[index]
        default: return nil
        }
        guard let value, !(value is NSNull) else {
            switch comparison.operatorType {
            case .equalTo: return Condition(sql: "\(column) IS NULL", arguments: [])
            case .notEqualTo: return Condition(sql: "\(column) IS NOT NULL", arguments: [])
            default: return nil
            }
        }
        guard let bound = databaseValue(value, comparedWith: type) else { return nil }
        return Condition(sql: "(\(column) IS NULL OR \(column) \(op) ?)", arguments: [bound])
    }

    /// The constant as the column stores it, when the two compare alike in SQL and in memory.
    private static func databaseValue(_ value: Any, comparedWith type: AttributeType) -> DatabaseValue? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .boolean:
            if let flag = value as? Bool { return (flag ? 1 : 0).databaseValue }
            switch ScalarValue.from(value) {
            case .int(let integer)?: return integer.databaseValue
            case .double(let double)? where double.isFinite: return double.databaseValue
            default: return nil
            }
        case .date:
            guard let date = value as? Date else { return nil }
            return date.timeIntervalSinceReferenceDate.databaseValue
        default:
            return nil
        }
    }

    /// The conjunction of the translated parts (the others keep every row anyway).
    private static func all(_ conditions: [Condition]) -> Condition? {
        guard !conditions.isEmpty else { return nil }
        if conditions.count == 1 { return conditions[0] }
        return Condition(sql: "(" + conditions.map(\.sql).joined(separator: " AND ") + ")", arguments: conditions.flatMap(\.arguments))
    }

    /// The disjunction, when every part is translated (a part that keeps every row makes the
    /// whole keep every row).
    private static func any(_ conditions: [Condition?]) -> Condition? {
        let translated = conditions.compactMap { $0 }
        guard !translated.isEmpty, translated.count == conditions.count else { return nil }
        if translated.count == 1 { return translated[0] }
        return Condition(sql: "(" + translated.map(\.sql).joined(separator: " OR ") + ")", arguments: translated.flatMap(\.arguments))
    }
}
