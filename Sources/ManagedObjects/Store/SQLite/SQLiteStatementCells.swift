import GRDB
import GRDBSQLite

/// The row an SQLite statement is on (``SQLRowCells``), read with SQLite's column functions.
final class SQLiteStatementCells: SQLRowCells {
    private let statement: OpaquePointer

    init(_ statement: OpaquePointer) {
        self.statement = statement
    }

    func value(at index: Int) -> SQLValue {
        Self.value(of: statement, at: index)
    }

    /// The cell at `index` of the row `statement` is on, as an ``SQLValue``: the one reading of a
    /// cell the store's row reads share (``SQLiteStore/storedObject(_:db:keepingUndecodableTransformables:)`` too).
    static func value(of statement: OpaquePointer, at index: Int) -> SQLValue {
        SQLValue(DatabaseValue(sqliteStatement: statement, index: CInt(index)))
    }

    func kind(at index: Int) -> SQLCellKind {
        switch sqlite3_column_type(statement, CInt(index)) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        default: .blob
        }
    }

    func integer(at index: Int) -> Int64 { sqlite3_column_int64(statement, CInt(index)) }
    func real(at index: Int) -> Double { sqlite3_column_double(statement, CInt(index)) }

    func text(at index: Int) -> String {
        // By its length, as SQLite gives it (no scan for the terminating NUL); a NULL pointer
        // (out of memory) reads as empty.
        guard let text = sqlite3_column_text(statement, CInt(index)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, CInt(index)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}
