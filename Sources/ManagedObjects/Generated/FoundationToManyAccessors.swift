import Foundation

/// What generated to-manys typed as Xcode types them (`NSSet?`, `NSOrderedSet?`, the option
/// `toManyCollections: foundation`) forward to: the same relationship storage as the typed
/// `Set`/`OrderedSet` accessors, seen through Foundation's collections.
extension ManagedObject {
    /// The unordered to-many at `index` as Xcode's `NSSet?` (never `nil`, as Core Data's).
    @_spi(Generated)
    public func toManySet(at index: Int) -> NSSet? {
        NSSet(array: Array(resolvedToMany(at: index)))
    }

    /// The ordered to-many at `index` as Xcode's `NSOrderedSet?` (never `nil`), in order.
    @_spi(Generated)
    public func toManyOrderedSet(at index: Int) -> NSOrderedSet? {
        NSOrderedSet(array: Array(resolvedToMany(at: index)))
    }

    /// Replaces the to-many at `index` with the objects of `collection` (`nil`: none), in its
    /// order; inverses follow.
    @_spi(Generated)
    public func setToManyCollection<Collection: Sequence>(_ collection: Collection?, at index: Int) {
        let relationship = relationshipDescription(at: index)
        let objects = (collection.map { Array($0) } ?? []).map { managedObject($0, for: relationship) }
        setRelatedObjects(OrderedSet(objects), relationship)
    }

    /// Adds the objects of `collection` to the to-many at `index` (appending, when ordered).
    @_spi(Generated)
    public func addToManyCollection<Collection: Sequence>(_ collection: Collection, at index: Int) {
        let relationship = relationshipDescription(at: index)
        addToRelationship(collection.map { managedObject($0, for: relationship) }, at: index)
    }

    /// Removes the objects of `collection` from the to-many at `index`.
    @_spi(Generated)
    public func removeToManyCollection<Collection: Sequence>(_ collection: Collection, at index: Int) {
        let relationship = relationshipDescription(at: index)
        removeFromRelationship(collection.map { managedObject($0, for: relationship) }, at: index)
    }

    /// `insertInto…(_:at: NSIndexSet)`, `removeFrom…(at: NSIndexSet)`, `replace…(at:with:)`.
    @_spi(Generated)
    public func insertIntoRelationship(_ objects: [ManagedObject], at indexes: NSIndexSet, propertyIndex: Int) {
        insertIntoRelationship(objects, at: indexSet(from: indexes), propertyIndex: propertyIndex)
    }

    @_spi(Generated)
    public func removeFromRelationship(at indexes: NSIndexSet, propertyIndex: Int) {
        removeFromRelationship(at: indexSet(from: indexes), propertyIndex: propertyIndex)
    }

    @_spi(Generated)
    public func replaceInRelationship(at indexes: NSIndexSet, with objects: [ManagedObject], propertyIndex: Int) {
        replaceInRelationship(at: indexSet(from: indexes), with: objects, propertyIndex: propertyIndex)
    }

    /// A member of a Foundation collection given for a relationship: it must be a managed
    /// object (Core Data raises for anything else, as this traps naming the relationship).
    private func managedObject(_ element: Any, for relationship: RelationshipDescription) -> ManagedObject {
        guard let object = element as? ManagedObject else {
            preconditionFailure("\(entity.name).\(relationship.name) was given a \(type(of: element)), not a managed object")
        }
        return object
    }
}

/// The indexes of a Foundation `NSIndexSet` (Linux has no bridging cast between the two).
private func indexSet(from indexes: NSIndexSet) -> IndexSet {
    var result = IndexSet()
    indexes.enumerate { index, _ in result.insert(index) }
    return result
}
