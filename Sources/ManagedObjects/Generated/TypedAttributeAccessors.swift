import Foundation

// The accessors generated properties call, one family per storage type: a call to a
// non-generic function typechecks about twice as fast as the generic `attributeValue(at:)` /
// `setAttributeValue(_:at:)` it forwards to, and a model has one or two per attribute. Generic
// storage (transformable, composite, undefined) uses the generic ones directly.
//
// `<type>Attribute(at:)` reads, `<type>Attribute(at:default:)` reads with a fallback (a
// non-optional property), `set<Type>Attribute(_:at:)` writes; for numbers and Booleans stored
// as `NSNumber?` (Xcode's non-scalar typing) `<type>NumberAttribute(at:)` and
// `set<Type>NumberAttribute(_:at:)` convert.
extension ManagedObject {
    @_spi(Generated) public func int16Attribute(at index: Int) -> Int16? { attributeValue(at: index) }
    @_spi(Generated) public func int16Attribute(at index: Int, default value: Int16) -> Int16 { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setInt16Attribute(_ value: Int16?, at index: Int) { setAttributeValue(value, at: index) }
    @_spi(Generated) public func int16NumberAttribute(at index: Int) -> NSNumber? { int16Attribute(at: index).map { NSNumber(value: $0) } }
    @_spi(Generated) public func setInt16NumberAttribute(_ value: NSNumber?, at index: Int) { setAttributeValue(value?.int16Value, at: index) }

    @_spi(Generated) public func int32Attribute(at index: Int) -> Int32? { attributeValue(at: index) }
    @_spi(Generated) public func int32Attribute(at index: Int, default value: Int32) -> Int32 { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setInt32Attribute(_ value: Int32?, at index: Int) { setAttributeValue(value, at: index) }
    @_spi(Generated) public func int32NumberAttribute(at index: Int) -> NSNumber? { int32Attribute(at: index).map { NSNumber(value: $0) } }
    @_spi(Generated) public func setInt32NumberAttribute(_ value: NSNumber?, at index: Int) { setAttributeValue(value?.int32Value, at: index) }

    @_spi(Generated) public func int64Attribute(at index: Int) -> Int64? { attributeValue(at: index) }
    @_spi(Generated) public func int64Attribute(at index: Int, default value: Int64) -> Int64 { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setInt64Attribute(_ value: Int64?, at index: Int) { setAttributeValue(value, at: index) }
    @_spi(Generated) public func int64NumberAttribute(at index: Int) -> NSNumber? { int64Attribute(at: index).map { NSNumber(value: $0) } }
    @_spi(Generated) public func setInt64NumberAttribute(_ value: NSNumber?, at index: Int) { setAttributeValue(value?.int64Value, at: index) }

    @_spi(Generated) public func doubleAttribute(at index: Int) -> Double? { attributeValue(at: index) }
    @_spi(Generated) public func doubleAttribute(at index: Int, default value: Double) -> Double { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setDoubleAttribute(_ value: Double?, at index: Int) { setAttributeValue(value, at: index) }
    @_spi(Generated) public func doubleNumberAttribute(at index: Int) -> NSNumber? { doubleAttribute(at: index).map { NSNumber(value: $0) } }
    @_spi(Generated) public func setDoubleNumberAttribute(_ value: NSNumber?, at index: Int) { setAttributeValue(value?.doubleValue, at: index) }

    @_spi(Generated) public func floatAttribute(at index: Int) -> Float? { attributeValue(at: index) }
    @_spi(Generated) public func floatAttribute(at index: Int, default value: Float) -> Float { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setFloatAttribute(_ value: Float?, at index: Int) { setAttributeValue(value, at: index) }
    @_spi(Generated) public func floatNumberAttribute(at index: Int) -> NSNumber? { floatAttribute(at: index).map { NSNumber(value: $0) } }
    @_spi(Generated) public func setFloatNumberAttribute(_ value: NSNumber?, at index: Int) { setAttributeValue(value?.floatValue, at: index) }

    @_spi(Generated) public func boolAttribute(at index: Int) -> Bool? { attributeValue(at: index) }
    @_spi(Generated) public func boolAttribute(at index: Int, default value: Bool) -> Bool { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setBoolAttribute(_ value: Bool?, at index: Int) { setAttributeValue(value, at: index) }
    @_spi(Generated) public func boolNumberAttribute(at index: Int) -> NSNumber? { boolAttribute(at: index).map { NSNumber(value: $0) } }
    @_spi(Generated) public func setBoolNumberAttribute(_ value: NSNumber?, at index: Int) { setAttributeValue(value?.boolValue, at: index) }

    @_spi(Generated) public func decimalAttribute(at index: Int) -> Decimal? { attributeValue(at: index) }
    @_spi(Generated) public func decimalAttribute(at index: Int, default value: Decimal) -> Decimal { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setDecimalAttribute(_ value: Decimal?, at index: Int) { setAttributeValue(value, at: index) }

    @_spi(Generated) public func stringAttribute(at index: Int) -> String? { attributeValue(at: index) }
    @_spi(Generated) public func stringAttribute(at index: Int, default value: String) -> String { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setStringAttribute(_ value: String?, at index: Int) { setAttributeValue(value, at: index) }

    @_spi(Generated) public func dateAttribute(at index: Int) -> Date? { attributeValue(at: index) }
    @_spi(Generated) public func dateAttribute(at index: Int, default value: Date) -> Date { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setDateAttribute(_ value: Date?, at index: Int) { setAttributeValue(value, at: index) }

    @_spi(Generated) public func dataAttribute(at index: Int) -> Data? { attributeValue(at: index) }
    @_spi(Generated) public func dataAttribute(at index: Int, default value: Data) -> Data { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setDataAttribute(_ value: Data?, at index: Int) { setAttributeValue(value, at: index) }

    @_spi(Generated) public func uuidAttribute(at index: Int) -> UUID? { attributeValue(at: index) }
    @_spi(Generated) public func uuidAttribute(at index: Int, default value: UUID) -> UUID { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setUuidAttribute(_ value: UUID?, at index: Int) { setAttributeValue(value, at: index) }

    @_spi(Generated) public func urlAttribute(at index: Int) -> URL? { attributeValue(at: index) }
    @_spi(Generated) public func urlAttribute(at index: Int, default value: URL) -> URL { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setUrlAttribute(_ value: URL?, at index: Int) { setAttributeValue(value, at: index) }

    @_spi(Generated) public func objectIDAttribute(at index: Int) -> ManagedObjectID? { attributeValue(at: index) }
    @_spi(Generated) public func objectIDAttribute(at index: Int, default value: ManagedObjectID) -> ManagedObjectID { attributeValue(at: index) ?? value }
    @_spi(Generated) public func setObjectIDAttribute(_ value: ManagedObjectID?, at index: Int) { setAttributeValue(value, at: index) }
}
