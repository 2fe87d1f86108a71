import DataModel
import Foundation
import GRDB
import ManagedObjects

/// What `managedgen inspect` reports about an SQLite store: its metadata, its entities and
/// their objects, join tables, external data, history, SQLite's integrity check and, given the
/// model, which version wrote it and how the version asked for can open it. Read from a private
/// copy of the store (``StoreSnapshot``): the store itself is never opened.
package struct StoreInspection: Codable, Sendable {
    package struct Entity: Codable, Sendable {
        package var name: String
        /// `Z_ENT`.
        package var number: Int64
        package var superentity: String?
        package var table: String
        /// Rows of the table with this entity's `Z_ENT`: objects of this entity alone.
        package var objects: Int
        /// With its sub-entities' objects.
        package var objectsWithSubentities: Int
        /// `Z_MAX`: the highest key handed out (kept by the hierarchy's root).
        package var highestKey: Int64
    }

    package struct JoinTable: Codable, Sendable {
        package var name: String
        package var rows: Int
    }

    package struct ExternalData: Codable, Sendable {
        package var folder: String
        package var files: Int
        package var bytes: Int
    }

    package struct History: Codable, Sendable {
        package var transactions: Int
        package var changes: Int
    }

    /// The store against a model's versions.
    package struct ModelMatch: Codable, Sendable {
        package var bundle: String
        /// The version that wrote the store; `nil`: none lays out as it.
        package var writtenBy: String?
        /// `version hashes` or `schema` (tables and columns; for stores whose hashes no version has).
        package var identifiedBy: String?
        /// The version the store would be opened with.
        package var target: String
        /// `as is`, `lightweight migration`, `migration with mapping models`, `needs a mapping model`, or `cannot open`.
        package var opening: String
        /// The migration's steps (`v1 → v2`), each `(inferred)` or by its mapping model.
        package var steps: [String]
        /// Why it needs a mapping model or cannot open, with Core Data's code.
        package var reasons: [String]
    }

    package var file: String
    package var storeType: String?
    package var uuid: String?
    package var frameworkVersion: Int?
    package var modelVersionIdentifiers: [String]
    /// Entity name → version hash, base64 (as the metadata plist keeps them).
    package var versionHashes: [String: String]
    package var entities: [Entity]
    package var joinTables: [JoinTable]
    package var externalData: ExternalData?
    package var history: History?
    /// `PRAGMA integrity_check`'s lines: `["ok"]` for a sound file.
    package var integrityCheck: [String]
    package var model: ModelMatch?

    /// Inspects the store at `path`; with `bundle`, against its versions (opening with
    /// `targetVersion`, else the current one; `mappingModels`: the app's). Throws naming the
    /// file when it is not a Core Data SQLite store or the model cannot be read.
    package init(storeAt path: String, bundle: String? = nil, targetVersion: String? = nil, mappingModels mappingPaths: [String] = []) throws {
        let snapshot = try StoreSnapshot(of: path)
        let versions = try bundle.map(ModelVersionsLoading.versions(at:))
        let mappings = try versions.map { try ModelVersionsLoading.mappingModels(at: mappingPaths, versions: $0) } ?? []
        let target = try versions.map { try ModelVersionsLoading.version(named: targetVersion, in: $0, bundle: bundle ?? "") }
        file = path
        var read: (metadata: [String: Any], layout: StoreVersionIdentification.StoreLayout?)
        do {
            (entities, joinTables, history, integrityCheck, read) = try SQLiteStoreMetadata.readStore(at: snapshot.url.path) { db in
                let metadata = try SQLiteStoreMetadata.read(db)
                let layout = versions == nil ? nil : try StoreVersionIdentification.StoreLayout.read(db)
                return (try Self.entities(db), try Self.joinTables(db), try Self.history(db), try Self.integrityCheck(db), (metadata, layout))
            }
        } catch let error as ManagedObjectError {
            throw StoreToolError(file: path, snapshot.originalPath(in: error.message) + " (\(error.code.rawValue))")
        }
        let metadata = read.metadata
        storeType = metadata["NSStoreType"] as? String
        uuid = metadata["NSStoreUUID"] as? String
        frameworkVersion = (metadata["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue
        modelVersionIdentifiers = (metadata["NSStoreModelVersionIdentifiers"] as? [String]) ?? []
        versionHashes = ((metadata["NSStoreModelVersionHashes"] as? [String: Data]) ?? [:]).mapValues { $0.base64EncodedString() }
        externalData = Self.externalData(ofStoreAt: snapshot.original)
        if let versions, let target, let layout = read.layout, let bundle {
            model = Self.match(
                layout: layout, versions: versions, target: target, mappingModels: mappings, bundle: bundle,
                objectsByEntity: Dictionary(entities.map { ($0.name, $0.objectsWithSubentities) }, uniquingKeysWith: +), store: path)
        }
    }

    /// Z_PRIMARYKEY's entities (not history's, numbered from 16000), with their objects counted
    /// by `Z_ENT` in their hierarchy's table (`Z` + the root entity's name, as Core Data names it).
    private static func entities(_ db: Database) throws -> [Entity] {
        let rows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        let entries = rows.compactMap { row -> (number: Int64, name: String, superNumber: Int64, max: Int64)? in
            guard let number = row["Z_ENT"] as Int64?, let name = row["Z_NAME"] as String? else { return nil }
            return (number, name, row["Z_SUPER"] as Int64? ?? 0, row["Z_MAX"] as Int64? ?? 0)
        }
        let byNumber = Dictionary(entries.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        func root(of number: Int64) -> Int64 {
            var current = number
            var seen: Set<Int64> = []
            while let parent = byNumber[current]?.superNumber, parent != 0, byNumber[parent] != nil, seen.insert(current).inserted {
                current = parent
            }
            return current
        }
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'").map { $0.uppercased() })
        var counts: [Int64: Int] = [:]
        for table in Set(entries.map { "Z" + (byNumber[root(of: $0.number)]?.name ?? $0.name).uppercased() }) where tables.contains(table) {
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, COUNT(*) FROM \(table) GROUP BY Z_ENT") {
                if let number = row[0] as Int64? { counts[number, default: 0] += row[1] as Int? ?? 0 }
            }
        }
        func withSubentities(_ number: Int64) -> Int {
            (counts[number] ?? 0) + entries.filter { $0.superNumber == number && $0.number != number }.map { withSubentities($0.number) }.reduce(0, +)
        }
        return entries.map { entry in
            let rootNumber = root(of: entry.number)
            return Entity(
                name: entry.name, number: entry.number, superentity: entry.superNumber == 0 ? nil : byNumber[entry.superNumber]?.name,
                table: "Z" + (byNumber[rootNumber]?.name ?? entry.name).uppercased(), objects: counts[entry.number] ?? 0,
                objectsWithSubentities: withSubentities(entry.number), highestKey: byNumber[rootNumber]?.max ?? entry.max)
        }
    }

    /// Tables `Z_<n><NAME>`: the join tables of many-to-many relationships.
    private static func joinTables(_ db: Database) throws -> [JoinTable] {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return try names.filter { $0.range(of: "^Z_[0-9]+[A-Z]", options: [.regularExpression, .caseInsensitive]) != nil }.map { name in
            JoinTable(name: name, rows: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(name)\"") ?? 0)
        }
    }

    /// Persistent history (`ATRANSACTION`, `ACHANGE`); `nil` when the store keeps none.
    private static func history(_ db: Database) throws -> History? {
        guard try db.tableExists("ATRANSACTION") else { return nil }
        return History(
            transactions: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION") ?? 0,
            changes: try db.tableExists("ACHANGE") ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE") ?? 0 : 0)
    }

    private static func integrityCheck(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
    }

    /// The files in the store's external data folder; `nil` when it has none.
    private static func externalData(ofStoreAt url: URL) -> ExternalData? {
        let folder = ExternalBinaryData(storeAt: url).directory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        let sizes = names.map { name in
            ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size] as? Int) ?? 0
        }
        return ExternalData(folder: folder.path, files: names.count, bytes: sizes.reduce(0, +))
    }

    /// Which version wrote the store, and what opening it with `target` takes: the runtime's
    /// identification, steps and inference (``MigrationPlanning``).
    private static func match(
        layout: StoreVersionIdentification.StoreLayout, versions: ManagedObjectModelVersions, target: ManagedObjectModelVersions.Version,
        mappingModels: [(name: String, model: MappingModel)], bundle: String, objectsByEntity: [String: Int], store: String
    ) -> ModelMatch {
        let targetIndex = versions.index(of: target.model)
        var match = ModelMatch(bundle: bundle, target: target.name, opening: "cannot open", steps: [], reasons: [])
        guard let sourceIndex = StoreVersionIdentification.sourceVersionIndex(of: layout, among: versions, preferring: targetIndex) else {
            match.reasons = ["no version of \(bundle) has the store's version hashes or lays out as its tables (134020)"]
            return match
        }
        let source = versions.versions[sourceIndex]
        match.writtenBy = source.name
        match.identifiedBy = source.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: layout.metadata) ? "version hashes" : "schema"
        guard sourceIndex != targetIndex else {
            match.opening = "as is"
            return match
        }
        do {
            let outlines = try MigrationPlanning.outlines(
                versions: versions, fromVersionAt: sourceIndex, to: target, mappingModels: mappingModels, storeLayout: layout,
                objectsByEntity: objectsByEntity, store: store)
            match.steps = outlines.map { "\($0.sourceVersion) → \($0.destinationVersion) (\($0.mappingModel.map { "mapping model \($0)" } ?? "inferred"))" }
            let blockers = outlines.flatMap(\.blockers)
            match.reasons = blockers.map { "\($0.reason) (\($0.code))" }
            if blockers.contains(where: { $0.code == ManagedObjectError.Code.migrationMissingMappingModel.rawValue }) {
                match.opening = "needs a mapping model"
            } else if !blockers.isEmpty {
                match.opening = "cannot open"
            } else {
                match.opening = outlines.contains { $0.mappingModel != nil } ? "migration with mapping models" : "lightweight migration"
            }
        } catch let error as ManagedObjectError {
            match.reasons = ["\(error.message) (\(error.code.rawValue))"]
        } catch {
            match.reasons = ["\(error)"]
        }
        return match
    }
}
