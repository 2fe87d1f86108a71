import DataModel
import Foundation

/// A value compared by value: numbers of every type (Bool counts as 0 or 1, as `NSNumber`
/// does), strings, dates, data, UUIDs and URLs. The one typed form that predicates, sort
/// descriptors, key-value coding's collection operators, validation and the fetched-results
/// controller compare and test for equality (``ValueComparison``).
enum ScalarValue {
    case int(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)

    /// The value as a scalar, or `nil` when it is not one (or is `nil`).
    @inline(__always)
    static func from(_ value: Any?) -> ScalarValue? {
        guard let value else { return nil }
        // Opening the existential makes the common types a metadata comparison; a protocol
        // cast from `Any` costs a conformance look-up, several times the whole comparison.
        return _openExistential(value, do: scalarOfOpenedValue)
    }

    var isNumber: Bool {
        switch self {
        case .int, .double, .decimal: true
        default: false
        }
    }

    /// A number, or a date as seconds since 2001-01-01, as a `Double`.
    var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
        case .date(let value): value.timeIntervalSinceReferenceDate
        default: nil
        }
    }

    var decimalValue: Decimal? {
        switch self {
        case .int(let value): Decimal(value)
        // Decimal(_: Double) traps on an infinity or NaN.
        case .double(let value): value.isFinite ? Decimal(value) : nil
        case .decimal(let value): value
        default: nil
        }
    }

    /// A number that is whole and fits `Int64`.
    var wholeNumber: Int64? {
        switch self {
        case .int(let value):
            return value
        case .double(let value):
            return value.rounded() == value ? Int64(exactly: value) : nil
        case .decimal(let value):
            let number = NSDecimalNumber(decimal: value)
            return number.doubleValue.rounded() == number.doubleValue ? number.int64Value : nil
        default:
            return nil
        }
    }
}

/// The types compared by value, and how each becomes a ``ScalarValue``.
protocol ScalarValueConvertible {
    var scalarValue: ScalarValue { get }
}

extension Int: ScalarValueConvertible { var scalarValue: ScalarValue { .int(Int64(self)) } }
extension Int8: ScalarValueConvertible { var scalarValue: ScalarValue { .int(Int64(self)) } }
extension Int16: ScalarValueConvertible { var scalarValue: ScalarValue { .int(Int64(self)) } }
extension Int32: ScalarValueConvertible { var scalarValue: ScalarValue { .int(Int64(self)) } }
extension Int64: ScalarValueConvertible { var scalarValue: ScalarValue { .int(self) } }
extension UInt8: ScalarValueConvertible { var scalarValue: ScalarValue { .int(Int64(self)) } }
extension UInt16: ScalarValueConvertible { var scalarValue: ScalarValue { .int(Int64(self)) } }
extension UInt32: ScalarValueConvertible { var scalarValue: ScalarValue { .int(Int64(self)) } }
extension UInt: ScalarValueConvertible {
    var scalarValue: ScalarValue { Int64(exactly: self).map { .int($0) } ?? .double(Double(self)) }
}
extension UInt64: ScalarValueConvertible {
    var scalarValue: ScalarValue { Int64(exactly: self).map { .int($0) } ?? .double(Double(self)) }
}
extension Bool: ScalarValueConvertible { var scalarValue: ScalarValue { .int(self ? 1 : 0) } }
extension Double: ScalarValueConvertible { var scalarValue: ScalarValue { .double(self) } }
extension Float: ScalarValueConvertible { var scalarValue: ScalarValue { .double(Double(self)) } }
extension CGFloat: ScalarValueConvertible { var scalarValue: ScalarValue { .double(Double(self)) } }
extension Decimal: ScalarValueConvertible { var scalarValue: ScalarValue { .decimal(self) } }
extension String: ScalarValueConvertible { var scalarValue: ScalarValue { .string(self) } }
extension Substring: ScalarValueConvertible { var scalarValue: ScalarValue { .string(String(self)) } }
extension Character: ScalarValueConvertible { var scalarValue: ScalarValue { .string(String(self)) } }
extension Date: ScalarValueConvertible { var scalarValue: ScalarValue { .date(self) } }
extension Data: ScalarValueConvertible { var scalarValue: ScalarValue { .data(self) } }
extension UUID: ScalarValueConvertible { var scalarValue: ScalarValue { .uuid(self) } }
extension URL: ScalarValueConvertible { var scalarValue: ScalarValue { .url(self) } }
extension NSString: ScalarValueConvertible { var scalarValue: ScalarValue { .string(String(self)) } }
extension NSDate: ScalarValueConvertible { var scalarValue: ScalarValue { .date(self as Date) } }
extension NSNumber: ScalarValueConvertible {
    var scalarValue: ScalarValue {
        if let decimal = self as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        let double = doubleValue
        if double.rounded() == double, abs(double) < 9.2e18 { return .int(int64Value) }
        return .double(double)
    }
}

/// `ScalarValue.from(_:)` for a value whose type is known (opened from `Any`).
private func scalarOfOpenedValue<Value>(_ value: Value) -> ScalarValue? {
    if Value.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
    if Value.self == Int16.self { return .int(Int64(unsafeBitCast(value, to: Int16.self))) }
    if Value.self == Int32.self { return .int(Int64(unsafeBitCast(value, to: Int32.self))) }
    if Value.self == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
    if Value.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
    if Value.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if Value.self == Bool.self { return .int(unsafeBitCast(value, to: Bool.self) ? 1 : 0) }
    if Value.self == Date.self { return .date(unsafeBitCast(value, to: Date.self)) }
    return (value as? ScalarValueConvertible)?.scalarValue
}

