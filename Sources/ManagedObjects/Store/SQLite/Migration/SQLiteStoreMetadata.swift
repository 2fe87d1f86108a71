import DataModel
import Foundation
import GRDB

/// The metadata of an SQLite store (`Z_METADATA`): writing it for a model, reading it back
/// without opening the store.
package enum SQLiteStoreMetadata {
    /// The Core Data framework version (`NSCoreDataVersionNumber`) a new store says wrote it:
    /// the newest among the real stores in `shared/stores` (Scout's, 1526), whose key set a new
    /// store has. It cannot be derived; see Docs/RuntimeDifferences.md ("Stores").
    static let frameworkVersion = 1526

    /// The binary property list a new store (or a migrated one) keeps in `Z_METADATA.Z_PLIST`
    /// (``dictionary(for:identifier:storeType:keeping:)`` without `NSStoreUUID`, which Core Data
    /// keeps in `Z_UUID` alone).
    package static func propertyList(
        for model: ManagedObjectModel, identifier: String, storeType: PersistentStoreType = .sqlite, keeping kept: [String: Any] = [:]
    ) throws -> Data {
        try propertyList(
            of: dictionary(for: model, identifier: identifier, storeType: storeType, keeping: kept), storedPropertyList: nil, store: identifier)
    }

    /// The metadata of a new store (or a migrated one) for `model`, with the keys Core Data
    /// writes (learnt from the real stores: `shared/stores`) and their value types. `kept`: the
    /// metadata of the store a migration replaces, whose other keys (an app's) stay.
    package static func dictionary(
        for model: ManagedObjectModel, identifier: String, storeType: PersistentStoreType = .sqlite, keeping kept: [String: Any] = [:]
    ) -> [String: Any] {
        kept.merging([
            "NSStoreType": storeType.rawValue,
            "NSStoreUUID": identifier,
            "NSStoreModelVersionIdentifiers": Array(model.versionIdentifiers.sorted()),
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionHashes": model.entityVersionHashesByName,
            "NSStoreModelVersionHashesDigest": model.versionHashesDigest,
            "NSStoreModelVersionChecksumKey": model.versionChecksum,
            "NSPersistenceFrameworkVersion": frameworkVersion,
            "NSPersistenceMaximumFrameworkVersion": frameworkVersion,
            "_NSAutoVacuumLevel": "2",
        ]) { _, new in new }
    }

    /// The binary property list `metadata` is kept as in `Z_METADATA.Z_PLIST`, for a store
    /// whose plist is `stored` now. Core Data keeps the UUID in `Z_UUID` and leaves it out of
    /// the plist; it is written there only where the plist had it. Throws 134070 naming
    /// `store` and the key when a value is not a property-list value.
    package static func propertyList(of metadata: [String: Any], storedPropertyList stored: Data?, store: String) throws -> Data {
        var dictionary = metadata
        let storedDictionary = stored.flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any] }
        if storedDictionary?["NSStoreUUID"] == nil { dictionary["NSStoreUUID"] = nil }
        return try StoreMetadata.propertyList(dictionary, format: .binary, store: store)
    }

    /// Replaces `Z_METADATA.Z_PLIST` with `metadata` (``propertyList(of:storedPropertyList:store:)``);
    /// `Z_UUID` stays.
    static func write(_ metadata: [String: Any], _ db: Database, store: String) throws {
        let row = try Row.fetchOne(db, sql: "SELECT Z_VERSION, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        guard let row, let version = (row.convertible("Z_VERSION") as Int64?) else {
            throw ManagedObjectError(.persistentStoreIncompatibleSchema, "\(store) has no store metadata (Z_METADATA is empty)")
        }
        let plist = try propertyList(of: metadata, storedPropertyList: row.convertible("Z_PLIST") as Data?, store: store)
        try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = ?", arguments: [plist, version])
    }

    /// The metadata dictionary of `Z_METADATA.Z_PLIST`, with `NSStoreUUID` from `Z_UUID`.
    package static func read(_ db: Database) throws -> [String: Any] {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        else { return [:] }
        var dictionary = (row.convertible("Z_PLIST") as Data?).flatMap {
            try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any]
        } ?? [:]
        dictionary["NSStoreUUID"] = (row.convertible("Z_UUID") as String?)
        return dictionary
    }

    /// Runs `body` on a read-only connection to the store file at `path`, after checking that
    /// it is an SQLite file with Core Data's tables, so that nothing is changed: errors name the
    /// file (134080 not SQLite or corrupt, 134020 not a Core Data store). `writing`: `body` runs
    /// in a write transaction instead (the checks still come first).
    package static func readStore<T>(at path: String, writing: Bool = false, _ body: (Database) throws -> T) throws -> T {
        let file = FileHandle(forReadingAtPath: path)
        let header = (try? file?.read(upToCount: 16)) ?? nil
        try? file?.close()
        guard let header else {
            throw ManagedObjectError(.persistentStoreOpen, "there is no store file at \(path)")
        }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw ManagedObjectError(.persistentStoreOpen, "\(path) is not an SQLite file")
        }
        var configuration = Configuration()
        configuration.readonly = !writing
        // Only reads here (or the metadata row): foreign keys would cost a statement and guard nothing.
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(10) // a coordinator saving to the file: wait, as a save does
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            let checkedBody = { (db: Database) throws -> T in
                guard try db.tableExists("Z_METADATA"), try db.tableExists("Z_PRIMARYKEY") else {
                    throw ManagedObjectError(
                        .persistentStoreIncompatibleSchema, "\(path) is an SQLite file but not a Core Data store (no Z_METADATA or Z_PRIMARYKEY table)")
                }
                return try body(db)
            }
            return try writing ? queue.write(checkedBody) : queue.read(checkedBody)
        } catch let error as ManagedObjectError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && error.message?.contains("no such table") == true {
            throw ManagedObjectError(.persistentStoreIncompatibleSchema, "\(path) is not a Core Data store: \(error)", underlying: error)
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot open the SQLite store \(path): \(error)", underlying: error)
        }
    }

    /// Whether the file at `path` is an SQLite database whose schema is empty: no table, no
    /// index, nothing. `false` for anything else, a file that is not SQLite included.
    static func holdsNoSchema(at path: String) -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.foreignKeysEnabled = false
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return false }
        defer { try? queue.close() }
        return (try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }) == 0
    }

    /// `Z_PRIMARYKEY`'s entity numbers and `Z_MAX` by stored entity name.
    package static func primaryKeys(_ db: Database) throws -> [String: (number: Int64, max: Int64)] {
        var result: [String: (number: Int64, max: Int64)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY") {
            if let name = (row.convertible("Z_NAME") as String?), let number = (row.convertible("Z_ENT") as Int64?) {
                result[name] = (number, (row.convertible("Z_MAX") as Int64?) ?? 0)
            }
        }
        return result
    }
}

