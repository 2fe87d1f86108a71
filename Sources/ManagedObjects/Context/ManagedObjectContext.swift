import Foundation

/// A scratch pad of objects: inserts, changes and deletes stay here until `save()` writes them
/// to the store all at once. Core Data's `NSManagedObjectContext`.
///
/// A context and its objects are confined to the context's queue, as in Core Data: a
/// main-queue context is used on the main thread; a private-queue context only inside
/// `perform` / `performAndWait`. Each context has its own objects (one per ID); contexts of
/// one coordinator share data only through saves, and see other contexts' saves on their next
/// fetch.
public final class ManagedObjectContext: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: as in Core Data, all state below is used only on the context's queue (the
    // main queue, or the private serial `queue`), which `perform`/`performAndWait` enter. The
    // observer list, which `AsyncStream` termination may touch from anywhere, has its own lock.

    /// Which queue a context is confined to. Core Data's `NSManagedObjectContextConcurrencyType`.
    public enum ConcurrencyType: Sendable {
        /// The main queue: use the context on the main thread (a `PersistentContainer`'s `viewContext`).
        case mainQueue
        /// A private serial queue: use the context inside `perform` / `performAndWait`.
        case privateQueue
    }

    public let concurrencyType: ConcurrencyType
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    public var managedObjectModel: ManagedObjectModel { persistentStoreCoordinator.managedObjectModel }
    /// A name for debugging and for notifications.
    public var name: String?
    /// When `true`, saves of other contexts of the same coordinator are merged into this one
    /// (`mergeChanges(fromContextDidSave:)`) on its queue. Core Data's name is kept: the
    /// coordinator plays the parent.
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergesAutomatically.withLock { $0 } }
        set { mergesAutomatically.withLock { $0 = newValue } }
    }

    /// Locked because the coordinator reads it from the saving context's queue.
    private let mergesAutomatically = LockedValue(false)

    let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    var registered: [ManagedObjectID: ManagedObject] = [:]
    var inserted: OrderedSet<ManagedObject> = []
    var updated: OrderedSet<ManagedObject> = []
    var deleted: OrderedSet<ManagedObject> = []
    /// Changes since the last objects-did-change notification.
    var unannounced = PendingAnnouncement()

    let observers = ObserverList()

    public init(concurrencyType: ConcurrencyType, persistentStoreCoordinator: PersistentStoreCoordinator) {
        self.concurrencyType = concurrencyType
        self.persistentStoreCoordinator = persistentStoreCoordinator
        switch concurrencyType {
        case .mainQueue:
            queue = .main
        case .privateQueue:
            queue = DispatchQueue(label: "ManagedObjectContext")
        }
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        persistentStoreCoordinator.register(self)
    }

    deinit {
        // The main queue outlives its contexts: leave no marker behind for a later key.
        queue.setSpecific(key: queueKey, value: nil)
    }

    public var description: String {
        "<ManagedObjectContext \(name ?? "") \(concurrencyType)>"
    }

    // MARK: Queue

    /// Whether the caller runs on this context's queue. For a main-queue context that is the
    /// main thread or a block of the main queue: where `dispatch_main()` services the main
    /// queue (an async `main` on Linux), its blocks run on a worker thread.
    var isOnQueue: Bool {
        if DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) { return true }
        return concurrencyType == .mainQueue && Thread.isMainThread
    }

    /// Runs `block` on the context's queue and waits for it; runs it at once when already
    /// there. Pending changes are announced afterwards.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync {
            defer { processPendingChanges() }
            return try block()
        }
    }

    /// Schedules `block` on the context's queue and returns at once.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            block()
            self.processPendingChanges()
        }
    }

    /// Runs `block` on the context's queue and returns its result.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async {
                let result = block()
                self.processPendingChanges()
                continuation.resume(returning: result)
            }
        }
    }

    /// Runs `block` on the context's queue and returns its result or throws its error.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try block() }
                self.processPendingChanges()
                continuation.resume(with: result)
            }
        }
    }

    // MARK: State

    /// Objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { Set(inserted) }
    /// Objects changed since the last save (not counting inserted or deleted ones).
    public var updatedObjects: Set<ManagedObject> { Set(updated) }
    /// Objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> { Set(deleted) }
    /// Every object the context holds.
    public var registeredObjects: Set<ManagedObject> { Set(registered.values) }

    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }

    /// The object registered with this ID, if any.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        registered[objectID]
    }

    /// The object with this ID: the registered one, or one read from the store. Traps when
    /// neither exists (Core Data returns a fault that raises when used); use
    /// `existingObject(with:)` to get an error instead.
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        guard let object = registeredOrStoredObject(with: objectID) else {
            preconditionFailure("no object with ID \(objectID) in the context or its store")
        }
        return object
    }

    /// The object with this ID, registered or read from the store; throws
    /// `referentialIntegrity` (133000) when there is none.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        guard let object = registeredOrStoredObject(with: objectID) else {
            throw ManagedObjectError(
                .referentialIntegrity, "no object with this ID in the context or its store",
                entityName: objectID.entity.name, objectID: objectID)
        }
        return object
    }

    func registeredOrStoredObject(with objectID: ManagedObjectID) -> ManagedObject? {
        if let object = registered[objectID] { return object }
        guard let store = persistentStoreCoordinator.store(for: objectID),
              let snapshot = try? store.object(with: objectID) else { return nil }
        return materialize(snapshot)
    }

    /// Makes and registers the object for a stored snapshot (awakeFromFetch runs).
    func materialize(_ snapshot: StoredObject) -> ManagedObject {
        let entity = snapshot.objectID.entity
        let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
        object.objectID = snapshot.objectID
        object.managedObjectContext = self
        object.load(snapshot)
        registered[snapshot.objectID] = object
        object.awakeFromFetch()
        return object
    }

    // MARK: Insert

    /// Registers a new object; it is saved with the next `save()`. `awakeFromInsert()` runs.
    public func insert(_ object: ManagedObject) {
        if object.managedObjectContext === self, registered[object.objectID] === object { return }
        precondition(object.managedObjectContext == nil,
                     "\(object.objectID) is already in another context; an object belongs to one context")
        precondition(!object.entity.isAbstract,
                     "cannot insert an object of abstract entity \(object.entity.name); insert a sub-entity")
        precondition(object.entity.managedObjectModel === managedObjectModel,
                     "\(object.entity.name) is from a different ManagedObjectModel than the context's")
        object.managedObjectContext = self
        object.isInserted = true
        registered[object.objectID] = object
        inserted.append(object)
        unannounced.inserted.append(object)
        object.awakeFromInsert()
    }

    /// Records a change to a registered object (called by the object before each change).
    func objectWillChange(_ object: ManagedObject) {
        guard !object.isDeleted, registered[object.objectID] === object else { return }
        // An unsaved insert is not "updated", but once its insert has been announced, later
        // changes are announced as updates, as Core Data does (processPendingChanges leaves out
        // objects whose insert is still unannounced).
        if !object.isInserted && !object.isUpdated {
            object.isUpdated = true
            updated.append(object)
        }
        unannounced.updated.append(object)
    }

    // MARK: Announcing changes

    /// Announces the changes made since the last call in an `objectsDidChange` notification.
    /// Runs by itself at the end of each `perform`/`performAndWait` block and before a save.
    public func processPendingChanges() {
        let changes = unannounced
        unannounced = PendingAnnouncement()
        guard !changes.isEmpty else { return }
        post(ContextNotification(
            name: .objectsDidChange, context: self,
            inserted: changes.inserted.map(\.objectID),
            updated: changes.updated.filter { !changes.inserted.contains($0) && !changes.deleted.contains($0) }
                .map(\.objectID),
            deleted: changes.deleted.map(\.objectID)))
    }

    struct PendingAnnouncement {
        var inserted: OrderedSet<ManagedObject> = []
        var updated: OrderedSet<ManagedObject> = []
        var deleted: OrderedSet<ManagedObject> = []
        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    // MARK: Undoing

    /// Discards every unsaved change: inserted objects leave the context, changed and deleted
    /// ones get their saved values back.
    public func rollback() {
        for object in inserted {
            registered[object.objectID] = nil
            object.isInserted = false
            object.managedObjectContext = nil
        }
        for object in OrderedSet(updated.elements + deleted.elements) {
            if let snapshot = object.committedSnapshot { object.load(snapshot) }
            object.isUpdated = false
            object.isDeleted = false
        }
        inserted = []
        updated = []
        deleted = []
        unannounced = PendingAnnouncement()
    }

    /// Forgets every object: all of them leave the context, unsaved changes are lost.
    public func reset() {
        for object in registered.values {
            object.managedObjectContext = nil
        }
        registered = [:]
        inserted = []
        updated = []
        deleted = []
        unannounced = PendingAnnouncement()
    }

    /// Reloads an object's values from the store. With `mergeChanges`, its unsaved changes are
    /// kept on top of the stored values; without, they are discarded. An inserted object is
    /// left as it is (it has nothing stored).
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        guard registered[object.objectID] === object, !object.isInserted else { return }
        let stored = (try? persistentStoreCoordinator.store(for: object.objectID)?.object(with: object.objectID))
            ?? object.committedSnapshot
        guard let stored else { return }
        let kept: [(Int, Any?)] = mergeChanges
            ? object.entity.properties.indices.filter(object.hasChangedValue).map { ($0, object.values[$0]) }
            : []
        object.load(stored)
        for (index, value) in kept {
            object.values[index] = value
        }
        if kept.isEmpty && object.isUpdated {
            object.isUpdated = false
            updated.remove(object)
        }
    }

    /// Applies another context's save here: objects it changed are reloaded (keeping this
    /// context's own unsaved changes), objects it deleted leave this context. Inserted objects
    /// show up on the next fetch.
    public func mergeChanges(fromContextDidSave notification: ContextNotification) {
        var refreshed: [ManagedObjectID] = []
        for objectID in notification.updatedObjectIDs {
            guard let object = registered[objectID] else { continue }
            refresh(object, mergeChanges: true)
            refreshed.append(objectID)
        }
        var removed: [ManagedObjectID] = []
        for objectID in notification.deletedObjectIDs {
            guard let object = registered[objectID] else { continue }
            forget(object)
            removed.append(objectID)
        }
        if !refreshed.isEmpty || !removed.isEmpty {
            post(ContextNotification(
                name: .objectsDidChange, context: self, inserted: [], updated: [], deleted: removed,
                refreshed: refreshed))
        }
    }

    /// Called by the coordinator, from the saving context's queue.
    func scheduleMerge(_ notification: ContextNotification) {
        guard automaticallyMergesChangesFromParent else { return }
        queue.async {
            self.mergeChanges(fromContextDidSave: notification)
        }
    }

    /// Removes an object from the context and from every object that refers to it here.
    func forget(_ object: ManagedObject) {
        for relationship in object.entity.relationships {
            for related in object.relatedObjects(relationship) {
                guard let inverse = relationship.inverseRelationship else { continue }
                let wasUpdated = related.isUpdated
                if inverse.isToMany {
                    related.modifyToMany(at: inverse.index) { _ = $0.remove(object) }
                } else if related.resolvedToOne(at: inverse.index) === object {
                    related.values[inverse.index] = nil
                }
                related.isUpdated = wasUpdated
            }
        }
        registered[object.objectID] = nil
        inserted.remove(object)
        updated.remove(object)
        deleted.remove(object)
        object.isInserted = false
        object.isUpdated = false
        object.isDeleted = false
        object.managedObjectContext = nil
    }
}
