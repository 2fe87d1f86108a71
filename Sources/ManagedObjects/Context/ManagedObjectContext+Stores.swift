import Foundation

/// Which store a context's new objects go to, when the coordinator has several (its model's
/// configurations assign entities to stores).
extension ManagedObjectContext {
    /// Puts a new object in `store` when it is saved, instead of the first store holding its
    /// entity: Core Data's `assign(_:to:)`. The save throws 134070 when `store` is not one of the
    /// coordinator's or its configuration does not hold the object's entity. An object that is
    /// not new (or has its permanent ID already) is left where it is.
    public func assign(_ object: ManagedObject, to store: any PersistentStore) {
        guard object.managedObjectContext === self, object.objectID.isTemporaryID else { return }
        assignedStores[object.objectID] = store.identifier
    }

    /// The store a new object goes to: the one it is assigned to, else the first that holds its
    /// entity. Throws 134070 naming the object for an assignment the coordinator cannot keep.
    func targetStore(of object: ManagedObject) throws -> any PersistentStore {
        guard let identifier = assignedStores[object.objectID] else { return try coordinator.store(for: object.entity) }
        guard let store = coordinator.store(withIdentifier: identifier) else {
            throw ManagedObjectError(
                .persistentStoreOperation, "\(object.objectID) is assigned to store \(identifier), which is not one of the coordinator's",
                entityName: object.entity.name, objectID: object.objectID)
        }
        guard coordinator.store(store, holds: object.entity) else {
            throw ManagedObjectError(
                .persistentStoreOperation,
                "\(object.objectID) is assigned to store \(identifier), whose configuration "
                    + "\(coordinator.configurationName(of: store) ?? "Default") does not hold entity \(object.entity.name)",
                entityName: object.entity.name, objectID: object.objectID)
        }
        return store
    }

    /// Refuses a save whose relationships join objects of different stores: a store keeps only
    /// its own objects, so it could not keep the other end (Core Data does not support
    /// cross-store relationships either). Throws 134070 naming the object, the key and both
    /// stores. Checked only when the coordinator has several stores.
    static func checkRelationshipsStayInTheirStore(_ changes: StoreChangeSet) throws {
        for object in changes.inserted + changes.updated {
            let store = object.objectID.storeIdentifier
            let entity = object.objectID.entity
            for (index, value) in object.values.enumerated() {
                let related: [ManagedObjectID]
                switch value {
                case .toOne(let id?): related = [id]
                case .toMany(let ids): related = ids
                default: continue
                }
                guard let other = related.first(where: { $0.storeIdentifier != store }) else { continue }
                let key = entity.properties[index].name
                throw ManagedObjectError(
                    .persistentStoreOperation,
                    "relationship '\(key)' of \(object.objectID) (store \(store ?? "?")) names \(other) of another store "
                        + "(\(other.storeIdentifier ?? "?")): relationships between objects of different stores are not supported",
                    entityName: entity.name, objectID: object.objectID, key: key)
            }
        }
    }
}
