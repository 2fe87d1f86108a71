/// Reading values by key: what predicates, sort descriptors and key paths need of an object.
///
/// `ManagedObject` conforms. Predicate evaluation also reads dictionaries and plain values
/// directly, without this protocol.
public protocol KeyValueCoding: AnyObject {
    /// The value of a property, or `nil`. A to-many relationship yields a collection.
    func value(forKey key: String) -> Any?
    /// The value with its own Swift type, where `value(forKey:)` may give an `NSNumber`
    /// (`ManagedObject` does, as Core Data does). Predicates and sort descriptors read this.
    func storedValue(forKey key: String) -> Any?
}

extension KeyValueCoding {
    public func storedValue(forKey key: String) -> Any? { value(forKey: key) }
}
