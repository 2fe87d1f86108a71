import Foundation

/// What generated to-manys typed as Xcode types them (`NSSet?`, `NSOrderedSet?`, the option
/// `toManyCollections: foundation`) forward to through the door: the same relationship storage
/// as the typed `Set`/`OrderedSet` accessors, seen through Foundation's collections.
extension GeneratedObjectAccess {
    /// The unordered to-many at `index` as Xcode's `NSSet?` (never `nil`, as Core Data's).
    public func nsSet(at index: Int) -> NSSet? {
        NSSet(array: Array(object.resolvedToMany(at: index)))
    }

    /// The ordered to-many at `index` as Xcode's `NSOrderedSet?` (never `nil`), in order.
    public func nsOrderedSet(at index: Int) -> NSOrderedSet? {
        NSOrderedSet(array: Array(object.resolvedToMany(at: index)))
    }

    /// Replaces the to-many at `index` with the objects of `collection` (`nil`: none), in its
    /// order; inverses follow.
    public func setCollection<Collection: Sequence>(_ collection: Collection?, at index: Int) {
        let relationship = object.relationshipDescription(at: index)
        let objects = (collection.map { Array($0) } ?? []).map { managedObject($0, for: relationship) }
        object.setRelatedObjects(OrderedSet(objects), relationship)
    }

    /// Adds the objects of `collection` to the to-many at `index` (appending, when ordered).
    public func addCollection<Collection: Sequence>(_ collection: Collection, at index: Int) {
        let relationship = object.relationshipDescription(at: index)
        object.addToRelationship(collection.map { managedObject($0, for: relationship) }, at: index)
    }

    /// Removes the objects of `collection` from the to-many at `index`.
    public func removeCollection<Collection: Sequence>(_ collection: Collection, at index: Int) {
        let relationship = object.relationshipDescription(at: index)
        object.removeFromRelationship(collection.map { managedObject($0, for: relationship) }, at: index)
    }

    /// `insertInto…(_:at: NSIndexSet)`, `removeFrom…(at: NSIndexSet)`, `replace…(at:with:)`.
    public func insertObjects(_ objects: [ManagedObject], at indexes: NSIndexSet, propertyIndex: Int) {
        object.insertIntoRelationship(objects, at: indexSet(from: indexes), propertyIndex: propertyIndex)
    }

    public func removeObjects(at indexes: NSIndexSet, propertyIndex: Int) {
        object.removeFromRelationship(at: indexSet(from: indexes), propertyIndex: propertyIndex)
    }

    public func replaceObjects(at indexes: NSIndexSet, with objects: [ManagedObject], propertyIndex: Int) {
        object.replaceInRelationship(at: indexSet(from: indexes), with: objects, propertyIndex: propertyIndex)
    }

    /// A member of a Foundation collection given for a relationship: it must be a managed
    /// object (Core Data raises for anything else, as this traps naming the relationship).
    private func managedObject(_ element: Any, for relationship: RelationshipDescription) -> ManagedObject {
        guard let related = element as? ManagedObject else {
            preconditionFailure("\(object.entity.name).\(relationship.name) was given a \(type(of: element)), not a managed object")
        }
        return related
    }
}

/// The indexes of a Foundation `NSIndexSet` (Linux has no bridging cast between the two).
private func indexSet(from indexes: NSIndexSet) -> IndexSet {
    var result = IndexSet()
    indexes.enumerate { index, _ in result.insert(index) }
    return result
}
