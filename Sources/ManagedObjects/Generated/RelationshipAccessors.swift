import Foundation

/// What the one-object forms of the generated to-many accessor family forward to
/// (`addToWalks(_ value: Walk)` → `addRelatedObject(value, at: 1)`): one call with plain
/// arguments instead of a literal array and an `IndexSet` per generated body, which keeps the
/// generated code quick to typecheck. The collection forms call the public methods directly.
extension ManagedObject {
    /// Adds one object to the to-many at `index` (appending, when ordered).
    @_spi(Generated)
    public func addRelatedObject(_ object: ManagedObject, at index: Int) {
        addToRelationship(CollectionOfOne(object), at: index)
    }

    /// Removes one object from the to-many at `index`.
    @_spi(Generated)
    public func removeRelatedObject(_ object: ManagedObject, at index: Int) {
        removeFromRelationship(CollectionOfOne(object), at: index)
    }

    /// Inserts one object into the ordered to-many at `propertyIndex` so that it ends up at `position`.
    @_spi(Generated)
    public func insertRelatedObject(_ object: ManagedObject, at position: Int, propertyIndex: Int) {
        insertIntoRelationship([object], at: IndexSet(integer: position), propertyIndex: propertyIndex)
    }

    /// Removes the object at `position` of the ordered to-many at `propertyIndex`.
    @_spi(Generated)
    public func removeRelatedObject(at position: Int, propertyIndex: Int) {
        removeFromRelationship(at: IndexSet(integer: position), propertyIndex: propertyIndex)
    }

    /// Replaces the object at `position` of the ordered to-many at `propertyIndex`.
    @_spi(Generated)
    public func replaceRelatedObject(at position: Int, with object: ManagedObject, propertyIndex: Int) {
        replaceInRelationship(at: IndexSet(integer: position), with: [object], propertyIndex: propertyIndex)
    }
}
