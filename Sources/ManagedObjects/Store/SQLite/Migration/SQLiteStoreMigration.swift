import DataModel
import Foundation
import GRDB

/// Migrates an SQLite store written with one version of a model to another version, inferring
/// the mapping as Core Data's lightweight migration does.
///
/// Each step goes from one version to the next in the bundle's order (v1 → v2 → … → target), so
/// renaming identifiers are read against the version they refer to. A step writes a new file
/// beside the store (`<store>.migrating.<n>`) and the last one replaces the store only when
/// complete, by an atomic rename: a failure or a crash at any moment leaves either the old store
/// as it was or the migrated one. The store's UUID stays.
public enum SQLiteStoreMigration {
    /// What a store description allows (``StoreMigrationOptions``, which every store type takes).
    public typealias Options = StoreMigrationOptions

    /// Migrates the store at `url` to `model` when one of the other versions wrote it. Does
    /// nothing when `model` wrote it or no version lays out as the store (opening then judges
    /// the store). Throws, leaving the store as it was: 134100 when migration is off,
    /// 134140 when a mapping cannot be inferred (naming entity and property), 134110 when the
    /// data does not fit the new version (a required value missing, a uniqueness constraint).
    public static func migrateIfNeeded(storeAt url: URL, to model: ManagedObjectModel, options: Options) throws {
        try migrateIfNeeded(storeAt: url, to: model, options: options, progress: { _, _ in })
    }

    /// ``migrateIfNeeded(storeAt:to:options:)``, telling `progress` as each step starts (its
    /// index, and the step) and once more when the migrated store is in place (index = count):
    /// `managedgen migrate` shows it.
    package static func migrateIfNeeded(
        storeAt url: URL, to model: ManagedObjectModel, options: Options, progress: (_ index: Int, _ steps: [StoreMigration.Step]) -> Void
    ) throws {
        let path = url.path
        let targetIndex = options.modelVersions.index(of: model)
        guard let sourceIndex = try StoreVersionIdentification.sourceVersionIndex(ofStoreAt: path, among: options.modelVersions, preferring: targetIndex),
              let steps = try StoreMigration.steps(fromVersionAt: sourceIndex, to: model, options: options, store: path)
        else { return }
        // Each step through its mapping model, else inferred.
        let plan: [any MigrationStep] = steps.map { step in
            if let mapping = step.mappingModel {
                MappingModelMigrationStep(source: step.source.model, destination: step.destination.model, mappingModel: mapping)
            } else {
                SQLiteMigrationStep(source: step.source.model, destination: step.destination.model)
            }
        }
        try migrate(storeAt: url, through: plan, willRunStep: { progress($0, steps) })
        progress(steps.count, steps)
    }

    /// Migrates the store at `url` through each step, and swaps the result in.
    static func migrate(storeAt url: URL, through steps: [any MigrationStep], willRunStep: (Int) -> Void = { _ in }) throws {
        let path = url.path
        removeLeftovers(of: path)
        // The old store's committed WAL goes into its main file first, so that file alone is the
        // whole store when the migrated file replaces it (a stale WAL must never meet the new file).
        try checkpoint(path)
        var current = path
        var written: [String] = []
        // External binary data: every step's new store keeps its files in the store's own
        // folder (a step through a mapping model writes new ones; an inferred step copies the
        // cells, so the same files). The files no row of the migrated store names go once it
        // is in place; those the steps wrote go if it never is.
        let externalData = ExternalBinaryData(storeAt: url)
        let original = try steps.first.map { try externalFiles(of: path, model: $0.source) } ?? []
        var referenced = original
        do {
            for (number, step) in steps.enumerated() {
                let destination = "\(path).migrating.\(number)"
                written.append(destination)
                willRunStep(number)
                do {
                    try step.run(from: current, to: destination, externalData: externalData)
                } catch {
                    // A step that failed may have written files its store does not name.
                    referenced.formUnion((try? externalFiles(of: destination, model: step.destination)) ?? [])
                    throw error
                }
                referenced.formUnion(try externalFiles(of: destination, model: step.destination))
                if current != path { removeFiles(of: current) }
                current = destination
            }
            try swap(migrated: current, into: path)
        } catch {
            for file in written { removeFiles(of: file) }
            externalData.removeFiles(referenced.subtracting(original))
            throw error
        }
        if let last = steps.last {
            externalData.removeFiles(referenced.subtracting((try? externalFiles(of: path, model: last.destination)) ?? referenced))
        }
    }

