/// Reading values by key: what predicates, sort descriptors and key paths need of an object.
///
/// `ManagedObject` conforms. Predicate evaluation also reads dictionaries and plain values
/// directly, without this protocol.
public protocol KeyValueCoding: AnyObject {
    /// The value of a property, or `nil`. A to-many relationship yields a collection.
    func value(forKey key: String) -> Any?
}
