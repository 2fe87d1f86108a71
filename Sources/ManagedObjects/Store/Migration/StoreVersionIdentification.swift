import DataModel
import Foundation
import GRDB

/// Which version of a model wrote an SQLite store.
///
/// A store says it by its version hashes (``ModelVersionHash``, equal to Core Data's). A store
/// whose hashes no version has (written by this runtime before its hashes were Core Data's, or
/// by a model not among the versions) is identified by its schema: a version whose tables and
/// columns (``CoreDataSchema``) the store has, its `Z_PRIMARYKEY` naming that version's entities,
/// the most exact layout first. Of several alike
/// (a bundle may hold identical versions), the one named by the store's
/// `NSStoreModelVersionIdentifiers` wins, then the version it is opened with, the current one,
/// the latest. The identification reads a ``StoreLayout``, which each store type reads its own way.
package enum StoreVersionIdentification {
    /// What the identification reads from a store.
    package struct StoreLayout {
        package var metadata: [String: Any]
        /// `Z_PRIMARYKEY`: entity number and `Z_MAX` by stored entity name.
        package var primaryKeys: [String: (number: Int64, max: Int64)]
        /// Entity tables and join tables (not Core Data's own bookkeeping tables), with their
        /// column names, uppercased.
        package var tables: [String: Set<String>]
        /// The highest `Z_PK` of each entity table (uppercased name).
        package var highestRowKeys: [String: Int64]

        /// Core Data's own tables, which are not the model's.
        package static let bookkeepingTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

        package init(
            metadata: [String: Any], primaryKeys: [String: (number: Int64, max: Int64)], tables: [String: Set<String>],
            highestRowKeys: [String: Int64] = [:]
        ) {
            self.metadata = metadata
            self.primaryKeys = primaryKeys
            self.tables = tables
            self.highestRowKeys = highestRowKeys
        }

        package static func read(_ db: Database) throws -> StoreLayout {
            var tables: [String: Set<String>] = [:]
            var highestRowKeys: [String: Int64] = [:]
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            for name in names where name.hasPrefix("Z") && !bookkeepingTables.contains(name.uppercased()) {
                let columns = try Set(db.columns(in: name).map { $0.name.uppercased() })
                tables[name.uppercased()] = columns
                if columns.contains("Z_PK") {
                    // Z_PK is the rowid: its maximum is one lookup.
                    highestRowKeys[name.uppercased()] = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \"\(name)\"") ?? 0
                }
            }
            return StoreLayout(
                metadata: try SQLiteStoreMetadata.read(db), primaryKeys: try SQLiteStoreMetadata.primaryKeys(db),
                tables: tables, highestRowKeys: highestRowKeys)
        }

        /// How many of the store's columns `model` does not lay out, when the store has every
        /// table and column of `model` and the same entities (by name or renaming identifier);
        /// `nil` when it does not. 0: the store lays out exactly as `model`.
        func extraColumns(beyond model: ManagedObjectModel) -> Int? {
            let (numbers, missing) = CoreDataSchema.storedNumbers(primaryKeys.mapValues(\.number), of: model)
            guard missing.isEmpty, numbers.count == primaryKeys.count else { return nil }
            let schema = CoreDataSchema(model: model, existingNumbers: numbers)
            var expected: [String: Set<String>] = [:]
            for table in schema.tables {
                expected[table.name.uppercased()] = Set(["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map { $0.name.uppercased() })
            }
            for join in schema.joinTables {
                expected[join.name.uppercased()] = Set([join.firstColumn, join.secondColumn, join.firstOrderColumn, join.secondOrderColumn]
                    .compactMap { $0?.uppercased() })
            }
            guard Set(expected.keys) == Set(tables.keys) else { return nil }
            var extra = 0
            for (name, columns) in expected {
                guard let present = tables[name], present.isSuperset(of: columns) else { return nil }
                extra += present.count - columns.count
            }
            return extra
        }
    }

    /// The index in `versions` of the version that wrote the store at `path`, or `nil` when none
    /// did. Of versions that lay out alike, `preferred` (the version the store is opened with) wins
    /// after the store's version identifiers.
    static func sourceVersionIndex(ofStoreAt path: String, among versions: ManagedObjectModelVersions, preferring preferred: Int? = nil) throws -> Int? {
        let layout = try SQLiteStoreMetadata.readStore(at: path, StoreLayout.read)
        return sourceVersionIndex(of: layout, among: versions, preferring: preferred)
    }

    package static func sourceVersionIndex(of layout: StoreLayout, among versions: ManagedObjectModelVersions, preferring preferred: Int?) -> Int? {
        // Versions the store's hashes name (several when versions are alike), else those whose
        // columns the store has: Core Data's own migrations may leave a removed attribute's
        // column in the table, so the ones it lays out most exactly (fewest columns left over).
        var candidates = versions.versions.indices.filter {
            ModelVersionHash.isConfiguration(nil, of: versions.versions[$0].model, hashes: versions.versions[$0].entityVersionHashes, compatibleWith: layout.metadata)
        }
        if candidates.isEmpty {
            let layouts = versions.versions.indices.compactMap { index in
                layout.extraColumns(beyond: versions.versions[index].model).map { (index: index, extra: $0) }
            }
            let fewest = layouts.map(\.extra).min()
            candidates = layouts.filter { $0.extra == fewest }.map(\.index)
        }
        let identifiers = Set(layout.metadata["NSStoreModelVersionIdentifiers"] as? [String] ?? []).subtracting([""])
        let named = candidates.filter { !versions.versions[$0].model.versionIdentifiers.isDisjoint(with: identifiers) }
        if !named.isEmpty { candidates = named }
        if let preferred, candidates.contains(preferred) { return preferred }
        if let current = candidates.first(where: { versions.versions[$0].name == versions.currentVersionName }) { return current }
        return candidates.last
    }
}

extension ManagedObjectModelVersions {
    /// The version that wrote the SQLite store at `url` (see `StoreVersionIdentification`),
    /// or `nil` when no version lays out as the store. Throws when the file is not a Core Data
    /// SQLite store (134080, 134020), naming it.
    public func sourceVersion(ofStoreAt url: URL) throws -> Version? {
        try StoreVersionIdentification.sourceVersionIndex(ofStoreAt: url.path, among: self).map { versions[$0] }
    }

    /// Whether opening the store at `url` with `model` (the current version by default) would
    /// migrate it: an earlier one of these versions wrote it. (A store of a later version is
    /// not migrated back: opening it fails.)
    public func isMigrationNecessary(forStoreAt url: URL, to model: ManagedObjectModel? = nil) throws -> Bool {
        guard let target = model ?? current else { return false }
        let targetIndex = index(of: target)
        guard let source = try StoreVersionIdentification.sourceVersionIndex(ofStoreAt: url.path, among: self, preferring: targetIndex)
        else { return false }
        guard let targetIndex else { return true }
        return targetIndex > source
    }
}
