/// The SQL a translation is written in: the few words in which SQLite's and PostgreSQL's
/// statements differ (Booleans, parameters).
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
}
