import Foundation
import OrderedCollections

/// Where a context reads what it has not changed itself: its parent context (a child context
/// sees its parent's unsaved changes), the store view it is pinned to (a query generation), or
/// the coordinator's store. Every read of the context goes through these methods.
extension ManagedObjectContext {
    /// The row cache the context's faults fire from: the coordinator's, shared with its other
    /// contexts, unless the context reads something else than the store's current rows.
    var rowCache: RowCache {
        parent == nil && queryGeneration == nil ? coordinator.rowCache : ownRowCache
    }

    /// The store that evaluates this context's requests for `entity`: the coordinator's store
    /// that holds the entity, or the view of it a pinned context reads.
    func readingStore(for entity: EntityDescription) throws -> any PersistentStore {
        let store = try coordinator.store(for: entity)
        return pinnedView(of: store.identifier) ?? store
    }

    /// The view a pinned context reads of the store `identifier` names, if it pinned that one.
    private func pinnedView(of identifier: String?) -> (any PersistentStore)? {
        guard parent == nil, let view = queryGeneration?.storeView, view.identifier == identifier else { return nil }
        return view
    }

    /// The answer to a request over what the context reads: for a child, its parent's view (the
    /// parent's unsaved changes laid over the parent's source); dictionaries, which never
    /// include unsaved changes, come from the store.
    func sourceAnswer(_ request: StoreRequest) throws -> StoreResult {
        if let parent {
            return try parent.performAndWait {
                request.resultType.isDictionaries ? try parent.sourceAnswer(request) : try parent.answer(forChild: request)
            }
        }
        if let store = try answeringStore(for: request) { return try coordinator.execute(request, on: store) }
        return try coordinator.execute(request, across: coordinator.stores(holdingAnyOf: request.entities))
    }

    /// The one store that answers `request` for this context; `nil` for a child context (its
    /// parent answers) or when several stores hold the request's entities.
    func answeringStore(for request: StoreRequest) throws -> (any PersistentStore)? {
        guard parent == nil else { return nil }
        if queryGeneration?.storeView == nil, coordinator.hasSeveralStores,
           coordinator.stores(holdingAnyOf: request.entities).count > 1 {
            return nil
        }
        return try readingStore(for: request.entity)
    }

