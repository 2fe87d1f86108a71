import DataModel
import Foundation
import GRDB

/// One step of a migration: the store file written with `source` copied into a new file laid
/// out for `destination`, with the mapping Core Data's lightweight migration infers
/// (``InferredMigrationPlan``), in one transaction. Indexes and uniqueness constraints are the
/// destination's (created with the schema); `Z_PRIMARYKEY`'s `Z_MAX` keeps every key handed out.
struct SQLiteMigrationStep {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel

    /// The cells are copied as they are, so they name the same external files; those of an
    /// attribute that allows external storage in one version only are converted (a large value
    /// getting a new file; a file no longer named is removed once the migration is in place).
    func run(from sourcePath: String, to destinationPath: String, externalData: ExternalBinaryData) throws {
        let layout = try SQLiteStoreMetadata.readStore(at: sourcePath, StoreVersionIdentification.StoreLayout.read)
        let plan = try InferredMigrationPlan.sqlite(from: source, to: destination, storeLayout: layout, store: sourcePath)
        let statements = try plan.copyStatements()
        let identifier = layout.metadata["NSStoreUUID"] as? String ?? UUID().uuidString
        var writtenFiles: [String] = []
        do {
            let queue = try DatabaseQueue(path: destinationPath)
            defer { try? queue.close() }
            // No journal and no syncs while the new file is built: a crash leaves it unused (it
            // replaces the store only once complete), and it is synced once, whole, before that.
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
            }
            try SQLiteStore.create(
                schema: plan.destinationSchema, model: destination, identifier: identifier, in: queue, path: destinationPath,
                keeping: layout.metadata)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [sourcePath])
            }
            try queue.write { db in
                for statement in statements {
                    do {
                        try db.execute(sql: statement.sql, arguments: StatementArguments(statement.arguments))
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        throw ManagedObjectError(
                            .migration, "the \(statement.entity) objects of \(sourcePath) break a uniqueness constraint of the new version: \(error.message ?? "")",
                            entityName: statement.entity)
                    }
                }
                for toggled in plan.toggledExternalBinaryColumns() {
                    try convertExternalBinaryCells(toggled, externalData: externalData, written: &writtenFiles, db: db)
                }
                for check in plan.requiredValueChecks() {
                    let missing = try Int.fetchOne(db, sql: check.countSQL) ?? 0
                    if missing > 0 { throw check.error(missing: missing, store: sourcePath) }
                }
                for (table, highest) in plan.destinationHighestKeys() {
                    try db.execute(
                        sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(?, (SELECT COALESCE(MAX(Z_PK), 0) FROM \(table.name))) WHERE Z_ENT = ?",
                        arguments: [highest, plan.destinationSchema.entityNumbers[table.root.name]])
                }
            }
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "DETACH DATABASE source")
                // Core Data's stores are in WAL mode; the mode is kept in the file.
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            try queue.close()
            try SQLiteStoreMigration.synchronize(destinationPath)
        } catch let error as ManagedObjectError {
            externalData.removeFiles(writtenFiles)
            throw error
        } catch {
            externalData.removeFiles(writtenFiles)
            throw ManagedObjectError(.migration, "migrating \(sourcePath) failed: \(error)", underlying: error)
        }
    }

    /// Rewrites a copied column's cells to or from Core Data's external-storage form.
    private func convertExternalBinaryCells(
        _ toggled: (table: String, column: String, toExternal: Bool), externalData: ExternalBinaryData, written: inout [String], db: Database
    ) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, \(toggled.column) FROM \(toggled.table) WHERE \(toggled.column) IS NOT NULL")
        let update = try db.makeStatement(sql: "UPDATE \(toggled.table) SET \(toggled.column) = ? WHERE Z_PK = ?")
        for row in rows {
            guard let key = Int64.fromDatabaseValue(row[0]), case .blob(let cell) = (row[1] as DatabaseValue).storage else { continue }
            let converted = toggled.toExternal
                ? try externalData.cell(for: cell, previousCell: nil, attribute: toggled.column, objectID: nil, written: &written)
                : try externalData.value(ofCell: cell, attribute: "\(toggled.table).\(toggled.column) of row \(key)", objectID: nil)
            try update.execute(arguments: [converted, key])
        }
    }
}

extension InferredMigrationPlan {
    /// The plan of an SQLite store's step from `source` to `destination`. `storeLayout`: the
    /// store's, read from the file migrated (its entity numbers and highest keys); `nil`: a store
    /// laid out as `source` lays out a new one, for a plan made without a store (`managedgen diff`).
    package static func sqlite(
        from source: ManagedObjectModel, to destination: ManagedObjectModel,
        storeLayout layout: StoreVersionIdentification.StoreLayout?, store: String
    ) throws -> InferredMigrationPlan {
        guard let layout else {
            return try InferredMigrationPlan(
                source: source, destination: destination, sourceSchema: CoreDataSchema(model: source),
                destinationSchema: CoreDataSchema(model: destination), sourceHighestKeys: [:])
        }
        let (sourceSchema, numbers) = try CoreDataSchema.migrationSource(
            source, numbersByStoredName: layout.primaryKeys.mapValues(\.number), store: store)
        // The highest key each source table handed out (its root entity's Z_MAX, or a higher key
        // a row holds).
        var highestKeys: [String: Int64] = [:]
        for table in sourceSchema.tables {
            let number = numbers[table.root.name]
            highestKeys[table.name] = max(
                layout.primaryKeys.values.first { $0.number == number }?.max ?? 0, layout.highestRowKeys[table.name.uppercased()] ?? 0)
        }
        return try InferredMigrationPlan(
            source: source, destination: destination, sourceSchema: sourceSchema,
            destinationSchema: CoreDataSchema(model: destination), sourceHighestKeys: highestKeys)
    }
}
