import Foundation

/// Read-only stores (Core Data's `NSReadOnlyPersistentStoreOption` and `NSPersistentStore.isReadOnly`):
/// fetched from as any other, but a save or batch request that would change one throws 134030
/// (`persistentStoreSave`) before anything is written, to it or to the coordinator's other stores.
extension PersistentStoreCoordinator {
    /// Whether the coordinator refuses changes to `store`.
    public func isReadOnly(_ store: any PersistentStore) -> Bool {
        readOnlyStoreIdentifiers.withLock { $0.contains(store.identifier) }
    }

    /// Makes `store` (one of the coordinator's) read-only, or writable again.
    public func setReadOnly(_ readOnly: Bool, for store: any PersistentStore) {
        readOnlyStoreIdentifiers.withLock { identifiers in
            if readOnly { identifiers.insert(store.identifier) } else { identifiers.remove(store.identifier) }
        }
    }

    /// Throws 134030 when `store` is read-only; `operation` names what was refused.
    func checkWritable(_ store: any PersistentStore, for operation: String) throws {
        guard isReadOnly(store) else { return }
        throw Self.readOnlyError(store, operation: operation)
    }

    /// Throws 134030 when a save would change a read-only store: a new object whose entity's store
    /// is read-only, or a changed or deleted object of such a store.
    func checkWritable<Objects: Sequence<ManagedObject>>(inserted: Objects, updated: Objects, deleted: Objects) throws {
        let readOnly = readOnlyStoreIdentifiers.withLock { $0 }
        guard !readOnly.isEmpty else { return }
        for object in inserted {
            let target = object.objectID.isTemporaryID ? try store(for: object.entity) : store(for: object.objectID)
            if let target, readOnly.contains(target.identifier) {
                throw Self.readOnlyError(target, operation: "saving a new \(object.entity.name)")
            }
        }
        for changed in [updated, deleted] {
            for object in changed {
                if let target = store(for: object.objectID), readOnly.contains(target.identifier) {
                    throw Self.readOnlyError(target, operation: "saving changes to \(object.objectID)")
                }
            }
        }
    }

    private static func readOnlyError(_ store: any PersistentStore, operation: String) -> ManagedObjectError {
        ManagedObjectError(
            .persistentStoreSave,
            "\(operation): the store \(store.identifier)" + (store.url.map { " at \($0.path)" } ?? "") + " is read-only")
    }
}