extension PersistentStoreCoordinator {
    /// The metadata of the store at `url` without adding it: `NSStoreType`, `NSStoreUUID`,
    /// `NSStoreModelVersionHashes`, `NSStoreModelVersionIdentifiers`, … Core Data's
    /// `metadataForPersistentStore(ofType:at:options:)`, for SQLite, binary and XML store files.
    /// Throws 134080 for a file that is not a store of `type`, 134020 for an SQLite file that
    /// is not a Core Data store, 134000 for other store types.
    public static func metadataForPersistentStore(ofType type: PersistentStoreType, at url: URL) throws -> [String: Any] {
        if AtomicStore.format(of: type) != nil { return try AtomicStore.metadataOfFile(at: url, type: type) }
        guard type == .sqlite else {
            throw ManagedObjectError(.persistentStoreInvalidType, "store type \(type.rawValue) keeps no metadata in a file: \(url.path)")
        }
        return try SQLiteStoreMetadata.readStore(at: url.path, SQLiteStoreMetadata.read)
    }

    /// Replaces the metadata of the store file at `url` without adding the store: Core Data's
    /// `setMetadata(_:forPersistentStoreOfType:at:options:)`. The store's type and UUID stay,
    /// and its model keys when `metadata` leaves them out (``PersistentStore/metadata``); every
    /// other key is written as given. Throws as ``metadataForPersistentStore(ofType:at:)``, and
    /// 134070 for a value that is not a property-list value. A coordinator that has the store
    /// open keeps the metadata it read (set it through ``setMetadata(_:for:)`` instead).
    public static func setMetadata(_ metadata: [String: Any], forPersistentStoreOfType type: PersistentStoreType, at url: URL) throws {
        if AtomicStore.format(of: type) != nil { return try AtomicStore.setMetadata(metadata, ofFileAt: url, type: type) }
        guard type == .sqlite else {
            throw ManagedObjectError(.persistentStoreInvalidType, "store type \(type.rawValue) keeps no metadata in a file: \(url.path)")
        }
        try SQLiteStoreMetadata.readStore(at: url.path, writing: true) { db in
            let current = try SQLiteStoreMetadata.read(db)
            let replaced = StoreMetadata.replacing(
                current, with: metadata, type: .sqlite, identifier: current["NSStoreUUID"] as? String ?? "")
            try SQLiteStoreMetadata.write(replaced, db, store: url.path)
        }
    }

    /// The metadata of a store of this coordinator (``PersistentStore/metadata``): Core Data's
    /// `metadata(for:)`.
    public func metadata(for store: any PersistentStore) -> [String: Any] {
        store.metadata
    }

    /// Sets the metadata of a store of this coordinator, written with the store's next save:
    /// Core Data's `setMetadata(_:for:)`. `nil` keeps only the store's own keys.
    public func setMetadata(_ metadata: [String: Any]?, for store: any PersistentStore) {
        store.metadata = metadata ?? [:]
    }
}
