
/// The SQL a statement is written in: the few words in which SQLite's and PostgreSQL's
/// statements differ (Booleans, parameters, sets of keys).
package enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL

    var `true`: String { self == .sqlite ? "1" : "TRUE" }
    var `false`: String { self == .sqlite ? "0" : "FALSE" }

    /// `sql` with its `?` parameters as PostgreSQL's `$1`, `$2`, …: translated SQL holds no `?`
    /// but parameters (values are never SQL text).
    package static func numberingParameters(_ sql: String) -> String {
        var numbered = ""
        numbered.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                numbered += "$\(number)"
            } else {
                numbered.append(character)
            }
        }
        return numbered
    }

    /// A condition that `column` holds one of the keys of one parameter bound to ``keySet(_:)``,
    /// however many keys there are: SQLite reads them from a JSON array, PostgreSQL from an
    /// array literal.
    package func isOneOfKeys(_ column: String) -> String {
        switch self {
        case .sqlite: "\(column) IN (SELECT value FROM json_each(?))"
        case .postgreSQL: "\(column) = ANY(?::bigint[])"
        }
    }

    /// Keys as the one parameter of ``isOneOfKeys(_:)``.
    package func keySet(_ keys: some Sequence<Int64>) -> SQLValue {
        let list = keys.map(String.init).joined(separator: ",")
        return .text(self == .sqlite ? "[\(list)]" : "{\(list)}")
    }
}
