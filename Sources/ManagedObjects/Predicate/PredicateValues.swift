import Foundation
import OrderedCollections

/// Something that stands for a stored object in comparisons: two values that adopt it are
/// equal when their `objectIDValue`s are, so an object compares equal to its own object ID
/// (`tweeter == %@` with either the user or its ID), as in a Core Data fetch.
///
/// `ManagedObject` adopts it with its `objectID`, `ManagedObjectID` with itself.
public protocol ObjectIdentifying {
    /// The identity of the stored object this value stands for.
    var objectIDValue: AnyHashable { get }
}

// MARK: Scalars

/// A value predicates compare by value: numbers of every type (Bool counts as 0 or 1, as
/// `NSNumber` does), strings, dates, data, UUIDs and URLs.
enum PredicateScalar {
    case int(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)

    var isNumber: Bool {
        switch self {
        case .int, .double, .decimal: true
        default: false
        }
    }

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
}

/// The types predicates compare by value (`<`, `==`, `BETWEEN`, the string operators);
/// values of other types compare by identity or `Hashable` equality.
protocol PredicateScalarConvertible {
    var predicateScalar: PredicateScalar { get }
}

extension Int: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(Int64(self)) } }
extension Int8: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(Int64(self)) } }
extension Int16: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(Int64(self)) } }
extension Int32: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(Int64(self)) } }
extension Int64: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(self) } }
extension UInt8: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(Int64(self)) } }
extension UInt16: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(Int64(self)) } }
extension UInt32: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(Int64(self)) } }
extension UInt: PredicateScalarConvertible {
    var predicateScalar: PredicateScalar { Int64(exactly: self).map { .int($0) } ?? .double(Double(self)) }
}
extension UInt64: PredicateScalarConvertible {
    var predicateScalar: PredicateScalar { Int64(exactly: self).map { .int($0) } ?? .double(Double(self)) }
}
extension Bool: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .int(self ? 1 : 0) } }
extension Double: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .double(self) } }
extension Float: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .double(Double(self)) } }
extension CGFloat: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .double(Double(self)) } }
extension Decimal: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .decimal(self) } }
extension String: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .string(self) } }
extension Substring: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .string(String(self)) } }
extension Character: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .string(String(self)) } }
extension Date: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .date(self) } }
extension Data: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .data(self) } }
extension UUID: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .uuid(self) } }
extension URL: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .url(self) } }
extension NSString: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .string(String(self)) } }
extension NSDate: PredicateScalarConvertible { var predicateScalar: PredicateScalar { .date(self as Date) } }
extension NSNumber: PredicateScalarConvertible {
    var predicateScalar: PredicateScalar {
        if let decimal = self as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        let double = doubleValue
        if double.rounded() == double, abs(double) < 9.2e18 { return .int(int64Value) }
        return .double(double)
    }
}

// MARK: Collections and keyed containers

/// Collections predicates look into: `IN`, `CONTAINS`, `ANY`/`ALL`/`NONE`, collection
/// operators, and key paths through to-many relationships.
protocol PredicateCollection {
    var predicateElements: [Any] { get }
}

extension Array: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension ArraySlice: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension ContiguousArray: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension Set: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension OrderedSet: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension Dictionary: PredicateCollection { var predicateElements: [Any] { values.map { $0 } } }
extension NSArray: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension NSSet: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension NSOrderedSet: PredicateCollection { var predicateElements: [Any] { map { $0 } } }

/// The values a key path reaches through a to-many relationship (`tweets.text`). A
/// comparison without a modifier treats them as `ANY` would, as a Core Data store does.
struct FannedOutValues: PredicateCollection {
    var predicateElements: [Any]
}

/// Values read by key without `KeyValueCoding`: dictionaries.
protocol PredicateKeyedContainer {
    func predicateValue(forKey key: String) -> Any?
}

extension Dictionary: PredicateKeyedContainer where Key == String {
    func predicateValue(forKey key: String) -> Any? { self[key].flatMap { $0 } }
}

extension NSDictionary: PredicateKeyedContainer {
    func predicateValue(forKey key: String) -> Any? { object(forKey: key) }
}

/// Lets a value that is an `Optional` inside an `Any` be unwrapped.
private protocol OptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? { self.flatMap { $0 } }
}

enum PredicateValues {
    /// `nil` for a missing value, `NSNull` or an `Optional` holding nothing; otherwise the value
    /// with any `Optional` layers removed.
    @inline(__always)
    static func normalized(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if _openExistential(value, do: isPlainValue) { return value }
        if let optional = value as? OptionalValue { return normalized(optional.wrappedAny) }
        if value is NSNull { return nil }
        return value
    }

    /// The value as a scalar, or `nil` when it is not one.
    @inline(__always)
    static func scalar(_ value: Any?) -> PredicateScalar? {
        guard let value else { return nil }
        // Opening the existential makes the common types a metadata comparison; a protocol
        // cast from `Any` costs a conformance look-up, several times the whole comparison.
        return _openExistential(value, do: scalarOfOpenedValue)
    }

    /// The value as `[String: Any]`, found without a dynamic cast.
    @inline(__always)
    static func dictionary(_ value: Any) -> [String: Any]? {
        _openExistential(value, do: dictionaryOfOpenedValue)
    }

    /// Whether a key path's value is the values of a to-many path (see `FannedOutValues`).
    @inline(__always)
    static func isFannedOut(_ value: Any?) -> Bool {
        guard let value else { return false }
        return _openExistential(value, do: isFannedOutValues)
    }


