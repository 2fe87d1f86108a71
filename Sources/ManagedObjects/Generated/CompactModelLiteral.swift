import DataModel
extension Attribute {
    /// What the generated model literal writes for an attribute whose other fields have their
    /// defaults, the common case: a call with a few parameters typechecks several times faster
    /// than the full initializer with its twenty-seven, and a model has one per attribute.
    @_spi(Generated)
    public static func compact(
        name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
        usesScalarValueType: Bool? = nil, defaultValueString: String? = nil, syncable: Bool = false
    ) -> Attribute {
        Attribute(
            name: name, type: type, isOptional: isOptional, isTransient: isTransient,
            usesScalarValueType: usesScalarValueType, defaultValueString: defaultValueString, syncable: syncable)
    }
}
