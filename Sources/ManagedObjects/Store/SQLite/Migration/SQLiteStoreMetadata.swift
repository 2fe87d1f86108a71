import DataModel
import Foundation
import GRDB

/// The metadata of an SQLite store (`Z_METADATA`): writing it for a model, reading it back
/// without opening the store.
package enum SQLiteStoreMetadata {
    /// The binary property list a new store (or a migrated one) keeps in `Z_METADATA.Z_PLIST`,
    /// with the model's version hashes and identifiers.
    package static func propertyList(
        for model: ManagedObjectModel, identifier: String, storeType: PersistentStoreType = .sqlite
    ) throws -> Data {
        let metadata: [String: Any] = [
            "NSStoreType": storeType.rawValue,
            "NSStoreUUID": identifier,
            "NSStoreModelVersionIdentifiers": Array(model.versionIdentifiers.sorted()),
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionHashes": model.entityVersionHashesByName,
            "_NSAutoVacuumLevel": "2",
        ]
        return try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
    }

    /// The metadata dictionary of `Z_METADATA.Z_PLIST`, with `NSStoreUUID` from `Z_UUID`.
    static func read(_ db: Database) throws -> [String: Any] {
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
    /// file (134080 not SQLite or corrupt, 134020 not a Core Data store).
    static func readStore<T>(at path: String, _ body: (Database) throws -> T) throws -> T {
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
        configuration.readonly = true
        // Only reads here: turning foreign keys on would cost a statement per open and guard nothing.
        configuration.foreignKeysEnabled = false
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                guard try db.tableExists("Z_METADATA"), try db.tableExists("Z_PRIMARYKEY") else {
                    throw ManagedObjectError(
                        .persistentStoreIncompatibleSchema, "\(path) is an SQLite file but not a Core Data store (no Z_METADATA or Z_PRIMARYKEY table)")
                }
                return try body(db)
            }
        } catch let error as ManagedObjectError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && error.message?.contains("no such table") == true {
            throw ManagedObjectError(.persistentStoreIncompatibleSchema, "\(path) is not a Core Data store: \(error)")
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot open the SQLite store \(path): \(error)")
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
    static func primaryKeys(_ db: Database) throws -> [String: (number: Int64, max: Int64)] {
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
    /// `metadataForPersistentStore(ofType:at:options:)`. Throws 134080 for a file that is not an
    /// SQLite store, 134020 for one that is not a Core Data store, 134000 for other store types.
    public static func metadataForPersistentStore(ofType type: PersistentStoreType, at url: URL) throws -> [String: Any] {
        guard type == .sqlite else {
            throw ManagedObjectError(.persistentStoreInvalidType, "store type \(type.rawValue) keeps no metadata in a file: \(url.path)")
        }
        return try SQLiteStoreMetadata.readStore(at: url.path, SQLiteStoreMetadata.read)
    }
}
