import GRDB

extension SQLiteStore {
    /// Rebuilds the file without its free pages (SQLite's `VACUUM`): Core Data's
    /// `NSSQLiteManualVacuumOption`, which a store description's `vacuumsSQLiteStore` asks for.
    public func vacuum() throws {
        do {
            try pool.vacuum()
        } catch {
            throw ManagedObjectError(.persistentStoreOperation, "VACUUM of \(url?.path ?? identifier) failed: \(error)", underlying: error)
        }
    }

    /// Gathers the statistics SQLite's query planner reads (`ANALYZE`): Core Data's
    /// `NSSQLiteAnalyzeOption`, which a store description's `analyzesSQLiteStore` asks for.
    public func analyze() throws {
        do {
            try pool.writeWithoutTransaction { try $0.execute(sql: "ANALYZE") }
        } catch {
            throw ManagedObjectError(.persistentStoreOperation, "ANALYZE of \(url?.path ?? identifier) failed: \(error)", underlying: error)
        }
    }
}
