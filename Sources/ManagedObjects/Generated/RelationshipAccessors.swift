import Foundation

/// What generated relationship properties and to-many accessor families (`addToWalks(_:)`,
/// `insertIntoWalks(_:at:)`, …) call through the door, each in one call with plain arguments:
/// the one-object forms take the object instead of a literal array and an `IndexSet` per
/// generated body, which keeps generated code quick to typecheck.
extension GeneratedObjectAccess {
    /// The to-one at `index`, typed.
    public func toOne<Destination: ManagedObject>(at index: Int) -> Destination? { object.toOneRelationship(at: index) }

    /// Sets the to-one at `index`; the inverse follows.
    public func setToOne(_ destination: ManagedObject?, at index: Int) { object.setToOneRelationship(destination, at: index) }

    /// The unordered to-many at `index`, typed.
    public func toMany<Destination: ManagedObject>(at index: Int) -> Set<Destination> { object.relationship(at: index) }

    /// Replaces the unordered to-many at `index`; inverses follow.
    public func setToMany<Destination: ManagedObject>(_ objects: Set<Destination>, at index: Int) {
        object.setRelationship(objects, at: index)
    }

    /// The ordered to-many at `index`, typed.
    public func ordered<Destination: ManagedObject>(at index: Int) -> OrderedSet<Destination> {
        object.orderedRelationship(at: index)
    }

    /// Replaces the ordered to-many at `index`, in the given order; inverses follow.
    public func setOrdered<Destination: ManagedObject>(_ objects: OrderedSet<Destination>, at index: Int) {
        object.setOrderedRelationship(objects, at: index)
    }

    /// Adds one object to the to-many at `index` (appending, when ordered).
    public func addObject(_ related: ManagedObject, at index: Int) {
        object.addToRelationship(CollectionOfOne(related), at: index)
    }

    /// Removes one object from the to-many at `index`.
    public func removeObject(_ related: ManagedObject, at index: Int) {
        object.removeFromRelationship(CollectionOfOne(related), at: index)
    }

    /// Adds objects to the to-many at `index` (appending, when ordered).
    public func addObjects<Objects: Sequence>(_ objects: Objects, at index: Int) where Objects.Element: ManagedObject {
        object.addToRelationship(objects, at: index)
    }

    /// Removes objects from the to-many at `index`.
    public func removeObjects<Objects: Sequence>(_ objects: Objects, at index: Int) where Objects.Element: ManagedObject {
        object.removeFromRelationship(objects, at: index)
    }

    /// Inserts one object into the ordered to-many at `propertyIndex` so that it ends up at `position`.
    public func insertObject(_ related: ManagedObject, at position: Int, propertyIndex: Int) {
        object.insertIntoRelationship([related], at: IndexSet(integer: position), propertyIndex: propertyIndex)
    }

    /// Inserts objects into the ordered to-many at `propertyIndex` so that they end up at `indexes`.
    public func insertObjects<Destination: ManagedObject>(_ objects: [Destination], at indexes: IndexSet, propertyIndex: Int) {
        object.insertIntoRelationship(objects, at: indexes, propertyIndex: propertyIndex)
    }

    /// Removes the object at `position` of the ordered to-many at `propertyIndex`.
    public func removeObject(at position: Int, propertyIndex: Int) {
        object.removeFromRelationship(at: IndexSet(integer: position), propertyIndex: propertyIndex)
    }

    /// Removes the objects at `indexes` of the ordered to-many at `propertyIndex`.
    public func removeObjects(at indexes: IndexSet, propertyIndex: Int) {
        object.removeFromRelationship(at: indexes, propertyIndex: propertyIndex)
    }

    /// Replaces the object at `position` of the ordered to-many at `propertyIndex`.
    public func replaceObject(at position: Int, with related: ManagedObject, propertyIndex: Int) {
        object.replaceInRelationship(at: IndexSet(integer: position), with: [related], propertyIndex: propertyIndex)
    }

    /// Replaces the objects at `indexes` of the ordered to-many at `propertyIndex`.
    public func replaceObjects<Destination: ManagedObject>(at indexes: IndexSet, with objects: [Destination], propertyIndex: Int) {
        object.replaceInRelationship(at: indexes, with: objects, propertyIndex: propertyIndex)
    }
}
