import Foundation
import ManagedObjects
import PostgresNIO

/// Lightweight migration of a PostgreSQL store: the SQLite store's (the same identification of
/// the version that wrote the store, ``StoreVersionIdentification``, the same steps,
/// ``StoreMigration``, the same inferred mapping, ``InferredMigrationPlan``), in PostgreSQL's
/// SQL and all in the opening transaction.
///
/// Each step moves the old tables and key sequences into a schema of their own (made for the
/// step, so the user needs CREATE on the database; their index names stay free), creates the
/// new version's tables, copies the rows across, checks them and drops the old tables. DDL is
/// transactional in PostgreSQL, so a failure at any point rolls everything back: the database
/// is as it was. The store's UUID stays; each table's key sequence continues past every key
/// handed out before. The opening transaction holds the store's advisory lock, so a second
/// process opening the store waits, then finds it migrated.
enum PostgreSQLStoreMigration {
    /// Migrates the store in `connection`'s schema to `model` when one of the other versions
    /// wrote it; nothing when `model` wrote it, the schema has no store, or no version lays out
    /// as the store (opening then judges the tables). Runs in the caller's transaction. Throws
    /// (the caller rolling back): 134100 when migration is off, 134140 when a mapping cannot be
    /// inferred (naming entity and property), 134110 when the data does not fit the new version
    /// (a required value missing, a uniqueness constraint) or a mapping model is given.
    static func migrateIfNeeded(
        to model: ManagedObjectModel, options: StoreMigrationOptions, pool: PostgreSQLConnectionPool, connection: PostgresConnection
    ) throws {
        let store = "the PostgreSQL database \(pool.location)"
        guard let layout = try readLayout(pool: pool, connection: connection) else { return }
        let versions = options.modelVersions
        guard let sourceIndex = StoreVersionIdentification.sourceVersionIndex(of: layout.layout, among: versions, preferring: versions.index(of: model)),
              let steps = try StoreMigration.steps(fromVersionAt: sourceIndex, to: model, options: options, store: store)
        else { return }
        if let mapped = steps.first(where: { $0.mappingModel != nil }) {
            throw ManagedObjectError(
                .migration,
                "\(store) is migrated by inferred mappings only; the mapping model from \(mapped.source.name) to \(mapped.destination.name) is not supported")
        }
        for step in steps {
            do {
                try run(step, identifier: layout.identifier, keeping: layout.layout.metadata, store: store, pool: pool, connection: connection)
            } catch let error as ManagedObjectError {
                throw error
            } catch {
                throw ManagedObjectError(
                    .migration,
                    "migrating \(store) from model version \(step.source.name) to \(step.destination.name) failed: \(PostgreSQLConnectionPool.describe(error))", underlying: error)
            }
        }
    }

