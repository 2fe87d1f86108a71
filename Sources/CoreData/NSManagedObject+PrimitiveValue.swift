@_spi(Generated) import ManagedObjects

extension ManagedObject {
    /// Core Data's `primitiveValue(forKey:)`: a to-many as `NSSet` (ordered: `NSOrderedSet`),
    /// as code written for Core Data casts it (`as? NSSet`); anything else as the runtime's
    /// `primitiveValue(forKey:)` gives it, which this shadows in code that imports CoreData.
    public func primitiveValue(forKey key: String) -> Any? {
        guard case .relationship(let relationship)? = entity.propertiesByName[key]?.kind, relationship.isToMany else {
            return storedValue(forKey: key)
        }
        return relationship.isOrdered ? _managedGen.nsOrderedSet(at: relationship.index) : _managedGen.nsSet(at: relationship.index)
    }
}
