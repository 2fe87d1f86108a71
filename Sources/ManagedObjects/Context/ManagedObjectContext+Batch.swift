import Foundation

extension ManagedObjectContext {
    // MARK: Executing batch requests

    /// Runs a batch request straight in the store, bypassing this context (Core Data's
    /// `execute(_:)`): the context's objects do not change until the changes are merged with
    /// ``mergeChanges(fromRemoteContextSave:into:)-([AnyHashable:Any],_)``. Throws for a request of another kind.
    func executeRequest(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        switch request {
        case let insert as BatchInsertRequest: try execute(insert)
        case let update as BatchUpdateRequest: try execute(update)
        case let delete as BatchDeleteRequest: try execute(delete)
        case let history as PersistentHistoryChangeRequest: try execute(history)
        default: throw ManagedObjectError(.persistentStoreOperation, "\(type(of: request)) is not a request a store executes")
        }
    }

    /// Inserts the request's rows as new objects in the store, all or none. Throws
    /// `invalidFetchRequest` for an unknown or abstract entity or a key that is not one of its
    /// attributes, `validation` (1550) for a value of the wrong type (naming the key and row),
    /// and `constraintConflict` (133021) when a row's constrained values are taken.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchInsertResult {
        let entity = try batchEntity(named: request.entityName, for: "batch insert")
        guard !entity.isAbstract else {
            throw ManagedObjectError(
                .invalidFetchRequest, "batch insert: \(entity.name) is abstract; insert a sub-entity", entityName: entity.name)
        }
        var rows = BatchInsertRows(entity: entity)
        if let objects = request.objectsToInsert {
            rows.reserve(objects.count)
            for dictionary in objects { try rows.append(dictionary) }
        } else if let handler = request.dictionaryHandler {
            var dictionary: [String: Any] = [:]
            while !handler(&dictionary) {
                try rows.append(dictionary)
                dictionary.removeAll(keepingCapacity: true)
            }
        } else if let handler = request.managedObjectHandler {
            while true {
                let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
                if handler(object) { break }
                try rows.append(object)
            }
        }
        var insert = StoreBatchInsert(entity: entity, attributes: rows.attributes, values: rows.values, rowCount: rows.count)
        insert.returnsObjectIDs = request.resultType == .objectIDs
        insert.updatesObjectsOnConstraintConflict = batchInsertUpdatesOnConstraintConflict
        (insert.transactionAuthor, insert.contextName) = (transactionAuthor, name)
        let store = try coordinator.store(for: entity)
        try coordinator.checkWritable(store, for: "a batch insert")
        let outcome = try store.batchInsert(insert)
        return BatchInsertResult(resultType: request.resultType, outcome: outcome)
    }

    /// Sets the request's attribute values on every matching object in the store, all or none.
    /// Throws `invalidFetchRequest` for an unknown entity, a key that is not one of its
    /// attributes or a predicate key path it does not have, and `validation` (1550) for a
    /// constant of the wrong type.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchUpdateResult {
        let entity = try batchEntity(named: request.entityName, for: "batch update")
        var values: [(attribute: AttributeDescription, value: StoreBatchValue)] = []
        for (key, value) in (request.propertiesToUpdate ?? [:]).sorted(by: { $0.key < $1.key }) {
            let attribute = try BatchInsertRows.storedAttribute(key, of: entity, in: "batch update")
            if let expression = value as? ObjectExpression {
                values.append((attribute, .expression(expression)))
            } else {
                values.append((attribute, .constant(try BatchInsertRows.storageValue(value, for: attribute, of: entity, in: "batch update"))))
            }
        }
        try checkBatchPredicate(request.predicate, of: entity, in: "batch update")
        var update = StoreBatchUpdate(entity: entity, predicate: request.predicate, values: values)
        update.includesSubentities = request.includesSubentities
        update.returnsObjectIDs = request.resultType == .updatedObjectIDsResultType
        (update.transactionAuthor, update.contextName) = (transactionAuthor, name)
        let store = try coordinator.store(for: entity)
        try coordinator.checkWritable(store, for: "a batch update")
        let outcome = try store.batchUpdate(update)
        return BatchUpdateResult(resultType: request.resultType, outcome: outcome)
    }

    /// Deletes the matching objects (or those with the request's IDs) in the store, applying
    /// their delete rules, all or none.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchDeleteResult {
        var delete: StoreBatchDelete
        let store: any PersistentStore
        if let objectIDs = request.objectIDs {
            guard let first = objectIDs.first else { return BatchDeleteResult(resultType: request.resultType, outcome: .init(count: 0, objectIDs: [])) }
            store = try coordinator.store(for: first.entity)
            if let other = objectIDs.first(where: { $0.entity.rootEntity !== first.entity.rootEntity }) {
                throw ManagedObjectError(
                    .invalidFetchRequest,
                    "batch delete: object IDs of different entities (\(first.entity.name) and \(other.entity.name)); give one entity's IDs",
                    entityName: other.entity.name, objectID: other)
            }
            if let foreign = objectIDs.first(where: { $0.storeIdentifier != store.identifier }) {
                throw ManagedObjectError(
                    .invalidFetchRequest, "batch delete: \(foreign) is not a saved object of the store holding \(first.entity.name)",
                    entityName: foreign.entity.name, objectID: foreign)
            }
            delete = StoreBatchDelete(objectIDs: objectIDs, entity: first.entity.rootEntity)
        } else {
            let fetch = request.fetchRequest
            let entity = try batchEntity(named: fetch.entityName, for: "batch delete")
            store = try coordinator.store(for: entity)
            guard fetch.fetchLimit == 0, fetch.fetchOffset == 0 else {
                throw ManagedObjectError(
                    .invalidFetchRequest, "batch delete: \(fetch) has a fetch limit or offset, which a batch delete does not take",
                    entityName: entity.name)
            }
            try checkBatchPredicate(fetch.predicate, of: entity, in: "batch delete")
            delete = StoreBatchDelete(entity: entity, predicate: fetch.predicate)
            delete.includesSubentities = fetch.includesSubentities
        }
        delete.returnsObjectIDs = request.resultType == .resultTypeObjectIDs
        (delete.transactionAuthor, delete.contextName) = (transactionAuthor, name)
        try coordinator.checkWritable(store, for: "a batch delete")
        let outcome = try store.batchDelete(delete)
        return BatchDeleteResult(resultType: request.resultType, outcome: outcome)
    }

    /// Whether a batch insert updates the object that has a row's constrained values instead
    /// of failing: Core Data upserts under a merge policy where the new values win (object
    /// trump, overwrite); under the others the batch fails with 133021.
    var batchInsertUpdatesOnConstraintConflict: Bool {
        mergePolicy == .mergeByPropertyObjectTrump || mergePolicy == .overwrite
    }

    private func batchEntity(named name: String, for kind: String) throws -> EntityDescription {
        guard let entity = managedObjectModel[name] else {
            throw ManagedObjectError(.invalidFetchRequest, "\(kind): the model has no entity named '\(name)'", entityName: name)
        }
        return entity
    }

    /// Checks a batch request's predicate as a fetch checks it: known key paths, bound variables.
    private func checkBatchPredicate(_ predicate: ObjectPredicate?, of entity: EntityDescription, in kind: String) throws {
        guard let predicate else { return }
        try entity.checkKeyPaths(predicate.keyPathsRead, in: "\(kind) of \(entity.name)")
        do {
            try predicate.checkBindings()
        } catch {
            throw ManagedObjectError(.invalidFetchRequest, "\(kind) of \(entity.name): \(error)", entityName: entity.name, underlying: error)
        }
    }

    // MARK: Merging changes made elsewhere

    /// Core Data's `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`, `NSDeletedObjectsKey` and
    /// the `…ObjectIDsKey` variants, the keys of a change dictionary.
    public static let insertedObjectsKey = "inserted"
    public static let updatedObjectsKey = "updated"
    public static let deletedObjectsKey = "deleted"
    public static let insertedObjectIDsKey = "inserted_objectIDs"
    public static let updatedObjectIDsKey = "updated_objectIDs"
    public static let deletedObjectIDsKey = "deleted_objectIDs"
    /// Core Data's `NSRefreshedObjectsKey` and `NSInvalidatedObjectsKey`: objects reloaded by a
    /// merge, and objects that left the context without being deleted here.
    public static let refreshedObjectsKey = "refreshed"
    public static let invalidatedObjectsKey = "invalidated"
    /// Core Data's `NSInvalidatedAllObjectsKey`: present in the change notification `reset()`
    /// posts, every object the context held having left it (their IDs).
    public static let invalidatedAllObjectsKey = "invalidatedAll"

    /// Changes made outside the contexts (a batch request, another coordinator): the typed form
    /// of the dictionary `mergeChanges(fromRemoteContextSave:into:)` takes.
    public struct RemoteChanges: Sendable {
        public var inserted: [ManagedObjectID]
        public var updated: [ManagedObjectID]
        public var deleted: [ManagedObjectID]

        public init(inserted: [ManagedObjectID] = [], updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []) {
            self.inserted = inserted
            self.updated = updated
            self.deleted = deleted
        }
    }

    /// Tells `contexts` about changes made in their store outside them (Core Data's
    /// `mergeChanges(fromRemoteContextSave:into:)`): the keys are ``insertedObjectsKey``,
    /// ``updatedObjectsKey``, ``deletedObjectsKey`` (or the `…ObjectIDsKey` ones), each with
    /// object IDs, their URIs or objects (arrays or sets). Values of other kinds are ignored.
    public static func mergeChanges(fromRemoteContextSave changes: [AnyHashable: Any], into contexts: [ManagedObjectContext]) {
        for context in contexts {
            func ids(_ keys: String...) -> [ManagedObjectID] {
                keys.flatMap { key -> [ManagedObjectID] in
                    guard let value = changes[key] else { return [] }
                    let elements: [Any] = (value as? [Any]) ?? (value as? Set<ManagedObjectID>).map(Array.init)
                        ?? (value as? Set<ManagedObject>).map(Array.init) ?? (value as? Set<URL>).map(Array.init) ?? []
                    return elements.compactMap { element in
                        switch element {
                        case let id as ManagedObjectID: id
                        case let object as ManagedObject: object.objectID
                        case let uri as URL: context.coordinator.managedObjectID(forURIRepresentation: uri)
                        default: nil
                        }
                    }
                }
            }
            context.merge(RemoteChanges(
                inserted: ids(insertedObjectsKey, insertedObjectIDsKey), updated: ids(updatedObjectsKey, updatedObjectIDsKey),
                deleted: ids(deletedObjectsKey, deletedObjectIDsKey)))
        }
    }

    /// `mergeChanges(fromRemoteContextSave:into:)` with typed changes.
    public static func mergeChanges(fromRemoteContextSave changes: RemoteChanges, into contexts: [ManagedObjectContext]) {
        for context in contexts { context.merge(changes) }
    }

    /// On the context's queue: deleted objects leave it, loaded updated ones are read again
    /// (keeping unsaved changes), and an objects-did-change notification names them and the
    /// inserted ones. The coordinator's cached rows of changed objects are dropped first, so
    /// faults fire with the store's values.
    private func merge(_ changes: RemoteChanges) {
        coordinator.rowCache.apply(saved: [], deleted: changes.updated + changes.deleted)
        performAndWait {
            var refreshed: [ManagedObject] = []
            for objectID in changes.updated {
                guard let object = registered[objectID], !object.isFault else { continue }
                refresh(object, mergeChanges: true)
                refreshed.append(object)
            }
            var removed: [ManagedObject] = []
            for objectID in changes.deleted {
                guard let object = registered[objectID] else { continue }
                forget(object)
                removed.append(object)
            }
            announceMerge(inserted: changes.inserted, refreshed: refreshed, removed: removed)
        }
    }
}

