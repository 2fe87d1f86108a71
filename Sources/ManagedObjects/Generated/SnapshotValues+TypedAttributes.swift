import Foundation

// The reads a generated snapshot's initializer makes, one per storage type, named as the
// object door's (`GeneratedObjectAccess`): called from another module, the generic
// `attribute(at:)` runs unspecialized and looks up the metadata of `Value??` on every call;
// these are specialized here, so a `String` read from a statement's row is a `String` read.
extension SnapshotValues {
    public func int16(at index: Int) -> Int16? { attribute(at: index) }
    public func int16(at index: Int, default value: Int16) -> Int16 { attribute(at: index) ?? value }
    public func int32(at index: Int) -> Int32? { attribute(at: index) }
    public func int32(at index: Int, default value: Int32) -> Int32 { attribute(at: index) ?? value }
    public func int64(at index: Int) -> Int64? { attribute(at: index) }
    public func int64(at index: Int, default value: Int64) -> Int64 { attribute(at: index) ?? value }
    public func double(at index: Int) -> Double? { attribute(at: index) }
    public func double(at index: Int, default value: Double) -> Double { attribute(at: index) ?? value }
    public func float(at index: Int) -> Float? { attribute(at: index) }
    public func float(at index: Int, default value: Float) -> Float { attribute(at: index) ?? value }
    public func bool(at index: Int) -> Bool? { attribute(at: index) }
    public func bool(at index: Int, default value: Bool) -> Bool { attribute(at: index) ?? value }
    public func decimal(at index: Int) -> Decimal? { attribute(at: index) }
    public func decimal(at index: Int, default value: Decimal) -> Decimal { attribute(at: index) ?? value }
    public func string(at index: Int) -> String? { attribute(at: index) }
    public func string(at index: Int, default value: String) -> String { attribute(at: index) ?? value }
    public func date(at index: Int) -> Date? { attribute(at: index) }
    public func date(at index: Int, default value: Date) -> Date { attribute(at: index) ?? value }
    public func data(at index: Int) -> Data? { attribute(at: index) }
    public func data(at index: Int, default value: Data) -> Data { attribute(at: index) ?? value }
    public func uuid(at index: Int) -> UUID? { attribute(at: index) }
    public func uuid(at index: Int, default value: UUID) -> UUID { attribute(at: index) ?? value }
    public func url(at index: Int) -> URL? { attribute(at: index) }
    public func url(at index: Int, default value: URL) -> URL { attribute(at: index) ?? value }
}
