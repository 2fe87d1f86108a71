// The accessors of attributes typed with a `RawRepresentable` Swift type (user info
// `swiftType`), through the door: the raw value is stored (`RawValueStorage`); a stored raw
// value no value of the type has reads as `nil` (or the default) and is logged, never a trap.
extension GeneratedObjectAccess {
    public func rawValue<Value: RawRepresentable>(at index: Int) -> Value? {
        RawValueStorage.value(object.attributeStorageValue(at: index), as: Value.self, what: object.propertyPath(at: index))
    }

    /// An optional attribute with a default for raw values the type does not have.
    public func rawValue<Value: RawRepresentable>(at index: Int, ifUnknown value: Value) -> Value? {
        RawValueStorage.value(
            object.attributeStorageValue(at: index), as: Value.self, unknown: value, what: object.propertyPath(at: index))
    }

    /// A non-optional attribute: `value` when nothing is stored too.
    public func rawValue<Value: RawRepresentable>(at index: Int, default value: Value) -> Value {
        rawValue(at: index, ifUnknown: value) ?? value
    }

    public func setRawValue<Value: RawRepresentable>(_ value: Value?, at index: Int) {
        guard let value else { return object.setAttributeValue(nil as Int64?, at: index) }
        guard case .attribute(let attribute) = object.property(at: index).kind else {
            preconditionFailure("\(object.propertyPath(at: index)) is not an attribute")
        }
        switch RawValueStorage.stored(value, for: attribute.type, what: object.propertyPath(at: index)) {
        case let stored as Int16: object.setAttributeValue(stored, at: index)
        case let stored as Int32: object.setAttributeValue(stored, at: index)
        case let stored as Int64: object.setAttributeValue(stored, at: index)
        case let stored as String: object.setAttributeValue(stored, at: index)
        case let stored: preconditionFailure("\(object.propertyPath(at: index)): no raw-value storage for \(type(of: stored))")
        }
    }
}

extension ManagedObject {
    /// `Entity.key` of the property at `index`, for messages.
    func propertyPath(at index: Int) -> String { "\(entity.name).\(property(at: index).name)" }
}