/// How two strings order: the only part of comparing that differs between predicates
/// (`[c]`/`[d]` options, Unicode canonical equivalence) and sort descriptors
/// (``ObjectSortDescriptor/Comparison``, `NSString` order).
protocol StringOrdering {
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult
}

extension PredicateComparisonOptions: StringOrdering {
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult { StringMatching.compare(lhs, rhs, self) }
}

/// Ordering and equality of values, shared by predicates, sort descriptors, key-value coding's
/// collection operators, change tracking, validation and the fetched-results controller.
enum ValueComparison {
    /// How two scalars order; `nil` when they cannot be ordered (a string and a number).
    /// Numbers order by value across types (decimals exactly), dates with dates and with
    /// numbers (seconds since 2001-01-01, as a Core Data store keeps dates), strings by
    /// `strings`, UUIDs and URLs by their text, data byte by byte.
    static func compare(_ left: ScalarValue, _ right: ScalarValue, _ strings: some StringOrdering) -> ComparisonResult? {
        switch (left, right) {
        case (.int(let a), .int(let b)):
            return order(a, b)
        case (.string(let a), .string(let b)):
            return strings.compare(a, b)
        case (.date(let a), .date(let b)):
            return order(a, b)
        case (.decimal, _) where right.isNumber, (_, .decimal) where left.isNumber:
            guard let a = left.decimalValue, let b = right.decimalValue else {
                // An infinite double has no Decimal: compare as doubles.
                guard let a = left.doubleValue, let b = right.doubleValue else { return nil }
                return order(a, b)
            }
            return order(a, b)
        case (.int, .double), (.double, .int), (.double, .double),
             (.date, .int), (.date, .double), (.int, .date), (.double, .date):
            guard let a = left.doubleValue, let b = right.doubleValue else { return nil }
            return order(a, b)
        case (.uuid(let a), .uuid(let b)):
            return order(a.uuidString, b.uuidString)
        case (.url(let a), .url(let b)):
            return order(a.absoluteString, b.absoluteString)
        case (.data(let a), .data(let b)):
            if a == b { return .orderedSame }
            return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
        default:
            return nil
        }
    }

    @inline(__always)
    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    /// How two values order; `nil` when either is not a scalar or they cannot be ordered.
    static func compare(_ left: Any?, _ right: Any?, _ strings: some StringOrdering) -> ComparisonResult? {
        guard let a = ScalarValue.from(left) ?? ScalarValue.from(PredicateValues.normalized(left)),
              let b = ScalarValue.from(right) ?? ScalarValue.from(PredicateValues.normalized(right)) else { return nil }
        return compare(a, b, strings)
    }

    /// Whether two values are the same: both `nil` (or `NSNull`); scalars by value across
    /// types (as `NSNumber.isEqual(_:)` does: `1`, `1.0` and `true` are equal); stored objects
    /// by object ID (an object equals its own ID); other objects by identity; other values by
    /// `Hashable` equality; collections element by element.
    static func equal(_ left: Any?, _ right: Any?, _ options: PredicateComparisonOptions = []) -> Bool {
        let left = PredicateValues.normalized(left)
        let right = PredicateValues.normalized(right)
        guard let left, let right else { return left == nil && right == nil }
        if let a = ScalarValue.from(left) {
            guard let b = ScalarValue.from(right) else { return false }
            return compare(a, b, options) == .orderedSame
        }
        let leftID = left as? ObjectIdentifying
        let rightID = right as? ObjectIdentifying
        if leftID != nil || rightID != nil {
            let a = leftID?.objectIDValue ?? (left as? AnyHashable)
            let b = rightID?.objectIDValue ?? (right as? AnyHashable)
            return a != nil && a == b
        }
        if type(of: left) is AnyClass && type(of: right) is AnyClass {
            return (left as AnyObject) === (right as AnyObject)
        }
        if let a = left as? AnyHashable, let b = right as? AnyHashable, a == b { return true }
        if let a = left as? PredicateKeyedContainer, let b = right as? PredicateKeyedContainer {
            let keys = a.predicateKeys
            return Set(keys) == Set(b.predicateKeys)
                && keys.allSatisfy { equal(a.predicateValue(forKey: $0), b.predicateValue(forKey: $0), options) }
        }
        if let a = PredicateValues.elements(left), let b = PredicateValues.elements(right) {
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        }
        return false
    }

    /// `values` without repeats by ``equal(_:_:_:)``, first occurrences kept in order.
    /// Values are bucketed by a key that equal values share, so this is linear, not quadratic.
    static func distinct(_ values: [Any]) -> [Any] {
        var result: [Any] = []
        var buckets: [AnyHashable: [Int]] = [:]
        var unbucketed: [Int] = []
        for value in values {
            let key = bucketKey(value)
            let candidates = key.map { buckets[$0] ?? [] } ?? unbucketed
            if candidates.contains(where: { equal(result[$0], value) }) { continue }
            if let key { buckets[key, default: []].append(result.count) } else { unbucketed.append(result.count) }
            result.append(value)
        }
        return result
    }

    /// A key equal values share (numbers and dates by their `Double` value, so `1`, `1.0` and
    /// `true` meet), or `nil` for values only ``equal(_:_:_:)`` can tell apart.
    private static func bucketKey(_ value: Any) -> AnyHashable? {
        if let scalar = ScalarValue.from(value) {
            switch scalar {
            case .string(let text): return text
            case .uuid(let uuid): return uuid
            case .url(let url): return url.absoluteString
            case .data(let data): return data
            case .int, .double, .decimal, .date: return scalar.doubleValue
            }
        }
        if let identifying = value as? ObjectIdentifying { return identifying.objectIDValue }
        if type(of: value) is AnyClass { return ObjectIdentifier(value as AnyObject) }
        return nil
    }
}