/// A batch insert's rows as a store takes them: every stored attribute of the entity, row after
/// row, in the attributes' storage types, model defaults where a row gives no value.
struct BatchInsertRows {
    let entity: EntityDescription
    let attributes: [AttributeDescription]
    private let columns: [String: Int]
    private let defaults: [Any?]
    private(set) var values: [Any?] = []
    private(set) var count = 0

    init(entity: EntityDescription) {
        self.entity = entity
        attributes = entity.attributes.filter { !$0.isTransient }
        columns = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        defaults = attributes.map(\.defaultValue)
    }

    mutating func reserve(_ rows: Int) {
        values.reserveCapacity(rows * attributes.count)
    }

    mutating func append(_ dictionary: [String: Any]) throws {
        let base = values.count
        values.append(contentsOf: defaults)
        for (key, value) in dictionary {
            guard let column = columns[key] else {
                throw ManagedObjectError(
                    .invalidFetchRequest,
                    "batch insert of \(entity.name), row \(count + 1): '\(key)' is not a stored attribute of \(entity.name)"
                        + (entity.relationship(named: key) != nil ? " (a batch insert cannot set relationships)" : ""),
                    entityName: entity.name, key: key)
            }
            values[base + column] = try Self.storageValue(value, for: attributes[column], of: entity, in: "batch insert of \(entity.name), row \(count + 1)")
        }
        count += 1
    }