    /// One object's values as this context's source has them (not retained in a row cache).
    func sourceSnapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        if let parent {
            return try parent.performAndWait { try parent.snapshot(forChild: objectID) }
        }
        guard let store = coordinator.store(for: objectID) else { return nil }
        return try (pinnedView(of: store.identifier) ?? store).snapshot(for: objectID)
    }

    /// Several objects' values (gone ones left out), not retained.
    func sourceSnapshots(for objectIDs: [ManagedObjectID]) throws -> [StoredObject] {
        if let parent {
            return try parent.performAndWait { try parent.snapshots(forChild: objectIDs) }
        }
        if queryGeneration?.storeView != nil {
            return try objectIDs.compactMap { try sourceSnapshot(for: $0) }
        }
        return try coordinator.snapshots(for: objectIDs)
    }

    /// An object's row for a fault to fire with, with one more use in `rowCache`; a cached row
    /// older than `stalenessInterval` is read again.
    func retainedSourceSnapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        if rowCache === coordinator.rowCache {
            return try coordinator.retainedSnapshot(for: objectID, readWithin: stalenessInterval)
        }
        if let snapshot = rowCache.retainedSnapshot(for: objectID, readWithin: stalenessInterval) { return snapshot }
        guard let snapshot = try sourceSnapshot(for: objectID) else { return nil }
        rowCache.retain(CollectionOfOne(snapshot))
        return snapshot
    }

    /// The members of a to-many as this context's source has them.
    func sourceRelatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        if let parent {
            return try parent.performAndWait { try parent.relatedObjectIDs(forChild: objectID, relationship: relationship) }
        }
        guard let store = coordinator.store(for: objectID) else { return [] }
        return try (pinnedView(of: store.identifier) ?? store).relatedObjectIDs(of: objectID, relationship: relationship)
    }

    /// Whether the source could have an object with this ID: a permanent ID of a store of the
    /// coordinator, or a temporary ID of an object a parent context has.
    func sourceCanHave(_ objectID: ManagedObjectID) -> Bool {
        if objectID.isTemporaryID, let parent {
            return parent.performAndWait {
                let objectID = parent.currentID(of: objectID)
                return parent.registered[objectID] != nil || parent.sourceCanHave(objectID)
            }
        }
        return coordinator.store(for: objectID) != nil
    }

    // MARK: Answering a child (on this, the parent's, queue)

    /// The ID this context now gives an object a child may still name by its temporary ID.
    func currentID(of objectID: ManagedObjectID) -> ManagedObjectID {
        objectID.isTemporaryID ? formerTemporaryIDs[objectID] ?? objectID : objectID
    }

    /// An object as a child sees it: this context's current values when it has the object
    /// loaded (unsaved changes included; `nil` when deleted here), else the source's.
    func snapshot(forChild objectID: ManagedObjectID) throws -> StoredObject? {
        let objectID = currentID(of: objectID)
        if let object = registered[objectID] {
            if object.isDeleted { return nil }
            if !object.isFault { return object.currentSnapshot() }
        }
        return try sourceSnapshot(for: objectID)
    }

    func snapshots(forChild objectIDs: [ManagedObjectID]) throws -> [StoredObject] {
        var known: [ManagedObjectID: StoredObject] = [:]
        var unknown: [ManagedObjectID] = []
        for objectID in objectIDs {
            if let object = registered[objectID], !object.isFault {
                if !object.isDeleted { known[objectID] = object.currentSnapshot() }
            } else {
                unknown.append(objectID)
            }
        }
        for snapshot in try sourceSnapshots(for: unknown) { known[snapshot.objectID] = snapshot }
        return objectIDs.compactMap { known[$0] }
    }

    func relatedObjectIDs(forChild objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        let objectID = currentID(of: objectID)
        if let object = registered[objectID], !object.isFault {
            return object.resolvedToMany(at: relationship.index).map(\.objectID)
        }
        return try sourceRelatedObjectIDs(of: objectID, relationship: relationship)
    }

    /// A child's request, answered as this context's fetch would answer it: the source's
    /// answer with this context's unsaved changes laid over it.
    func answer(forChild request: StoreRequest) throws -> StoreResult {
        let fetch = FetchRequest<Any>(entityName: request.entity.name, predicate: request.predicate,
                                      sortDescriptors: request.sortDescriptors)
        fetch.includesSubentities = request.includesSubentities
        fetch.fetchOffset = request.fetchOffset
        fetch.fetchLimit = request.fetchLimit
        switch request.resultType {
        case .count:
            return .count(try count(for: fetch))
        case .objectIDs:
            return .objectIDs(try FetchPlan(fetch, in: self).objectIDs())
        case .snapshots:
            let plan = try FetchPlan(fetch, in: self)
            if plan.storeAnswers { return try plan.storeAnswer(.snapshots) }
            return .snapshots(try snapshots(forChild: plan.merged().map(\.objectID)))
        case .dictionaries:
            return try sourceAnswer(request)
        }
    }

    /// Takes in a child's save: its inserted objects are inserted here (keeping their IDs,
    /// temporary ones included), its changed values set on this context's objects, its deleted
    /// objects deleted. This context then has the changes, until it saves them.
    func absorb(_ changes: ChildSave) {
        var targets: [(object: ManagedObject, snapshot: StoredObject, indexes: [Int])] = []
        for snapshot in changes.inserted {
            let entity = snapshot.objectID.entity
            let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
            object.objectID = snapshot.objectID
            insert(object, awakening: false)
            targets.append((object, snapshot, Array(snapshot.values.indices)))
        }
        for (snapshot, indexes) in changes.updated {
            guard let object = registeredOrStoredObject(with: currentID(of: snapshot.objectID)), !object.isDeleted else { continue }
            targets.append((object, snapshot, indexes))
        }
        // Relationships name objects that are all registered now: set them as objects, so this
        // context's save maps temporary IDs to permanent ones.
        for (object, snapshot, indexes) in targets {
            for index in indexes {
                let value: Any?
                switch snapshot.values[index] {
                case .attribute(let attribute): value = attribute
                case .toOne(let id): value = id.flatMap { registeredOrStoredObject(with: currentID(of: $0)) }
                case .toMany(let ids): value = OrderedSet(ids.compactMap { registeredOrStoredObject(with: currentID(of: $0)) })
                case .toManyFault: continue
                }
                objectWillChange(object)
                object.values[index] = value
            }
        }
        for objectID in changes.deleted {
            if let object = registeredOrStoredObject(with: currentID(of: objectID)) { delete(object) }
        }
    }

    // MARK: Permanent IDs

    /// Gives objects with temporary IDs permanent IDs from the store now, before they are
    /// saved (Core Data's `obtainPermanentIDs(for:)`): a child context's objects then keep the
    /// same ID in the parent and in the store.
    func obtainPermanentIDsNow(for objects: [ManagedObject]) throws {
        let temporary = objects.filter { $0.objectID.isTemporaryID && $0.managedObjectContext === self }
        // By entity and the store each object goes to (its entity's, or the one it is assigned to).
        var groups: OrderedDictionary<[ObjectIdentifier], (store: any PersistentStore, objects: [ManagedObject])> = [:]
        for object in temporary {
            let store = try targetStore(of: object)
            groups[[ObjectIdentifier(object.entity), ObjectIdentifier(store)], default: (store, [])].objects.append(object)
        }
        for (store, group) in groups.values {
            let ids = try (store as? IncrementalStore)?.checkedPermanentIDs(for: group)
                ?? store.obtainPermanentIDs(for: group[0].entity, count: group.count)
            for (object, id) in zip(group, ids) {
                registered[object.objectID] = nil
                object.objectID = id
                registered[id] = object
            }
        }
    }

    // MARK: Query generations

    /// The query generation the context reads, or `nil` when it reads the store's latest
    /// state. Core Data's `queryGenerationToken`.
    public var queryGenerationToken: QueryGenerationToken? { queryGeneration }

    /// Pins what the context reads to one state of the store, so a long read sees one
    /// consistent state while other contexts save: `.current` pins the store's state now;
    /// `nil` unpins. The pinned context moves to the latest state when it saves, merges a save
    /// (`mergeChanges(fromContextDidSave:)`), is reset, or is given `.current` again. Throws
    /// `persistentStoreOperation` (134070) for a store that cannot pin its state, or when the
    /// context is a child (it reads through its parent: pin the parent).
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        guard let token else {
            queryGeneration = nil
            return
        }
        guard parent == nil else {
            throw ManagedObjectError(
                .persistentStoreOperation, "a child context reads through its parent; pin the parent's query generation")
        }
        if token.storeView != nil {
            queryGeneration = token
            return
        }
        // With several stores, the first is pinned; the others are read as they are.
        let store = try coordinator.store()
        guard let view = try store.pinnedForReading() else {
            throw ManagedObjectError(
                .persistentStoreOperation, "the \(store.type) store cannot pin a query generation")
        }
        queryGeneration = QueryGenerationToken(storeView: view)
    }

    /// A pinned context moves to the store's latest state (after its own save or a merge).
    func advanceQueryGeneration() {
        guard queryGeneration != nil else { return }
        try? setQueryGenerationFrom(.current)
    }
}

/// What a child context's save hands its parent.
struct ChildSave {
    var inserted: [StoredObject] = []
    /// Changed objects with the property indexes the child changed.
    var updated: [(snapshot: StoredObject, indexes: [Int])] = []
    var deleted: [ManagedObjectID] = []
}

/// Contexts held weakly (a coordinator's, a parent's children).
final class ContextList: @unchecked Sendable {
    // Unchecked: `contexts` is used only while holding `lock`.
    private let lock = NSLock()
    private var contexts: [WeakContext] = []

    private struct WeakContext {
        weak var context: ManagedObjectContext?
    }

    func add(_ context: ManagedObjectContext) {
        lock.withLock {
            contexts.removeAll { $0.context == nil }
            contexts.append(WeakContext(context: context))
        }
    }

    var all: [ManagedObjectContext] { lock.withLock { contexts.compactMap(\.context) } }
}

extension ManagedObject {
    /// The object's current values in the store's form, related objects named by their IDs
    /// (a child context reads its parent's objects so).
    func currentSnapshot() -> StoredObject {
        StoredObject(
            objectID: objectID, version: committedSnapshot?.version ?? 0,
            values: storedValues(id: \.objectID, emptyingTransients: false))
    }
}
