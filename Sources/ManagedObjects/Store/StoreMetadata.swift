import Foundation

/// A store's metadata dictionary (Core Data's `NSPersistentStore.metadata`) and the one rule
/// for replacing it: what every store type shares.
package enum StoreMetadata {
    /// The keys that say which model wrote the store, which opening and migrating read. A
    /// replacement that leaves them out keeps the store's own, so the store still opens
    /// (Core Data's documentation tells callers to start from the store's metadata instead).
    static let modelKeys = ["NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers"]

    /// `given` as the store's new metadata: its keys as given (unknown ones untouched), the
    /// store's type and UUID (which a replacement cannot change: the UUID names the store in
    /// every permanent object ID, the type says how the file is read), and the model keys of
    /// `current` that `given` leaves out.
    package static func replacing(
        _ current: [String: Any], with given: [String: Any], type: PersistentStoreType, identifier: String
    ) -> [String: Any] {
        var result = given
        result["NSStoreType"] = type.rawValue
        result["NSStoreUUID"] = identifier
        for key in modelKeys where result[key] == nil { result[key] = current[key] }
        return result
    }

    /// `metadata` as a property list of `format`. Throws 134070 naming `store` and the keys
    /// whose values are not property-list values.
    static func propertyList(_ metadata: [String: Any], format: PropertyListSerialization.PropertyListFormat, store: String) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: metadata, format: format, options: 0)
        } catch {
            let keys = metadata.keys.filter { !PropertyListSerialization.propertyList(metadata[$0]!, isValidFor: format) }
            throw ManagedObjectError(
                .persistentStoreOperation,
                "the metadata of \(store) is not a property list (keys \(keys.sorted().joined(separator: ", "))): \(error)", underlying: error)
        }
    }

    /// The metadata a store without a file starts with (the in-memory store's, a custom store's).
    static func initial(type: PersistentStoreType, identifier: String) -> [String: Any] {
        ["NSStoreType": type.rawValue, "NSStoreUUID": identifier]
    }

    /// The metadata of stores that keep none themselves (custom stores using the protocol's
    /// default): in memory for the life of the store, as Core Data's `NSPersistentStore` base
    /// class keeps it. Weak, so a gone store's entry is dropped and its identity never reused.
    private static let kept = LockedValue<[ObjectIdentifier: (store: Weak, metadata: [String: Any])]>([:])

    private struct Weak {
        weak var store: AnyObject?
    }

    static func kept(for store: any PersistentStore) -> [String: Any] {
        kept.withLock { entries in
            guard let entry = entries[ObjectIdentifier(store)], entry.store.store === store else {
                return initial(type: store.type, identifier: store.identifier)
            }
            return entry.metadata
        }
    }

    static func keep(_ metadata: [String: Any], for store: any PersistentStore) {
        let metadata = replacing(kept(for: store), with: metadata, type: store.type, identifier: store.identifier)
        kept.withLock { entries in
            entries = entries.filter { $0.value.store.store != nil }
            entries[ObjectIdentifier(store)] = (Weak(store: store), metadata)
        }
    }
}

/// A store's metadata as it is saved and as it is set for the next save, guarded by a lock
/// (stores are used from every context's queue).
package final class StoreMetadataState: @unchecked Sendable {
    // Unchecked: `saved` and `pending` are used only while holding `lock`; property-list
    // values are immutable value types or Foundation objects never mutated after set.
    private let lock = NSLock()
    private var saved: [String: Any]
    private var pending: [String: Any]?
    /// Counts the settings, so a save clears only the setting it wrote.
    private var setting = 0

    package init(saved: [String: Any]) { self.saved = saved }

    /// What `metadata` reads: the metadata set for the next save, else the saved one.
    package var current: [String: Any] { lock.withLock { pending ?? saved } }

    /// Sets the metadata the next save writes (see ``StoreMetadata/replacing(_:with:type:identifier:)``).
    package func set(_ metadata: [String: Any], type: PersistentStoreType, identifier: String) {
        lock.withLock {
            pending = StoreMetadata.replacing(pending ?? saved, with: metadata, type: type, identifier: identifier)
            setting += 1
        }
    }

    /// The metadata to write with a save, if it was set since the last one, and which setting it is.
    package var unsaved: (metadata: [String: Any], setting: Int)? {
        lock.withLock { pending.map { ($0, setting) } }
    }

    /// After a save wrote an `unsaved` setting: it is the saved metadata now, and no longer
    /// pending unless set again meanwhile.
    package func didSave(_ written: (metadata: [String: Any], setting: Int)) {
        lock.withLock {
            saved = written.metadata
            if setting == written.setting { pending = nil }
        }
    }
}
