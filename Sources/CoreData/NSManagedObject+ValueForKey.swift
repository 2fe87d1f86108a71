import ManagedObjects

extension ManagedObject {
    /// Core Data's `value(forKey:)`: a to-many as `NSSet` (ordered: `NSOrderedSet`), as code
    /// written for Core Data casts it (`as? NSOrderedSet`, and `as? Set<NSManagedObject>`, which
    /// Foundation bridges from `NSSet`); anything else as the runtime's `value(forKey:)` gives it
    /// (a subclass's override included), which this shadows in code that imports CoreData.
    public func value(forKey key: String) -> Any? {
        // Through the protocol: the runtime's method, dispatched to any override.
        let value = (self as any KeyValueCoding).value(forKey: key)
        guard let value, case .relationship(let relationship)? = entity.propertiesByName[key]?.kind,
              relationship.isToMany, !(value is NSSet), !(value is NSOrderedSet),
              let members = value as? any Sequence
        else { return value }
        let objects = elements(of: members)
        return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
    }
}

private func elements<Members: Sequence>(of members: Members) -> [Any] {
    members.map { $0 }
}
