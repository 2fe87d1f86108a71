import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// The models `StoreSaveLoop migrate` migrates between (mirrors `MigrationModels` there).
enum MigrationCrashModels {
    static let v1 = ManagedObjectModel(Model(entities: [
        Entity(name: "Entry", attributes: [
            Attribute(name: "batch", type: .integer64, isOptional: true),
            Attribute(name: "item", type: .integer64, isOptional: true),
        ]),
    ]))
    static let v2 = ManagedObjectModel(Model(entities: [
        Entity(name: "Entry", attributes: [
            Attribute(name: "batch", type: .integer64, isOptional: true),
            Attribute(name: "position", type: .integer64, isOptional: true, renamingIdentifier: "item"),
            Attribute(name: "tag", type: .string, defaultValueString: "migrated"),
        ]),
    ]))
    static let versions = ManagedObjectModelVersions(versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])
}

@Suite("Migration: a process killed while migrating")
struct SQLiteMigrationCrashTests {
    static let rows = 200_000

    /// A v1 store of `rows` entries (item = Z_PK * 3), written by the runtime and filled in SQL.
    static func makeTemplate(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("template.sqlite")
        let context = try sqliteContext(MigrationCrashModels.v1, at: url)
        try context.performAndWait {
            _ = ManagedObject(entity: MigrationCrashModels.v1["Entry"]!, insertInto: context)
            try context.save()
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(k) AS (SELECT 2 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
                INSERT INTO ZENTRY (Z_PK, Z_ENT, Z_OPT, ZBATCH, ZITEM) SELECT k, 1, 1, k / 8, k * 3 FROM n
                """)
            try db.execute(sql: "UPDATE ZENTRY SET ZBATCH = 0, ZITEM = 3 WHERE Z_PK = 1")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows)")
        }
        try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        try queue.close()
        return url
    }

    static func copyStore(_ template: URL, to url: URL) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: template, to: url)
    }

    /// Opens the store with `model` (no migration) and counts its entries; the store is closed after.
    static func countThroughTheRuntime(_ store: URL, model: ManagedObjectModel) throws -> Int {
        let context = try sqliteContext(model, at: store)
        return try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Entry")) }
    }

    /// Runs the migration child; kills it `delay` seconds after it said it starts migrating
    /// (never when `delay` is nil). Returns whether it reported the migration done.
    static func runMigration(of store: URL, killAfter delay: Double?) throws -> Bool {
        try SQLiteCrashSafetyTests.runSaveLoop(["migrate", store.path], killAfter: delay).contains("migrated\n")
    }

    @Test("after each of 20 kills mid-migration the store is the old one intact or the new one complete",
          .timeLimit(.minutes(5)))
    func killedWhileMigrating() throws {
        try #require(FileManager.default.isExecutableFile(atPath: SQLiteCrashSafetyTests.saveLoopExecutable.path),
                     "build StoreSaveLoop first (swift build)")
        let files = try TemporaryDirectory()
        let template = try Self.makeTemplate(in: files)
        let store = files.file("Store.sqlite")
        // How long a whole migration takes here: the kills fall within it.
        try Self.copyStore(template, to: store)
        let start = Date()
        #expect(try Self.runMigration(of: store, killAfter: nil))
        let duration = Date().timeIntervalSince(start)

        var outcomes: [String: Int] = [:]
        for run in 1...20 {
            try Self.copyStore(template, to: store)
            _ = try Self.runMigration(of: store, killAfter: Double.random(in: 0...duration))
            let version = try MigrationCrashModels.versions.sourceVersion(ofStoreAt: store)?.name
            let model = version == "v2" ? MigrationCrashModels.v2 : MigrationCrashModels.v1
            let column = version == "v2" ? "ZPOSITION" : "ZITEM"
            let summary = try rawSQL(store.path, "SELECT COUNT(*), SUM(\(column)), SUM(\(column) = Z_PK * 3), MAX(Z_PK) FROM ZENTRY")
            #expect(summary == "\(Self.rows)|\(3 * Self.rows * (Self.rows + 1) / 2)|\(Self.rows)|\(Self.rows)",
                    "run \(run): the \(version ?? "unknown") store holds \(summary)")
            #expect(try rawSQL(store.path, "PRAGMA integrity_check") == "ok", "run \(run)")
            if version == "v2" {
                #expect(try rawSQL(store.path, "SELECT COUNT(*) FROM ZENTRY WHERE ZTAG = 'migrated'") == String(Self.rows), "run \(run)")
            }
            #expect(try Self.countThroughTheRuntime(store, model: model) == Self.rows, "run \(run)")
            outcomes[version ?? "unknown", default: 0] += 1
            // An interrupted migration runs again from the start.
            if version == "v1" {
                #expect(try Self.runMigration(of: store, killAfter: nil), "run \(run): migrating again")
                #expect(try MigrationCrashModels.versions.sourceVersion(ofStoreAt: store)?.name == "v2")
            }
        }
        #expect(outcomes["unknown"] == nil)
        print("migration kills: \(outcomes) (a whole migration of \(Self.rows) rows: \(Int(duration * 1000)) ms)")
    }
}
