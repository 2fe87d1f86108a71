// The accessors of attributes typed with a `RawRepresentable` Swift type (user info
// `swiftType`): the raw value is stored (`RawValueStorage`); a stored raw value no value of the
// type has reads as `nil` (or the default) and is logged, never a trap.
extension ManagedObject {
    @_spi(Generated) public func rawValueAttribute<Value: RawRepresentable>(at index: Int) -> Value? {
        RawValueStorage.value(attributeStorageValue(at: index), as: Value.self, what: self.propertyPath(at: index))
    }

    /// An optional attribute with a default for raw values the type does not have.
    @_spi(Generated) public func rawValueAttribute<Value: RawRepresentable>(at index: Int, ifUnknown value: Value) -> Value? {
        RawValueStorage.value(attributeStorageValue(at: index), as: Value.self, unknown: value, what: self.propertyPath(at: index))
    }

    /// A non-optional attribute: `value` when nothing is stored too.
    @_spi(Generated) public func rawValueAttribute<Value: RawRepresentable>(at index: Int, default value: Value) -> Value {
        rawValueAttribute(at: index, ifUnknown: value) ?? value
    }

    @_spi(Generated) public func setRawValueAttribute<Value: RawRepresentable>(_ value: Value?, at index: Int) {
        guard let value else { return setAttributeValue(nil as Int64?, at: index) }
        guard case .attribute(let attribute) = property(at: index).kind else {
            preconditionFailure("\(propertyPath(at: index)) is not an attribute")
        }
        switch RawValueStorage.stored(value, for: attribute.type, what: propertyPath(at: index)) {
        case let stored as Int16: setAttributeValue(stored, at: index)
        case let stored as Int32: setAttributeValue(stored, at: index)
        case let stored as Int64: setAttributeValue(stored, at: index)
        case let stored as String: setAttributeValue(stored, at: index)
        case let stored: preconditionFailure("\(propertyPath(at: index)): no raw-value storage for \(type(of: stored))")
        }
    }

    /// `Entity.key` of the property at `index`, for messages.
    func propertyPath(at index: Int) -> String { "\(entity.name).\(property(at: index).name)" }
}
