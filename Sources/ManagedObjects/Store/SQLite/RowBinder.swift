import GRDB
import GRDBSQLite

/// Binds values to a prepared statement through SQLite's C API, for the statement's next
/// execution by GRDB (which resets it first and keeps the bindings).
struct RowBinder {
    let statement: SQLiteStatement
    /// SQLite copies text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    /// Makes the statement ready for bindings after its last execution.
    func start() {
        sqlite3_reset(statement)
    }

    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
        case .real(let double): sqlite3_bind_double(statement, index, double)
        case .text(let string):
            // With its length in bytes: a text holding a NUL is kept whole (GRDB's own binding,
            // by C string, ends it at the NUL).
            var text = string
            text.withUTF8 { bytes in
                // An empty buffer may have no address, which would bind NULL: "" stays "".
                if let address = bytes.baseAddress {
                    let characters = UnsafeRawPointer(address).assumingMemoryBound(to: CChar.self)
                    _ = sqlite3_bind_text(statement, index, characters, Int32(bytes.count), Self.transient)
                } else {
                    _ = sqlite3_bind_text(statement, index, "", 0, Self.transient)
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
            }
        }
    }
}