    static func elements(_ value: Any?) -> [Any]? {
        guard let value = normalized(value) else { return nil }
        if value is String || value is KeyValueCoding { return nil }
        return (value as? PredicateCollection)?.predicateElements
    }

    /// The value as a string (`String`, `Substring`, `NSString`), or `nil`.
    static func string(_ value: Any?) -> String? {
        guard let value else { return nil }
        if let string = _openExistential(value, do: stringOfOpenedValue) { return string }
        if let string = value as? String { return string }
        if let substring = value as? Substring { return String(substring) }
        if let string = normalized(value) as? NSString { return String(string) }
        return nil
    }

    /// The value of `key` on `object`, the way key-value coding answers it.
    static func value(of object: Any, forKey key: String) -> Any? {
        if let object = object as? KeyValueCoding { return object.value(forKey: key) }
        if let container = object as? PredicateKeyedContainer { return container.predicateValue(forKey: key) }
        switch key {
        case "self": return object
        case "description": return String(describing: object)
        case "length":
            if let string = string(object) { return string.utf16.count }
        case "count":
            if let elements = elements(object) { return elements.count }
        default: break
        }
        // Plain Swift values (structs, tuples with labels) answer by their stored properties.
        return Mirror(reflecting: object).children.first { $0.label == key }?.value
    }

    // MARK: Comparing

    static func compare(_ left: PredicateScalar, _ right: PredicateScalar, _ options: PredicateComparisonOptions) -> ComparisonResult? {
        switch (left, right) {
        case (.int(let a), .int(let b)):
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        case (.string(let a), .string(let b)):
            return StringMatching.compare(a, b, options)
        case (.date(let a), .date(let b)):
            return a.compare(b)
        case (.decimal, _) where right.isNumber, (_, .decimal) where left.isNumber:
            guard let a = left.decimalValue, let b = right.decimalValue else {
                // An infinite double has no Decimal: compare as doubles.
                guard let a = left.doubleValue, let b = right.doubleValue else { return nil }
                return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
            }
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        case (.int, .double), (.double, .int), (.double, .double),
             // A date against a number: the number is seconds since 2001-01-01, as a Core Data
             // store keeps dates.
             (.date, .int), (.date, .double), (.int, .date), (.double, .date):
            guard let a = left.doubleValue, let b = right.doubleValue else { return nil }
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        case (.uuid(let a), .uuid(let b)):
            return compareStrings(a.uuidString, b.uuidString)
        case (.url(let a), .url(let b)):
            return compareStrings(a.absoluteString, b.absoluteString)
        case (.data(let a), .data(let b)):
            if a == b { return .orderedSame }
            return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
        default:
            return nil
        }
    }

    private static func compareStrings(_ a: String, _ b: String) -> ComparisonResult {
        a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    /// Ordering of two values; `nil` when they cannot be ordered (different kinds, `nil`).
    static func compare(_ left: Any?, _ right: Any?, _ options: PredicateComparisonOptions) -> ComparisonResult? {
        guard let a = scalar(left) ?? scalar(normalized(left)),
              let b = scalar(right) ?? scalar(normalized(right)) else { return nil }
        return compare(a, b, options)
    }

    /// Equality as `==` decides it: scalars by value across types, stored objects by object
    /// ID, other objects by identity, other values by `Hashable` equality, collections
    /// element by element.
    static func equal(_ left: Any?, _ right: Any?, _ options: PredicateComparisonOptions) -> Bool {
        let left = normalized(left)
        let right = normalized(right)
        guard let left, let right else { return left == nil && right == nil }
        if let a = scalar(left) {
            guard let b = scalar(right) else { return false }
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
        if let a = elements(left), let b = elements(right) {
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        }
        return false
    }
}

/// `PredicateValues.scalar(_:)` for a value whose type is known (opened from `Any`).
private func scalarOfOpenedValue<Value>(_ value: Value) -> PredicateScalar? {
    if Value.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
    if Value.self == Int16.self { return .int(Int64(unsafeBitCast(value, to: Int16.self))) }
    if Value.self == Int32.self { return .int(Int64(unsafeBitCast(value, to: Int32.self))) }
    if Value.self == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
    if Value.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
    if Value.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if Value.self == Bool.self { return .int(unsafeBitCast(value, to: Bool.self) ? 1 : 0) }
    if Value.self == Date.self { return .date(unsafeBitCast(value, to: Date.self)) }
    return (value as? PredicateScalarConvertible)?.predicateScalar
}

private func isFannedOutValues<Value>(_: Value) -> Bool { Value.self == FannedOutValues.self }

private func stringOfOpenedValue<Value>(_ value: Value) -> String? {
    Value.self == String.self ? unsafeBitCast(value, to: String.self) : nil
}

/// Whether a value of this type is certainly neither `nil`, `NSNull` nor an `Optional`.
private func isPlainValue<Value>(_: Value) -> Bool {
    Value.self == String.self || Value.self == Int.self || Value.self == Double.self
        || Value.self == Int16.self || Value.self == Int32.self || Value.self == Int64.self
        || Value.self == Bool.self || Value.self == Date.self
}

private func dictionaryOfOpenedValue<Value>(_ value: Value) -> [String: Any]? {
    Value.self == [String: Any].self ? unsafeBitCast(value, to: [String: Any].self) : nil
}
