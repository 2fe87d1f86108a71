import Foundation

/// A cell or a parameter of a statement, as every SQL store holds one: SQLite's storage classes,
/// which the PostgreSQL store's columns hold too (``CoreDataSchema/columnType(_:dialect:)``). The
/// engine, the row reader and Core Data's column encodings (``CoreDataValues``) speak of values in
/// it, so a store's driver types stay in its adapter.
package enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// `value` as an integer cell, NULL for `nil`.
    package static func integer(orNull value: Int64?) -> SQLValue {
        value.map(SQLValue.integer) ?? .null
    }

    package var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The cell read as an integer as SQLite reads one: an integer, a real cut to its whole
    /// part (`nil` out of range); `nil` for anything else.
    package var int64Value: Int64? {
        switch self {
        case .integer(let integer): integer
        case .real(let real): real >= Double(Int64.min) && real < Double(Int64.max) ? Int64(real) : nil
        default: nil
        }
    }

    package var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// An integer or a real cell as a Double.
    package var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: nil
        }
    }

    /// A text cell, or a blob read as UTF-8 text.
    package var stringValue: String? {
        switch self {
        case .text(let text): text
        case .blob(let data): String(data: data, encoding: .utf8)
        default: nil
        }
    }

    /// A blob cell, or a text cell's UTF-8 bytes.
    package var dataValue: Data? {
        switch self {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }
}
