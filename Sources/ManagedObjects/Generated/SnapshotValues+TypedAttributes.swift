import Foundation

// The reads a generated snapshot's initializer makes, one per storage type, as the object's
// (`TypedAttributeAccessors.swift`): called from another module, the generic
// `attribute(at:)` runs unspecialized and looks up the metadata of `Value??` on every call;
// these are specialized here, so a `String` read from a statement's row is a `String` read.
extension SnapshotValues {
    public func int16Attribute(at index: Int) -> Int16? { attribute(at: index) }
    public func int16Attribute(at index: Int, default value: Int16) -> Int16 { attribute(at: index) ?? value }
    public func int32Attribute(at index: Int) -> Int32? { attribute(at: index) }
    public func int32Attribute(at index: Int, default value: Int32) -> Int32 { attribute(at: index) ?? value }
    public func int64Attribute(at index: Int) -> Int64? { attribute(at: index) }
    public func int64Attribute(at index: Int, default value: Int64) -> Int64 { attribute(at: index) ?? value }
    public func doubleAttribute(at index: Int) -> Double? { attribute(at: index) }
    public func doubleAttribute(at index: Int, default value: Double) -> Double { attribute(at: index) ?? value }
    public func floatAttribute(at index: Int) -> Float? { attribute(at: index) }
    public func floatAttribute(at index: Int, default value: Float) -> Float { attribute(at: index) ?? value }
    public func boolAttribute(at index: Int) -> Bool? { attribute(at: index) }
    public func boolAttribute(at index: Int, default value: Bool) -> Bool { attribute(at: index) ?? value }
    public func decimalAttribute(at index: Int) -> Decimal? { attribute(at: index) }
    public func decimalAttribute(at index: Int, default value: Decimal) -> Decimal { attribute(at: index) ?? value }
    public func stringAttribute(at index: Int) -> String? { attribute(at: index) }
    public func stringAttribute(at index: Int, default value: String) -> String { attribute(at: index) ?? value }
    public func dateAttribute(at index: Int) -> Date? { attribute(at: index) }
    public func dateAttribute(at index: Int, default value: Date) -> Date { attribute(at: index) ?? value }
    public func dataAttribute(at index: Int) -> Data? { attribute(at: index) }
    public func dataAttribute(at index: Int, default value: Data) -> Data { attribute(at: index) ?? value }
    public func uuidAttribute(at index: Int) -> UUID? { attribute(at: index) }
    public func uuidAttribute(at index: Int, default value: UUID) -> UUID { attribute(at: index) ?? value }
    public func urlAttribute(at index: Int) -> URL? { attribute(at: index) }
    public func urlAttribute(at index: Int, default value: URL) -> URL { attribute(at: index) ?? value }
}
