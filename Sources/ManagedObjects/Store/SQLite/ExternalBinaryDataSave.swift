import Foundation
import GRDB

/// The external files of one write transaction of an SQLite store (``ExternalBinaryData``):
/// new files are written while the transaction runs, before it commits; the files of cells it
/// replaces or deletes are removed only after it commits (``finish(committed:)``), and the new
/// ones instead when it does not. A crash leaves at worst a file that no row names, never a row
/// naming a file that is not there.
final class ExternalBinaryDataSave {
    let data: ExternalBinaryData
    /// Cells of external-storage columns as the rows had them before this transaction, by
    /// object and property index.
    private var previousCells: [ManagedObjectID: [Int: Data]] = [:]
    /// Files this transaction wrote.
    private(set) var written: [String] = []
    /// Files of cells this transaction replaced or deleted.
    private(set) var released: [String] = []

    init(_ data: ExternalBinaryData) {
        self.data = data
    }

    /// Reads the external-storage cells of the rows of `objectIDs` (of `layout`'s entity) before
    /// the transaction changes them.
    func readPreviousCells(of objectIDs: some Sequence<ManagedObjectID>, layout: SQLRowLayout, db: Database) throws {
        let columns = layout.externalBinaryColumns
        guard !columns.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns.map(\.column).joined(separator: ", ")) FROM \(layout.table.name) WHERE Z_PK = ?")
        for objectID in objectIDs {
            guard let key = objectID.storeNumber, let row = try Row.fetchOne(statement, arguments: [key]) else { continue }
            var cells: [Int: Data] = [:]
            for (position, column) in columns.enumerated() {
                if case .blob(let cell) = (row[position] as DatabaseValue).storage { cells[column.index] = cell }
            }
            previousCells[objectID] = cells
        }
    }

    /// The files of a deleted row go when the transaction commits.
    func releaseAll(of objectID: ManagedObjectID) {
        for cell in (previousCells[objectID] ?? [:]).values {
            if let name = ExternalBinaryData.fileName(ofCell: cell) { released.append(name) }
        }
    }

    /// The cell for an external-storage attribute's value (`nil`: NULL), writing a file for a
    /// large value; the row's previous file is released when the cell no longer names it.
    func cell(for value: Data?, index: Int, attribute: String, objectID: ManagedObjectID?) throws -> SQLValue {
        let previous = objectID.flatMap { previousCells[$0]?[index] }
        let cell = try value.map {
            try data.cell(for: $0, previousCell: previous, attribute: attribute, objectID: objectID, written: &written)
        }
        if let previous, let name = ExternalBinaryData.fileName(ofCell: previous), cell != previous {
            released.append(name)
        }
        return cell.map { .blob($0) } ?? .null
    }

    /// The cell for a value given to a batch request for an external-storage attribute (any
    /// value: one the attribute cannot keep is an error naming it, as in a save).
    func cell(forBatchValue value: Any?, attribute: AttributeDescription, objectID: ManagedObjectID?) throws -> SQLValue {
        var data: Data?
        if let value, case .blob(let bytes) = try CoreDataValues.cell(
            of: value, property: attribute, type: .binary, objectID: objectID) {
            data = bytes
        }
        return try cell(for: data, index: attribute.index, attribute: attribute.name, objectID: objectID)
    }

    /// After the transaction: the released files go when it committed, the written ones when
    /// it did not.
    func finish(committed: Bool) {
        data.removeFiles(committed ? released : written)
    }

    /// Runs a write transaction (`body`), then removes the files it released once it committed,
    /// or those it wrote when it failed.
    func run<T>(_ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            finish(committed: false)
            throw error
        }
        finish(committed: true)
        return result
    }
}
