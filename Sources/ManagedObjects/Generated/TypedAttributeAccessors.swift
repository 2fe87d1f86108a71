import Foundation

// The accessors generated properties call through the door (`_managedGen.string(at: 0)`), one
// family per storage type: a call to a non-generic function typechecks about twice as fast as
// the generic `value(at:)` / `setValue(_:at:)` it forwards to, and a model has one or two per
// attribute. Generic storage (transformable, composite, undefined) uses the generic ones.
//
// `<type>(at:)` reads, `<type>(at:default:)` reads with a fallback (a non-optional property),
// `set<Type>(_:at:)` writes; for numbers and Booleans stored as `NSNumber?` (Xcode's
// non-scalar typing) `<type>Number(at:)` and `set<Type>Number(_:at:)` convert.
extension GeneratedObjectAccess {
    /// The attribute at `index` as `Value` (generic storage: transformable, composite, undefined).
    public func value<Value>(at index: Int) -> Value? { object.attributeValue(at: index) }
    public func setValue<Value: Equatable>(_ value: Value?, at index: Int) { object.setAttributeValue(value, at: index) }
    public func setValue<Value>(_ value: Value?, at index: Int) { object.setAttributeValue(value, at: index) }

    public func int16(at index: Int) -> Int16? { object.attributeValue(at: index) }
    public func int16(at index: Int, default value: Int16) -> Int16 { object.attributeValue(at: index) ?? value }
    public func setInt16(_ value: Int16?, at index: Int) { object.setAttributeValue(value, at: index) }
    public func int16Number(at index: Int) -> NSNumber? { int16(at: index).map { NSNumber(value: $0) } }
    public func setInt16Number(_ value: NSNumber?, at index: Int) { object.setAttributeValue(value?.int16Value, at: index) }

    public func int32(at index: Int) -> Int32? { object.attributeValue(at: index) }
    public func int32(at index: Int, default value: Int32) -> Int32 { object.attributeValue(at: index) ?? value }
    public func setInt32(_ value: Int32?, at index: Int) { object.setAttributeValue(value, at: index) }
    public func int32Number(at index: Int) -> NSNumber? { int32(at: index).map { NSNumber(value: $0) } }
    public func setInt32Number(_ value: NSNumber?, at index: Int) { object.setAttributeValue(value?.int32Value, at: index) }

    public func int64(at index: Int) -> Int64? { object.attributeValue(at: index) }
    public func int64(at index: Int, default value: Int64) -> Int64 { object.attributeValue(at: index) ?? value }
    public func setInt64(_ value: Int64?, at index: Int) { object.setAttributeValue(value, at: index) }
    public func int64Number(at index: Int) -> NSNumber? { int64(at: index).map { NSNumber(value: $0) } }
    public func setInt64Number(_ value: NSNumber?, at index: Int) { object.setAttributeValue(value?.int64Value, at: index) }

    public func double(at index: Int) -> Double? { object.attributeValue(at: index) }
    public func double(at index: Int, default value: Double) -> Double { object.attributeValue(at: index) ?? value }
    public func setDouble(_ value: Double?, at index: Int) { object.setAttributeValue(value, at: index) }
    public func doubleNumber(at index: Int) -> NSNumber? { double(at: index).map { NSNumber(value: $0) } }
    public func setDoubleNumber(_ value: NSNumber?, at index: Int) { object.setAttributeValue(value?.doubleValue, at: index) }

    public func float(at index: Int) -> Float? { object.attributeValue(at: index) }
    public func float(at index: Int, default value: Float) -> Float { object.attributeValue(at: index) ?? value }
    public func setFloat(_ value: Float?, at index: Int) { object.setAttributeValue(value, at: index) }
    public func floatNumber(at index: Int) -> NSNumber? { float(at: index).map { NSNumber(value: $0) } }
    public func setFloatNumber(_ value: NSNumber?, at index: Int) { object.setAttributeValue(value?.floatValue, at: index) }

    public func bool(at index: Int) -> Bool? { object.attributeValue(at: index) }
    public func bool(at index: Int, default value: Bool) -> Bool { object.attributeValue(at: index) ?? value }
    public func setBool(_ value: Bool?, at index: Int) { object.setAttributeValue(value, at: index) }
    public func boolNumber(at index: Int) -> NSNumber? { bool(at: index).map { NSNumber(value: $0) } }
    public func setBoolNumber(_ value: NSNumber?, at index: Int) { object.setAttributeValue(value?.boolValue, at: index) }

    public func decimal(at index: Int) -> Decimal? { object.attributeValue(at: index) }
    public func decimal(at index: Int, default value: Decimal) -> Decimal { object.attributeValue(at: index) ?? value }
    public func setDecimal(_ value: Decimal?, at index: Int) { object.setAttributeValue(value, at: index) }

    public func string(at index: Int) -> String? { object.attributeValue(at: index) }
    public func string(at index: Int, default value: String) -> String { object.attributeValue(at: index) ?? value }
    public func setString(_ value: String?, at index: Int) { object.setAttributeValue(value, at: index) }

    public func date(at index: Int) -> Date? { object.attributeValue(at: index) }
    public func date(at index: Int, default value: Date) -> Date { object.attributeValue(at: index) ?? value }
    public func setDate(_ value: Date?, at index: Int) { object.setAttributeValue(value, at: index) }

    public func data(at index: Int) -> Data? { object.attributeValue(at: index) }
    public func data(at index: Int, default value: Data) -> Data { object.attributeValue(at: index) ?? value }
    public func setData(_ value: Data?, at index: Int) { object.setAttributeValue(value, at: index) }

    public func uuid(at index: Int) -> UUID? { object.attributeValue(at: index) }
    public func uuid(at index: Int, default value: UUID) -> UUID { object.attributeValue(at: index) ?? value }
    public func setUuid(_ value: UUID?, at index: Int) { object.setAttributeValue(value, at: index) }

    public func url(at index: Int) -> URL? { object.attributeValue(at: index) }
    public func url(at index: Int, default value: URL) -> URL { object.attributeValue(at: index) ?? value }
    public func setUrl(_ value: URL?, at index: Int) { object.setAttributeValue(value, at: index) }

    public func objectID(at index: Int) -> ManagedObjectID? { object.attributeValue(at: index) }
    public func objectID(at index: Int, default value: ManagedObjectID) -> ManagedObjectID { object.attributeValue(at: index) ?? value }
    public func setObjectID(_ value: ManagedObjectID?, at index: Int) { object.setAttributeValue(value, at: index) }
}
