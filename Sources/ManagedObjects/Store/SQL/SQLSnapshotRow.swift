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
    private let cells: any SQLRowCells
    private let entityNumber: (_ table: String, _ key: Int64) throws -> Int64?
    private let relatedIDs: (ManagedObjectID, RelationshipDescription) throws -> [ManagedObjectID]
    private var error: (any Error)?
    /// The layout and object ID of the row the statement is on.
    private var layout: SQLRowLayout
    private(set) var objectID: ManagedObjectID

    private init(
        reader: SQLRowReader, cells: any SQLRowCells, at identity: (layout: SQLRowLayout, objectID: ManagedObjectID),
        entityNumber: @escaping (_ table: String, _ key: Int64) throws -> Int64?,
        relatedObjectIDs: @escaping (ManagedObjectID, RelationshipDescription) throws -> [ManagedObjectID]
    ) {
        self.reader = reader
        self.cells = cells
        (layout, objectID) = identity
        self.entityNumber = entityNumber
        self.relatedIDs = relatedObjectIDs
    }

    /// Steps a statement with `step` (`false` past its last row) and hands the values of each
    /// row to `body`, read from `cells` as the snapshot asks; a row the reader leaves out (an
    /// entity number the model does not know, no key) is skipped. One row object serves every
    /// row: the values handed out hold one reference.
    static func forEachRow(
        of cells: any SQLRowCells, reader: SQLRowReader, step: () throws -> Bool,
        entityNumber: @escaping (_ table: String, _ key: Int64) throws -> Int64?,
        relatedObjectIDs: @escaping (ManagedObjectID, RelationshipDescription) throws -> [ManagedObjectID],
        _ body: (SnapshotValues) throws -> Void
    ) throws {
        var row: SQLSnapshotRow?
        while try step() {
            guard let identity = reader.identity(key: cells.int64Value(at: 0), entityNumber: cells.int64Value(at: 1)) else {
                continue
            }
            let current: SQLSnapshotRow
            if let row {
                (row.layout, row.objectID) = identity
                current = row
            } else {
                current = SQLSnapshotRow(
                    reader: reader, cells: cells, at: identity, entityNumber: entityNumber, relatedObjectIDs: relatedObjectIDs)
                row = current
            }
            try body(SnapshotValues(row: current))
            try current.checkRead()
        }
    }

    /// Throws the first read of the row that failed.
    private func checkRead() throws {
        if let error {
            self.error = nil
            throw error
        }
    }

    func storedValue(at index: Int) -> StoredValue? {
        do {
            return try reader.storedValue(at: index, of: layout, objectID: objectID, column: { cells.value(at: $0) }, entityNumber: entityNumber)
        } catch {
            if self.error == nil { self.error = error }
            return nil
        }
    }

    /// The attribute at `position` as `Value` when its cell holds `Value` as the store keeps it
    /// (``CoreDataValues/attributeValue(_:type:resolveObjectID:)`` reads it the same way);
    /// `.some(nil)` for NULL; `nil` when the general reading must convert it.
    func directAttribute<Value>(at index: Int, as _: Value.Type) -> Value?? {
        guard case .attribute(let position, let type) = layout.cellReads[index] else { return nil }
        let kind = cells.kind(at: position)
        switch (kind, type) {
        case (.null, _):
            return .some(nil)
        case (.text, .string) where Value.self == String.self:
            return unsafeBitCast(cells.text(at: position), to: Value.self)
        case (.real, .date) where Value.self == Date.self:
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: cells.real(at: position)), to: Value.self)
        case (.integer, .date) where Value.self == Date.self:
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: Double(cells.integer(at: position))), to: Value.self)
        case (.real, .double) where Value.self == Double.self:
            return unsafeBitCast(cells.real(at: position), to: Value.self)
        case (.integer, .integer64) where Value.self == Int64.self:
            return unsafeBitCast(cells.integer(at: position), to: Value.self)
        case (.integer, .integer32) where Value.self == Int32.self:
            return Int32(exactly: cells.integer(at: position)).map { unsafeBitCast($0, to: Value.self) }
        case (.integer, .integer16) where Value.self == Int16.self:
            return Int16(exactly: cells.integer(at: position)).map { unsafeBitCast($0, to: Value.self) }
        case (.integer, .boolean) where Value.self == Bool.self:
            return unsafeBitCast(cells.integer(at: position) != 0, to: Value.self)
        default:
            return nil
        }
    }

    /// The object the to-one at `index` names, read from its key's cell; `.some(nil)` for none;
    /// `nil` when it is read otherwise (not a to-one, or one whose destination has sub-entities).
    func toOneObjectID(at index: Int) -> ManagedObjectID?? {
        guard case .toOne(let position, let destinationNumber) = layout.cellReads[index] else { return nil }
        guard let key = cells.int64Value(at: position) else { return .some(nil) }
        return reader.objectID(entityNumber: destinationNumber, key: key).map { .some($0) }
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
