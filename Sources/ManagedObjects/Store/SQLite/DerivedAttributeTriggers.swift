import Foundation
import GRDB

/// The triggers Core Data adds to a store for a derived attribute it keeps in SQL (named
/// `Z_DA_<table>_<entity>_<attribute>_…`: SampleModel2's `Z_DA_ZPAGE_Book_pagesCount_…` keep
/// `ZBOOK.ZPAGESCOUNT` counted as pages are inserted, moved and deleted). Each ends by calling
/// a function Core Data registers on its connections (`NSCoreDataDATrigger…`), which tells
/// Core Data the object's value changed; SQLite refuses any statement firing such a trigger
/// unless the function exists. Here the context computes the same value at the save
/// (`DerivedAttributes`), so the functions only have to exist, and the store must not write
/// over what the triggers computed.
enum DerivedAttributeTriggers {
    /// The functions the triggers of real stores call, each with the table, `Z_ENT`, `Z_PK`,
    /// the attribute's name and its new value (read from `sqlite_master` of CoreDataPlus's
    /// SampleModel2 stores).
    static let functionNames = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue",
        "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]

    /// Registers the functions on a connection, as ones that do nothing (any number of
    /// arguments, in case another version of Core Data passes others).
    static func register(in db: Database) {
        for name in functionNames {
            db.add(function: DatabaseFunction(name, pure: false) { _ in nil })
        }
    }

    /// The columns Core Data's derived-attribute triggers set in the store, as `TABLE.COLUMN`
    /// (upper case), from each `Z_DA_` trigger's `UPDATE <table> SET <column> =`.
    static func maintainedColumns(in db: Database) throws -> Set<String> {
        let sqls = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z\\_DA\\_%' ESCAPE '\\'")
        var columns: Set<String> = []
        for sql in sqls {
            for match in sql.matches(of: /UPDATE\s+(\w+)\s+SET\s+(\w+)\s*=/.ignoresCase()) {
                columns.insert("\(match.1).\(match.2)".uppercased())
            }
        }
        return columns
    }
}
