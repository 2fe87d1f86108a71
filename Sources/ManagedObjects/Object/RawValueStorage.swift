import DataModel

/// How an attribute typed with a `RawRepresentable` Swift type (an enum, an option set; set in
/// the model's user info, `swiftType`) is kept: its raw value, in the attribute's storage type
/// (`String`, `Int16`, `Int32`, `Int64`). The raw type may be any integer type for an integer
/// attribute (`enum Priority: Int` over an Integer 16 attribute). One place for the
/// conversions that generated accessors, snapshots and typed predicates make.
enum RawValueStorage {
    /// The value `stored` stands for; `nil` for no value; `unknown` for a raw value no value of
    /// `Value` has, which is logged (``ManagedObjectsLog``) naming `what` (`Entity.key`).
    static func value<Value: RawRepresentable>(
        _ stored: Any?, as _: Value.Type, unknown: Value? = nil, what: @autoclosure () -> String
    ) -> Value? {
        guard let stored else { return nil }
        if let raw = rawValue(stored, as: Value.RawValue.self), let value = Value(rawValue: raw) { return value }
        ManagedObjectsLog.logger.warning(
            "\(what()): stored value \(stored) is not a raw value of \(Value.self); read as \(unknown.map { "\($0)" } ?? "nil")")
        return unknown
    }

    /// `stored` as `Raw`: the same value, or an integer converted exactly.
    private static func rawValue<Raw>(_ stored: Any, as _: Raw.Type) -> Raw? {
        if let raw = stored as? Raw { return raw }
        guard let integer = stored as? any BinaryInteger, let rawType = Raw.self as? any BinaryInteger.Type else { return nil }
        func exactly<Integer: BinaryInteger>(_: Integer.Type) -> Raw? { Integer(exactly: integer) as? Raw }
        return exactly(rawType)
    }

    /// The raw value of `value` in the storage type of an attribute of `type`. Traps naming
    /// `what` for a raw value the attribute cannot hold (an integer out of its range, a raw type
    /// that is not the attribute's): the Swift type does not fit the model.
    static func stored<Value: RawRepresentable>(_ value: Value, for type: AttributeType, what: @autoclosure () -> String) -> Any {
        let raw = value.rawValue
        let stored: Any? = switch type {
        case .integer16: (raw as? any BinaryInteger).flatMap { Int16(exactly: $0) }
        case .integer32: (raw as? any BinaryInteger).flatMap { Int32(exactly: $0) }
        case .integer64: (raw as? any BinaryInteger).flatMap { Int64(exactly: $0) }
        default: raw as? String
        }
        guard let stored else {
            preconditionFailure("\(what()): the raw value \(raw) of \(value) does not fit a \(type.rawValue) attribute")
        }
        return stored
    }

    /// A value a typed predicate compares with (`$0.state == .open`): a `RawRepresentable`'s raw
    /// value, what the store holds; other values as they are.
    static func comparable(_ value: Any?) -> Any? {
        guard let value = PredicateValues.normalized(value) else { return nil }
        guard let representable = value as? any RawRepresentable else { return value }
        func raw<Representable: RawRepresentable>(_ value: Representable) -> Any { value.rawValue }
        return raw(representable)
    }
}