    /// What the version identification reads, and the store's UUID; `nil` when the schema has
    /// no store.
    private static func readLayout(
        pool: PostgreSQLConnectionPool, connection: PostgresConnection
    ) throws -> (layout: StoreVersionIdentification.StoreLayout, identifier: String)? {
        let present = try pool.query("SELECT to_regclass('z_metadata') IS NOT NULL", on: connection)
        guard let row = present.first, (try? row.decode(Bool.self)) == true else { return nil }
        guard let first = try pool.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1", on: connection).first,
              case let cells = PostgresRandomAccessRow(first),
              let identifier = PostgreSQLConnectionPool.value(cells[0]).stringValue else { return nil }
        var metadata = PostgreSQLConnectionPool.value(cells[1]).dataValue.flatMap {
            try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any]
        } ?? [:]
        metadata["NSStoreUUID"] = identifier
        // Unquoted names are folded to lower case by PostgreSQL; the layout's are upper case.
        var tables: [String: Set<String>] = [:]
        for row in try pool.query(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()", on: connection) {
            guard let (table, column) = try? row.decode((String, String).self) else { continue }
            let name = table.uppercased()
            if name.hasPrefix("Z"), !StoreVersionIdentification.StoreLayout.bookkeepingTables.contains(name) {
                tables[name, default: []].insert(column.uppercased())
            }
        }
        let layout = StoreVersionIdentification.StoreLayout(
            metadata: metadata, primaryKeys: try primaryKeys(pool: pool, connection: connection), tables: tables)
        return (layout, identifier)
    }

    /// `Z_PRIMARYKEY`'s entity numbers and `Z_MAX` by stored entity name.
    private static func primaryKeys(pool: PostgreSQLConnectionPool, connection: PostgresConnection) throws -> [String: (number: Int64, max: Int64)] {
        var result: [String: (number: Int64, max: Int64)] = [:]
        for row in try pool.query("SELECT Z_NAME, Z_ENT, Z_MAX FROM Z_PRIMARYKEY", on: connection) {
            if let (name, number, max) = try? row.decode((String, Int64, Int64?).self) { result[name] = (number, max ?? 0) }
        }
        return result
    }

    /// One step, in the caller's transaction: the old tables moved aside, the new ones created
    /// and filled (with the metadata's other keys, an app's, `kept`), the old ones dropped.
    private static func run(
        _ step: StoreMigration.Step, identifier: String, keeping kept: [String: Any], store: String,
        pool: PostgreSQLConnectionPool, connection: PostgresConnection
    ) throws {
        let (source, destination) = (step.source.model, step.destination.model)
        let (sourceSchema, _) = try CoreDataSchema.migrationSource(
            source, numbersByStoredName: try primaryKeys(pool: pool, connection: connection).mapValues(\.number), store: store)
        // The highest key each source table handed out: its sequence's last (a key obtained but
        // never saved included), or a higher key a row holds.
        var highestKeys: [String: Int64] = [:]
        for table in sourceSchema.tables {
            let row = try pool.query(
                """
                SELECT GREATEST((SELECT COALESCE(MAX(Z_PK), 0) FROM \(table.name)), \
                (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM \(sourceSchema.keySequence(of: table))))
                """, on: connection).first
            highestKeys[table.name] = (try? row?.decode(Int64.self)) ?? 0
        }
        // A schema of this migration's own, gone when it commits or rolls back.
        let holding = "z_migrating_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let plan = try InferredMigrationPlan(
            source: source, destination: destination, sourceSchema: sourceSchema,
            destinationSchema: CoreDataSchema(model: destination), sourceHighestKeys: highestKeys,
            dialect: .postgreSQL, sourceQualifier: holding)
        let statements = try plan.copyStatements()

        try pool.execute("CREATE SCHEMA \(holding)", on: connection)
        for table in sourceSchema.tables {
            try pool.execute("ALTER TABLE \(table.name) SET SCHEMA \(holding)", on: connection)
            try pool.execute("ALTER SEQUENCE \(sourceSchema.keySequence(of: table)) SET SCHEMA \(holding)", on: connection)
        }
        for table in sourceSchema.joinTables.map(\.name) + StoreVersionIdentification.StoreLayout.bookkeepingTables.sorted() {
            try pool.execute("ALTER TABLE \(table) SET SCHEMA \(holding)", on: connection)
        }
        try PostgreSQLStore.create(model: destination, identifier: identifier, pool: pool, connection: connection, keeping: kept)
        for statement in statements {
            do {
                try pool.execute(statement.sql, statement.arguments, on: connection)
            } catch {
                guard let error = PostgreSQLConnectionPool.serverError(of: error, withState: "23505") else { throw error }
                throw ManagedObjectError(
                    .migration,
                    "the \(statement.entity) objects of \(store) break a uniqueness constraint of the new version: \(PostgreSQLConnectionPool.describe(error))",
                    entityName: statement.entity, underlying: error)
            }
        }
        for check in plan.requiredValueChecks() {
            let missing = try pool.query(check.countSQL, on: connection).first.flatMap { try? $0.decode(Int64.self) } ?? 0
            if missing > 0 { throw check.error(missing: Int(missing), store: store) }
        }
        // Each new table's keys continue past every key its source tables handed out.
        for (table, highest) in plan.destinationHighestKeys() {
            try pool.execute(
                """
                SELECT setval('\(plan.destinationSchema.keySequence(of: table))', next) \
                FROM (SELECT GREATEST(?, (SELECT COALESCE(MAX(Z_PK), 0) FROM \(table.name))) AS next) AS highest WHERE next > 0
                """,
                [.integer(highest)], on: connection)
        }
        try pool.execute("DROP SCHEMA \(holding) CASCADE", on: connection)
    }
}
