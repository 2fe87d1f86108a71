// What a generated snapshot reads the object's values with (`snapshot()`) and its
// `apply(to:)` writes relationships with: typed IDs made objects of the object's context.
extension GeneratedObjectAccess {
    /// The values of `snapshot()`: the object's current ones, unsaved changes included.
    public func snapshotValues() -> SnapshotValues { SnapshotValues(object: object) }

    public func setToOneID<Destination>(_ id: ObjectID<Destination>?, at index: Int) throws {
        object.setToOneRelationship(try id.map { try relatedObject(for: $0.managedObjectID, at: index) }, at: index)
    }

    public func setToManyIDs<Destination>(_ ids: [ObjectID<Destination>], at index: Int) throws {
        let objects = OrderedSet(try ids.map { try relatedObject(for: $0.managedObjectID, at: index) })
        if object.property(at: index).relationshipIsOrdered {
            object.setOrderedRelationship(objects, at: index)
        } else {
            object.setRelationship(Set(objects), at: index)
        }
    }

    /// The object `id` names in this object's context (a fault, not read); throws
    /// `referentialIntegrity` (133000) when the object is in no context, or no store of the
    /// context could have the ID.
    private func relatedObject(for id: ManagedObjectID, at index: Int) throws -> ManagedObject {
        guard let context = object.managedObjectContext, let related = context.registeredOrStoredObject(with: id) else {
            throw ManagedObjectError(
                .referentialIntegrity,
                "\(object.propertyPath(at: index)): no object with ID \(id) in \(object.managedObjectContext == nil ? "a context (the object is in none)" : "the context or its stores")",
                entityName: object.entity.name, objectID: object.objectID)
        }
        return related
    }
}
