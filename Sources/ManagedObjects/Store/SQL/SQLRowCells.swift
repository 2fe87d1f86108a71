/// The row a statement is on, read cell by cell in the driver's own types: what a snapshot fetch
/// reads (``SQLSnapshotRow``), so that a text cell becomes a `String` with no ``SQLValue`` in
/// between. A class: one per statement, asked for every cell of every row.
protocol SQLRowCells: AnyObject {
    /// The cell as an ``SQLValue``, for the reads the typed ones do not cover.
    func value(at index: Int) -> SQLValue
    /// What the cell holds; the typed reads below are for a cell of their kind only.
    func kind(at index: Int) -> SQLCellKind
    func integer(at index: Int) -> Int64
    func real(at index: Int) -> Double
    func text(at index: Int) -> String
}

extension SQLRowCells {
    /// The cell read as an integer, as ``SQLValue/int64Value`` reads one.
    func int64Value(at index: Int) -> Int64? {
        switch kind(at: index) {
        case .integer: integer(at: index)
        case .real: SQLValue.real(real(at: index)).int64Value
        default: nil
        }
    }
}

/// The storage class of a cell (``SQLValue``'s cases, without the value).
enum SQLCellKind {
    case null, integer, real, text, blob
}
