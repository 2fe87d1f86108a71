import GRDB

/// SQLite pragmas a store sets on each of its connections as it opens: Core Data's
/// `NSSQLitePragmasOption` (`["synchronous": "OFF", "cache_size": "4000"]`).
///
/// `journal_mode` is the one pragma not set: the store reads beside a save through SQLite's
/// write-ahead log (a GRDB pool), which it keeps, so `WAL` is what a store has whatever is asked.
public struct SQLitePragmas: Sendable, Equatable {
    /// Values by pragma name, as SQLite reads them (`OFF`, `4000`, `FULL`).
    public private(set) var values: [String: String]

    /// Pragmas by name. A name that is not an SQL identifier, or a value that is not a word or a
    /// number, throws `persistentStoreOpen` (134080) naming it: they are written into the SQL.
    public init(_ values: [String: String] = [:]) throws(ManagedObjectError) {
        for (name, value) in values {
            guard Self.isIdentifier(name), !value.isEmpty, value.allSatisfy(Self.isValueCharacter) else {
                throw ManagedObjectError(
                    .persistentStoreOpen, "SQLite pragma \(name) = \(value): a pragma is a name and a word or number")
            }
        }
        self.values = values
    }

    /// No pragmas.
    public init() { values = [:] }

    /// Sets each pragma but `journal_mode` on `db`, in name order. A read-only connection (a
    /// pool's readers) skips a pragma that would write the file (`user_version`): the writer
    /// connection sets it, and throws if it cannot.
    func apply(to db: Database) throws {
        for name in values.keys.sorted() where name.lowercased() != "journal_mode" {
            do {
                try db.execute(sql: "PRAGMA \(name) = \(values[name]!)")
            } catch let error as DatabaseError where db.configuration.readonly && error.resultCode == .SQLITE_READONLY {
                continue
            }
        }
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    private static func isValueCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "_-.".contains(character))
    }
}
