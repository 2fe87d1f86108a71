import Foundation
import GRDB

/// The SQLite store's side of ``SQLValue``: GRDB binds and reads it as its own values.
extension SQLValue: DatabaseValueConvertible {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let real): self = .real(real)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }

    package var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }

    package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> SQLValue? {
        SQLValue(dbValue)
    }
}

extension Row {
    /// The value of a column as `Value`; `nil` when it is NULL or a value of another kind. GRDB's
    /// own subscript stops the program on a value it cannot convert, and a damaged store file
    /// may hold anything anywhere.
    func convertible<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
        Value.fromDatabaseValue(self[column] as DatabaseValue)
    }

    /// `convertible(_:)` by position.
    func convertible<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        Value.fromDatabaseValue(self[index] as DatabaseValue)
    }

    /// The cell at `index`.
    func sqlValue(_ index: Int) -> SQLValue {
        SQLValue(self[index] as DatabaseValue)
    }
}