    /// A row from an object a `managedObjectHandler` filled.
    mutating func append(_ object: ManagedObject) throws {
        let objectValues = object.values
        for attribute in attributes {
            values.append(try Self.storageValue(objectValues[attribute.index] as Any, for: attribute, of: entity, in: "batch insert of \(entity.name), row \(count + 1)"))
        }
        count += 1
    }

    /// The attribute a batch request names, which must be stored.
    static func storedAttribute(_ key: String, of entity: EntityDescription, in kind: String) throws -> AttributeDescription {
        guard let attribute = entity.attribute(named: key), !attribute.isTransient else {
            let what = entity.relationship(named: key) != nil ? "a relationship, which a batch request cannot set" : "not a stored attribute"
            throw ManagedObjectError(
                .invalidFetchRequest, "\(kind) of \(entity.name): '\(key)' is \(what)", entityName: entity.name, key: key)
        }
        return attribute
    }

    /// `value` in the attribute's storage type (`nil`, `NSNull`: no value), converted as
    /// `setValue(_:forKey:)` converts it; 1550 naming the attribute when it cannot be.
    static func storageValue(
        _ value: Any, for attribute: AttributeDescription, of entity: EntityDescription, in context: @autoclosure () -> String
    ) throws -> Any? {
        guard let value = PredicateValues.normalized(value) else { return nil }
        if AttributeValues.hasStorageType(value, attribute.type) { return value }
        guard let converted = AttributeValues.coerce(value, to: attribute.type) else {
            throw ManagedObjectError(
                .validation, "\(context()): \(attribute.name) cannot hold a \(type(of: value)) (\(attribute.type.rawValue) attribute)",
                entityName: entity.name, key: attribute.name, value: "\(value)")
        }
        return converted
    }
}
