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

// MARK: Collections and keyed containers

/// Collections predicates look into: `IN`, `CONTAINS`, `ANY`/`ALL`/`NONE`, collection
/// operators, and key paths through to-many relationships.
protocol PredicateCollection {
    var predicateElements: [Any] { get }
    /// Whether the collection has no order (a set), so that key-value coding through it
    /// yields each value once, as `NSSet.value(forKey:)` does.
    var isUnordered: Bool { get }
}

extension PredicateCollection {
    var isUnordered: Bool { false }
}

extension Array: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension ArraySlice: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension ContiguousArray: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension Set: PredicateCollection {
    var predicateElements: [Any] { map { $0 } }
    var isUnordered: Bool { true }
}
extension OrderedSet: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension Dictionary: PredicateCollection { var predicateElements: [Any] { values.map { $0 } } }
extension NSArray: PredicateCollection { var predicateElements: [Any] { map { $0 } } }
extension NSSet: PredicateCollection {
    var predicateElements: [Any] { map { $0 } }
    var isUnordered: Bool { true }
}
extension NSOrderedSet: PredicateCollection { var predicateElements: [Any] { map { $0 } } }

/// The values a key path reaches through a to-many relationship (`tweets.text`). A
/// comparison without a modifier treats them as `ANY` would, as a Core Data store does.
struct FannedOutValues: PredicateCollection {
    var predicateElements: [Any]
    /// Whether the path went through an unordered collection (a set).
    var isUnordered: Bool

    /// The values, each once when the path went through a set (as `NSSet.value(forKey:)`).
    var distinctElements: [Any] {
        isUnordered ? ValueComparison.distinct(predicateElements) : predicateElements
    }
}

/// Values read by key without `KeyValueCoding`: dictionaries.
protocol PredicateKeyedContainer {
    var predicateKeys: [String] { get }
    func predicateValue(forKey key: String) -> Any?
}

extension Dictionary: PredicateKeyedContainer where Key == String {
    var predicateKeys: [String] { Array(keys) }
    func predicateValue(forKey key: String) -> Any? { self[key].flatMap { $0 } }
}

extension NSDictionary: PredicateKeyedContainer {
    var predicateKeys: [String] { allKeys.compactMap { PredicateValues.string($0) } }
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
        // Only an `Optional` (`nil` bridges to `NSNull`), an object or an `AnyHashable` can be
        // `NSNull`: asked of another value type, `is` would bridge it to Foundation first (an
        // array to an `NSArray`, member by member).
        let valueType = type(of: value)
        guard valueType is OptionalValue.Type || valueType is AnyClass || valueType == AnyHashable.self else { return value }
        if let optional = value as? OptionalValue { return normalized(optional.wrappedAny) }
        if value is NSNull { return nil }
        return value
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
        collection(value)?.predicateElements
    }

    /// The value as a collection predicates look into, or `nil` (strings and objects that
    /// answer by key are single values).
    static func collection(_ value: Any?) -> PredicateCollection? {
        guard let value = normalized(value) else { return nil }
        if value is String || value is KeyValueCoding { return nil }
        return value as? PredicateCollection
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
        if let object = object as? KeyValueCoding { return object.storedValue(forKey: key) }
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
