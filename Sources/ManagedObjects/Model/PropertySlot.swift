/// What a save needs to know of a property, for each value of each object, without the
/// property's description: its shape, whether it is transient, and what validation checks.
struct PropertySlot {
    enum Shape { case attribute, toOne, toMany }

    let shape: Shape
    let isTransient: Bool
    /// Validation has something to check (the one place that says so): a derived attribute has
    /// not, nor has an optional relationship or a to-many without count bounds.
    let isValidated: Bool
    /// An attribute's value needs no more than its presence and this exact storage type to be
    /// valid (no bounds, no pattern); `nil` when validation looks further.
    let plainStorageType: Any.Type?
    let isOptional: Bool
    /// An attribute the store keeps: its value goes into the saved snapshot (moved there, for a
    /// new object, by `ManagedObject.storedValues(id:emptyingTransients:movingAttributes:)`).
    var isStoredAttribute: Bool { shape == .attribute && !isTransient }

    init(_ property: PropertyDescription) {
        shape = property.slotShape
        isTransient = property.isTransient
        isOptional = property.isOptional
        switch property.kind {
        case .attribute(let attribute):
            isValidated = !attribute.attribute.isDerived
            plainStorageType = attribute.hasValueBounds ? nil : AttributeValues.storageType(of: attribute.type)
        case .relationship(let relationship):
            // A to-many without count bounds may be empty even when required (as in Core Data).
            isValidated = (!relationship.isOptional && !relationship.isToMany)
                || relationship.minCount != nil || relationship.maxCount != nil
            plainStorageType = nil
        case .fetchedProperty:
            // Never among an entity's stored properties, which are what has slots.
            isValidated = false
            plainStorageType = nil
        }
    }
}
