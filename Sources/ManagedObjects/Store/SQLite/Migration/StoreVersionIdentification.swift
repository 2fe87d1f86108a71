import DataModel
import Foundation
import GRDB

/// Which version of a model wrote an SQLite store.
///
/// A store this runtime wrote says it by its version hashes (``ModelVersionHash``). A store Core
/// Data wrote carries Core Data's own hashes, which are not reproduced here, so it is identified
/// by its schema: a version whose tables and columns (``SQLiteSchema``) the store has, its
/// `Z_PRIMARYKEY` naming that version's entities. Of several, the one named by the store's
/// `NSStoreModelVersionIdentifiers` wins, then those the store lays out most exactly (fewest
/// columns left over), the current version first, else the latest.
enum StoreVersionIdentification {
    /// What the identification reads from a store.
    struct StoreLayout {
        var metadata: [String: Any]
        /// `Z_PRIMARYKEY`: entity number and `Z_MAX` by stored entity name.
        var primaryKeys: [String: (number: Int64, max: Int64)]
        /// Entity tables and join tables (not Core Data's own bookkeeping tables), with their
        /// column names, uppercased.
        var tables: [String: Set<String>]

        static func read(_ db: Database) throws -> StoreLayout {
            var tables: [String: Set<String>] = [:]
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            for name in names where name.hasPrefix("Z") && !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(name.uppercased()) {
                tables[name.uppercased()] = try Set(db.columns(in: name).map { $0.name.uppercased() })
            }
            return StoreLayout(metadata: try SQLiteStoreMetadata.read(db), primaryKeys: try SQLiteStoreMetadata.primaryKeys(db), tables: tables)
        }

        /// How many of the store's columns `model` does not lay out, when the store has every
        /// table and column of `model` and the same entities (by name or renaming identifier);
        /// `nil` when it does not. 0: the store lays out exactly as `model`.
        func extraColumns(beyond model: ManagedObjectModel) -> Int? {
            let (numbers, missing) = SQLiteSchema.storedNumbers(primaryKeys.mapValues(\.number), of: model)
            guard missing.isEmpty, numbers.count == primaryKeys.count else { return nil }
            let schema = SQLiteSchema(model: model, existingNumbers: numbers)
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

    /// The index in `versions` of the version that wrote the store at `path`, or `nil` when none did.
    static func sourceVersionIndex(ofStoreAt path: String, among versions: ManagedObjectModelVersions) throws -> Int? {
        let layout = try SQLiteStoreMetadata.readStore(at: path, StoreLayout.read)
        return sourceVersionIndex(of: layout, among: versions)
    }

    static func sourceVersionIndex(of layout: StoreLayout, among versions: ManagedObjectModelVersions) -> Int? {
        if (layout.metadata[ModelVersionHash.algorithmKey] as? Int) == ModelVersionHash.algorithm {
            if let index = versions.versions.firstIndex(where: {
                ModelVersionHash.isConfiguration(nil, of: $0.model, hashes: $0.entityVersionHashes, compatibleWith: layout.metadata)
            }) {
                return index
            }
        }
        // Core Data's own migrations may leave a removed attribute's column in the table, so a
        // version whose columns the store has is a candidate too; one that lays out exactly ranks first.
        var candidates = versions.versions.indices.compactMap { index in
            layout.extraColumns(beyond: versions.versions[index].model).map { (index: index, extra: $0) }
        }
        let identifiers = Set(layout.metadata["NSStoreModelVersionIdentifiers"] as? [String] ?? []).subtracting([""])
        let named = candidates.filter { !versions.versions[$0.index].model.versionIdentifiers.isDisjoint(with: identifiers) }
        if !named.isEmpty { candidates = named }
        let fewest = candidates.map(\.extra).min()
        let closest = candidates.filter { $0.extra == fewest }.map(\.index)
        if let current = closest.first(where: { versions.versions[$0].name == versions.currentVersionName }) { return current }
        return closest.last
    }
}

extension ManagedObjectModelVersions {
    /// The version that wrote the SQLite store at `url` (see ``StoreVersionIdentification``),
    /// or `nil` when no version lays out as the store. Throws when the file is not a Core Data
    /// SQLite store (134080, 134020), naming it.
    public func sourceVersion(ofStoreAt url: URL) throws -> Version? {
        try StoreVersionIdentification.sourceVersionIndex(ofStoreAt: url.path, among: self).map { versions[$0] }
    }

    /// Whether opening the store at `url` with `model` (the current version by default) would
    /// migrate it: an earlier one of these versions wrote it. (A store of a later version is
    /// not migrated back: opening it fails.)
    public func isMigrationNecessary(forStoreAt url: URL, to model: ManagedObjectModel? = nil) throws -> Bool {
        guard let target = model ?? current, let source = try StoreVersionIdentification.sourceVersionIndex(ofStoreAt: url.path, among: self)
        else { return false }
        guard let targetIndex = index(of: target) else { return true }
        return targetIndex > source
    }
}