    /// The external binary data files the cells of the store at `path` (written with `model`)
    /// name; none without a Binary attribute that allows external storage.
    /// Moves the committed write-ahead log of the store file at `path` into the file and empties
    /// the log, so the file alone is the whole store.
    static func checkpoint(_ path: String) throws {
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try queue.close()
        } catch {
            throw ManagedObjectError(.migration, "cannot prepare \(path) for migration: \(error)", underlying: error)
        }
    }

    static func externalFiles(of path: String, model: ManagedObjectModel) throws -> Set<String> {
        let externalAttributes = model.entities.flatMap { entity in
            entity.attributes.filter { $0.type == .binary && $0.attribute.allowsExternalBinaryDataStorage }.map { (entity, $0) }
        }
        guard !externalAttributes.isEmpty else { return [] }
        return try SQLiteStoreMetadata.readStore(at: path) { db in
            let numbers = CoreDataSchema.storedNumbers(try SQLiteStoreMetadata.primaryKeys(db).mapValues(\.number), of: model).numbers
            let schema = CoreDataSchema(model: model, existingNumbers: numbers)
            var columns: Set<[String]> = []
            for (entity, attribute) in externalAttributes {
                guard case .attribute(let column, _)? = schema.storage[entity.name]?[attribute.index] else { continue }
                columns.insert([schema.table(of: entity).name, column])
            }
            var names: Set<String> = []
            for column in columns {
                let cells = try Data.fetchCursor(db, sql: "SELECT \(column[1]) FROM \(column[0]) WHERE \(column[1]) IS NOT NULL")
                while let cell = try cells.next() {
                    if let name = ExternalBinaryData.fileName(ofCell: cell) { names.insert(name) }
                }
            }
            return names
        }
    }

    /// Replaces the store at `path` by the complete file at `migrated`, atomically.
    private static func swap(migrated: String, into path: String) throws {
        let manager = FileManager.default
        // The old store's WAL was checkpointed and truncated; one that is not empty now means
        // another process saved during the migration, whose save would be lost.
        let wal = path + "-wal"
        if let size = (try? manager.attributesOfItem(atPath: wal)[.size] as? Int) ?? nil, size > 0 {
            removeFiles(of: migrated)
            throw ManagedObjectError(.migration, "\(path) was written to while it was being migrated; it is left as it was")
        }
        try? manager.removeItem(atPath: wal)
        try? manager.removeItem(atPath: path + "-shm")
        guard rename(migrated, path) == 0 else {
            let reason = String(cString: strerror(errno))
            removeFiles(of: migrated)
            throw ManagedObjectError(.migration, "cannot put the migrated store in place of \(path): \(reason)")
        }
    }

    /// Writes a file's data to disk (fsync), so that it is complete there before a rename
    /// makes it the store.
    static func synchronize(_ path: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw ManagedObjectError(.migration, "cannot open \(path) to write it to disk")
        }
        defer { try? handle.close() }
        try handle.synchronize()
    }

    /// Files an interrupted migration left beside the store.
    private static func removeLeftovers(of path: String) {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + ".migrating."
        let directory = url.deletingLastPathComponent().path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    private static func removeFiles(of path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// One version to the next, from one file into a new one. External binary data is in
/// `externalData`'s folder for both (the store's own: the files move with no file).
protocol MigrationStep {
    var source: ManagedObjectModel { get }
    var destination: ManagedObjectModel { get }
    func run(from sourcePath: String, to destinationPath: String, externalData: ExternalBinaryData) throws
}

extension SQLiteMigrationStep: MigrationStep {}
extension MappingModelMigrationStep: MigrationStep {}
