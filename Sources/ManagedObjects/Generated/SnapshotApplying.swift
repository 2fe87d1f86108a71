// What a generated snapshot's `apply(to:)` writes relationships with: typed IDs made objects
// of the object's context.
extension ManagedObject {
    @_spi(Generated) public func setToOneObjectID<Destination>(_ id: ObjectID<Destination>?, at index: Int) throws {
        setToOneRelationship(try id.map { try relatedObject(for: $0.managedObjectID, at: index) }, at: index)
    }

    @_spi(Generated) public func setToManyObjectIDs<Destination>(_ ids: [ObjectID<Destination>], at index: Int) throws {
        let objects = OrderedSet(try ids.map { try relatedObject(for: $0.managedObjectID, at: index) })
        if property(at: index).relationshipIsOrdered {
            setOrderedRelationship(objects, at: index)
        } else {
            setRelationship(Set(objects), at: index)
        }
    }

    /// The object `id` names in this object's context (a fault, not read); throws
    /// `referentialIntegrity` (133000) when the object is in no context, or no store of the
    /// context could have the ID.
    private func relatedObject(for id: ManagedObjectID, at index: Int) throws -> ManagedObject {
        guard let context = managedObjectContext, let related = context.registeredOrStoredObject(with: id) else {
            throw ManagedObjectError(
                .referentialIntegrity,
                "\(propertyPath(at: index)): no object with ID \(id) in \(managedObjectContext == nil ? "a context (the object is in none)" : "the context or its stores")",
                entityName: entity.name, objectID: objectID)
        }
        return related
    }
}
