import DataModel

// What the generated model literal writes for the common attribute and relationship, whose
// other fields have their defaults: a call with a few parameters typechecks several times
// faster than the full initializer (twenty-seven parameters, eighteen), and a model has one per
// property. Name and type (destination) unlabelled, as a person writes a short call, so most
// properties take one line of the literal.

extension Attribute {
    /// `Attribute.compact("name", .string, isOptional: true)`.
    @_spi(Generated)
    public static func compact(
        _ name: String, _ type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        usesScalarValueType: Bool? = nil, defaultValueString: String? = nil, syncable: Bool = false
    ) -> Attribute {
        Attribute(
            name: name, type: type, isOptional: isOptional, isTransient: isTransient,
            usesScalarValueType: usesScalarValueType, defaultValueString: defaultValueString, syncable: syncable)
    }
}

extension Relationship {
    /// `Relationship.compact("walks", to: "Walk", inverse: "dog", isToMany: true)`: the inverse,
    /// when there is one, is a relationship of the destination entity, as Core Data has it.
    @_spi(Generated)
    public static func compact(
        _ name: String, to destinationEntity: String, inverse inverseName: String? = nil, isToMany: Bool = false,
        isOrdered: Bool = false, isOptional: Bool = false, deleteRule: DeleteRule = .nullify, minCount: Int? = nil,
        maxCount: Int? = nil
    ) -> Relationship {
        Relationship(
            name: name, destinationEntity: destinationEntity, inverseName: inverseName,
            inverseEntity: inverseName == nil ? nil : destinationEntity, isToMany: isToMany, isOrdered: isOrdered,
            isOptional: isOptional, deleteRule: deleteRule, minCount: minCount, maxCount: maxCount)
    }
}
