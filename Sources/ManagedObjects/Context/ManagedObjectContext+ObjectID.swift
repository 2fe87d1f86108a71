extension ManagedObjectContext {
    /// The object with this typed ID, as `object(with:)` finds it (the registered object, or a
    /// fault, without reading the store), typed. Traps as `object(with:)` does for an ID no
    /// store of the coordinator could have given, and for an ID of another model whose object
    /// here is not an `Object`.
    public func object<Object>(with objectID: ObjectID<Object>) -> Object {
        let object = object(with: objectID.managedObjectID)
        guard let typed = object as? Object else {
            preconditionFailure("\(objectID) is a \(type(of: object)) in this context, not a \(Object.self): is it from another model?")
        }
        return typed
    }

    /// The object with this typed ID, registered or read from the store; throws
    /// `referentialIntegrity` (133000) when there is none, as `existingObject(with:)`, and when
    /// the object here is not an `Object` (an ID of another model).
    public func existingObject<Object>(with objectID: ObjectID<Object>) throws -> Object {
        let object = try existingObject(with: objectID.managedObjectID)
        guard let typed = object as? Object else {
            throw ManagedObjectError(
                .referentialIntegrity, "the object with this ID is a \(type(of: object)) in this context, not a \(Object.self)",
                entityName: objectID.managedObjectID.entity.name, objectID: objectID.managedObjectID)
        }
        return typed
    }
}
