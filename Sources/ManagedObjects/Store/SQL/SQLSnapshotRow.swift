import Foundation

/// The row a snapshot fetch is on, read property by property as a generated snapshot's
/// initializer asks (``SnapshotValues``): each cell is read from the statement when asked, with
/// no ``StoredObject``, no array of values and no registered object per row. The reading is
/// ``SQLRowReader``'s; attributes whose cell already holds the Swift type asked for (text for a
/// `String`, a number for a `Date`, `Int64`, `Double`, …) skip the boxing into `Any`. A read that
/// throws (a Transformable its transformer cannot read) is kept and thrown by the fetch after
/// the row: the snapshot's initializer cannot throw.
final class SQLSnapshotRow {
    private let reader: SQLRowReader
    private let column: (Int) -> SQLValue
    private let entityNumber: (_ table: String, _ key: Int64) throws -> Int64?
    private let relatedIDs: (ManagedObjectID, RelationshipDescription) throws -> [ManagedObjectID]
    private var error: (any Error)?

    init(
        reader: SQLRowReader, column: @escaping (Int) -> SQLValue,
        entityNumber: @escaping (_ table: String, _ key: Int64) throws -> Int64?,
        relatedObjectIDs: @escaping (ManagedObjectID, RelationshipDescription) throws -> [ManagedObjectID]
    ) {
        self.reader = reader
        self.column = column
        self.entityNumber = entityNumber
        self.relatedIDs = relatedObjectIDs
    }

    /// The values of the statement's current row; `nil` for a row the reader leaves out (an
    /// entity number the model does not know, no key).
    func currentValues() -> SnapshotValues? {
        reader.identity(column: column).map { SnapshotValues(row: self, layout: $0.layout, objectID: $0.objectID) }
    }

    /// Throws the first read of the row that failed.
    func checkRead() throws {
        if let error {
            self.error = nil
            throw error
        }
    }

    func storedValue(at index: Int, of layout: SQLRowLayout, objectID: ManagedObjectID) -> StoredValue? {
        do {
            return try reader.storedValue(at: index, of: layout, objectID: objectID, column: column, entityNumber: entityNumber)
        } catch {
            if self.error == nil { self.error = error }
            return nil
        }
    }

    /// The attribute at `position` as `Value` when its cell holds `Value` as the store keeps it
    /// (``CoreDataValues/attributeValue(_:type:resolveObjectID:)`` reads it the same way);
    /// `.some(nil)` for NULL; `nil` when the general reading must convert it.
    func directAttribute<Value>(at position: Int, type: AttributeType, as _: Value.Type) -> Value?? {
        switch (column(position), type) {
        case (.null, _):
            return .some(nil)
        case (.text(let string), .string) where Value.self == String.self:
            return unsafeBitCast(string, to: Value.self)
        case (.real(let seconds), .date) where Value.self == Date.self:
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: seconds), to: Value.self)
        case (.integer(let seconds), .date) where Value.self == Date.self:
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: Double(seconds)), to: Value.self)
        case (.real(let double), .double) where Value.self == Double.self:
            return unsafeBitCast(double, to: Value.self)
        case (.integer(let integer), .integer64) where Value.self == Int64.self:
            return unsafeBitCast(integer, to: Value.self)
        case (.integer(let integer), .integer32) where Value.self == Int32.self:
            return Int32(exactly: integer).map { unsafeBitCast($0, to: Value.self) }
        case (.integer(let integer), .integer16) where Value.self == Int16.self:
            return Int16(exactly: integer).map { unsafeBitCast($0, to: Value.self) }
        case (.integer(let integer), .boolean) where Value.self == Bool.self:
            return unsafeBitCast(integer != 0, to: Value.self)
        default:
            return nil
        }
    }

    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) -> [ManagedObjectID] {
        do {
            return try relatedIDs(objectID, relationship)
        } catch {
            if self.error == nil { self.error = error }
            return []
        }
    }
}
