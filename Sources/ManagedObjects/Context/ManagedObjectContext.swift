import Foundation

/// A scratch pad of objects: inserts, changes and deletes stay here until `save()` writes them
/// to the store all at once. Core Data's `NSManagedObjectContext`.
///
/// A context and its objects are confined to the context's queue, as in Core Data: a
/// main-queue context is used on the main thread; a private-queue context only inside
/// `perform` / `performAndWait`. Each context has its own objects (one per ID); contexts of
/// one coordinator share data only through saves, and see other contexts' saves on their next
/// fetch.
///
/// Open, as Core Data's class is: a subclass may override `save()` (Core Data code overrides
/// it, e.g. for a context that never writes).
open class ManagedObjectContext: @unchecked Sendable, CustomStringConvertible {
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
    /// The coordinator of the context's stores (a child context's is its parent's). As in Core
    /// Data, a context made with `init(concurrencyType:)` gets it (or its `parent`) set once
    /// before it is used; setting another one then traps, as Core Data raises ("Context already
    /// has a coordinator; cannot replace"). Implicitly unwrapped: code written for Core Data's
    /// optional and code written for the runtime's non-optional property both compile.
    public var persistentStoreCoordinator: PersistentStoreCoordinator! {
        get { ownCoordinator ?? parentContext?.persistentStoreCoordinator }
        set {
            guard let newValue else {
                precondition(persistentStoreCoordinator == nil, "\(self): a context's coordinator cannot be removed")
                return
            }
            if let current = persistentStoreCoordinator {
                precondition(current === newValue, "\(self): context already has a coordinator; cannot replace")
                return
            }
            precondition(parentContext == nil, "\(self): a child context's coordinator is its parent's")
            ownCoordinator = newValue
            newValue.register(self)
        }
    }
    /// The context this one reads from and saves into, for a child context; `nil` for a context
    /// on the coordinator. A child sees its parent's unsaved changes, and its `save()` pushes
    /// its changes into the parent, which writes them to the store when it saves. Set once,
    /// before the context is used, when it was made with `init(concurrencyType:)`.
    public var parent: ManagedObjectContext? {
        get { parentContext }
        set {
            guard let newValue else {
                precondition(parentContext == nil, "\(self): a context's parent cannot be removed")
                return
            }
            if let parentContext {
                precondition(parentContext === newValue, "\(self): context already has a parent; cannot replace")
                return
            }
            precondition(ownCoordinator == nil, "\(self): context already has a coordinator; cannot give it a parent")
            parentContext = newValue
            // A child's coordinator is its parent's (kept here, as it is read on every fetch).
            ownCoordinator = newValue.persistentStoreCoordinator
            newValue.children.add(self)
        }
    }
    /// The coordinator set on the context, or its parent's when the parent had one when set.
    private var ownCoordinator: PersistentStoreCoordinator?
    private var parentContext: ManagedObjectContext?
    /// The coordinator, for the runtime's own use: a context used before it has a coordinator
    /// or a parent is a programming error Core Data raises on.
    var coordinator: PersistentStoreCoordinator {
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("\(self) has no persistent store coordinator: set its persistentStoreCoordinator or parent before using it")
        }
        return coordinator
    }
    public var managedObjectModel: ManagedObjectModel { coordinator.managedObjectModel }
    /// A name for debugging and for notifications.
    public var name: String?
    /// Who saves, as persistent history records it (Core Data's `transactionAuthor`): kept
    /// with each transaction the context's saves record.
    public var transactionAuthor: String?
    /// When `true`, saves of the context's parent are merged into it
    /// (`mergeChanges(fromContextDidSave:)`) on its queue, as in Core Data: for a child context,
    /// its parent context's saves; for a context on the coordinator, the saves of the
    /// coordinator's other contexts.
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergesAutomatically.withLock { $0 } }
        set { mergesAutomatically.withLock { $0 = newValue } }
    }

    /// Locked because the coordinator reads it from the saving context's queue.
    private let mergesAutomatically = LockedValue(false)
    /// While ``automaticallyMergesRemoteChanges``: the subscription to the coordinator's remote
    /// changes and the history read so far (ManagedObjectContext+RemoteMerging.swift).
    let remoteMerging = LockedValue<RemoteMerging?>(nil)

    let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    // The object tables below are used on the context's queue only, never in overlapping
    // accesses: no dynamic exclusivity checks (as for `ManagedObject`'s state).
    /// Every object of the context by ID, not retained: an unchanged object the app no longer
    /// uses is released (changed ones are held by the three lists below until saved).
    @exclusivity(unchecked) var registered = ObjectRegistry()
    @exclusivity(unchecked) var inserted: ChangeList = []
    @exclusivity(unchecked) var updated: ChangeList = []
    @exclusivity(unchecked) var deleted: ChangeList = []
    /// Updates and deletes since the last objects-did-change notification; the inserts since
    /// then are the objects `inserted` has after its mark.
    @exclusivity(unchecked) var unannouncedUpdates: OrderedSet<ManagedObject> = []
    @exclusivity(unchecked) var unannouncedDeletes: OrderedSet<ManagedObject> = []

    let observers = ObserverList()
    /// Child contexts, told about this context's saves (`automaticallyMergesChangesFromParent`).
    let children = ContextList()
    /// How the context resolves conflicts when it saves.
    public var mergePolicy: MergePolicy = .error
    /// How old, in seconds, a row in the coordinator's row cache may be for a fault to fire
    /// from it; an older one is read from the store again. Negative (the default, as in Core
    /// Data): any cached row; 0: always the store. It does not change objects already loaded.
    public var stalenessInterval: TimeInterval = -1
    /// The store view a context pinned by `setQueryGenerationFrom(_:)` reads, and its token.
    var queryGeneration: QueryGenerationToken?
    /// The row cache of a context that cannot share its coordinator's (a child, which reads
    /// its parent's unsaved values, or a context pinned to a query generation).
    lazy var ownRowCache = RowCache()
    /// The permanent IDs this context's saves gave its objects, by their temporary IDs, kept
    /// while it has children: a child still names those objects by their temporary IDs.
    var formerTemporaryIDs: [ManagedObjectID: ManagedObjectID] = [:]
    /// The stores new objects were assigned to (`assign(_:to:)`), by temporary ID: store identifiers.
    var assignedStores: [ManagedObjectID: String] = [:]
    /// The stamp of the save to the store under way, 0 when there is none: it stamps the places
    /// that save gives new objects (`ManagedObject.newObjectPlace`), so no place outlives its
    /// save. A save started inside another (from `didSave()`) has a stamp of its own.
    @exclusivity(unchecked) var saveStamp: UInt32 = 0
    /// The stamp of the latest save to the store.
    @exclusivity(unchecked) var latestSaveStamp: UInt32 = 0
    /// How many objects the three lists have taken in, ever: a save calls `willSave()` again
    /// until this stops moving (`callWillSave()`).
    @exclusivity(unchecked) var changeListAdditions = 0
    /// The stamp of the latest `callWillSave()` (`ManagedObject.willSaveStamp`).
    @exclusivity(unchecked) var willSaveStamp: UInt32 = 0

    /// Records the context's changes for undo, event by event (`processPendingChanges()`), as
    /// Core Data's does; `nil` (the default, as on iOS) records nothing.
    public var undoManager: ContextUndoManager? {
        didSet {
            guard oldValue !== undoManager else { return }
            oldValue?.removeCheckpointObserver(self)
            undoManager?.addCheckpointObserver(self)
            undoRecording = UndoRecording()
        }
    }
    /// The objects changed since the last event, as they were before it (with an undo manager).
    var undoRecording = UndoRecording()

    /// Core Data's `shouldDeleteInaccessibleFaults`: a fault whose stored object is gone reads
    /// as empty (attributes `nil` or 0, relationships empty) and, with this on (the default),
    /// is marked deleted, in `deletedObjects`, exempt from validation, and discarded by the
    /// next save (which writes nothing for it) or reset. Off, it only reads as empty: Core Data
    /// raises there, which the runtime does not (see Docs/RuntimeDifferences.md).
    public var shouldDeleteInaccessibleFaults = true
    /// The objects marked deleted because their stored object was gone: a save has nothing
    /// to delete for them.
    var inaccessibleObjects: Set<ObjectIdentifier> = []

    /// A context without a coordinator, Core Data's `init(concurrencyType:)`: set its
    /// `persistentStoreCoordinator` or its `parent` before using it.
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        queue = Self.makeQueue(concurrencyType)
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    public convenience init(concurrencyType: ConcurrencyType, persistentStoreCoordinator: PersistentStoreCoordinator) {
        self.init(concurrencyType: concurrencyType)
        self.persistentStoreCoordinator = persistentStoreCoordinator
    }

    /// A child context of `parent`: it reads through the parent (seeing its unsaved changes)
    /// and its saves go into the parent. Core Data's `parent` property, set at creation.
    public convenience init(concurrencyType: ConcurrencyType, parent: ManagedObjectContext) {
        self.init(concurrencyType: concurrencyType)
        self.parent = parent
    }

    private static func makeQueue(_ concurrencyType: ConcurrencyType) -> DispatchQueue {
        switch concurrencyType {
        case .mainQueue: .main
        case .privateQueue: DispatchQueue(label: "ManagedObjectContext")
        }
    }

    deinit {
        if let merging = remoteMerging.withLock({ $0 }) { merging.coordinator?.remoteChangeObservers.unsubscribe(merging.subscription) }
        // The main queue outlives its contexts: leave no marker behind for a later key.
        queue.setSpecific(key: queueKey, value: nil)
    }

    /// Writes the context's changes to its parent or its stores: see `saveChanges()` for what
    /// a save does and throws.
    open func save() throws {
        try saveChanges()
    }

    // Core Data code subclasses the context and overrides its methods (a context that logs its
    // fetches, one whose save does more): these are the overridable entry points of the
    // methods declared in extensions, where Swift allows no override. The runtime calls them
    // too, so an override sees the context's own cascades and counts.

    /// See `fetchResults(_:)`.
    open func fetch<Result>(_ request: FetchRequest<Result>) throws -> [Result] {
        try fetchResults(request)
    }

    /// See `countResults(for:)`.
    open func count<Result>(for request: FetchRequest<Result>) throws -> Int {
        try countResults(for: request)
    }

    /// See `deleteObject(_:)`.
    open func delete(_ object: ManagedObject) {
        deleteObject(object)
    }

    /// See `obtainPermanentIDsNow(for:)`.
    open func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        try obtainPermanentIDsNow(for: objects)
    }

    /// See `executeRequest(_:)`.
    open func execute(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        try executeRequest(request)
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
        if concurrencyType == .mainQueue && Thread.isMainThread { return true }
        return HeldQueues.onThisThread?.contexts.contains(ObjectIdentifier(self)) ?? false
    }

    /// Runs `body` as the holder of this context's queue on this thread, so that a
    /// `performAndWait` of this context nested in another context's block on the same thread
    /// (a child reading through its parent inside the parent's block) runs at once instead of
    /// waiting for the queue this thread holds.
    private func holdingQueue<T>(_ body: () throws -> T) rethrows -> T {
        let held = HeldQueues.forThisThread()
        let added = held.contexts.insert(ObjectIdentifier(self)).inserted
        defer { if added { held.contexts.remove(ObjectIdentifier(self)) } }
        return try body()
    }

    /// Runs `block` on the context's queue and waits for it; runs it at once when already
    /// there. Pending changes are announced afterwards.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync {
            defer { processPendingChanges() }
            return try holdingQueue(block)
        }
    }

    /// Schedules `block` on the context's queue and returns at once.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            self.holdingQueue(block)
            self.processPendingChanges()
        }
    }

    /// Runs `block` on the context's queue and returns its result.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async {
                let result = self.holdingQueue(block)
                self.processPendingChanges()
                continuation.resume(returning: result)
            }
        }
    }

    /// Runs `block` on the context's queue and returns its result or throws its error.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try self.holdingQueue(block) }
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
    /// Every object registered in the context (still in use by the app, or changed).
    public var registeredObjects: Set<ManagedObject> { Set(registered.objects) }

    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }

    /// The object registered with this ID, if any.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        registered[objectID]
    }

    /// The object with this ID: the registered one, or a fault for it, without reading the
    /// store (Core Data's `object(with:)`). A fault for an object the store does not have
    /// reads as empty when used (Core Data raises then; see RuntimeDifferences.md). Traps for
    /// an ID that no store of the coordinator could have given (a temporary ID not registered
    /// here, or another coordinator's store), as Core Data raises.
    open func object(with objectID: ManagedObjectID) -> ManagedObject {
        guard let object = registeredOrStoredObject(with: objectID) else {
            preconditionFailure("no object with ID \(objectID) in the context, and no store of its coordinator has it")
        }
        return object
    }

    /// The object with this ID, registered or read from the store (its fault fired); throws
    /// `referentialIntegrity` (133000) when there is none.
    open func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        // A registered object that is neither new nor read from the store is a fault that
        // fired after its row was deleted: ask the store again.
        if let object = registered[objectID], object.isInserted || object.committedSnapshot != nil { return object }
        guard let snapshot = try sourceSnapshot(for: objectID) else {
            throw ManagedObjectError(
                .referentialIntegrity, "no object with this ID in the context or its store",
                entityName: objectID.entity.name, objectID: objectID)
        }
        return object(forSnapshot: snapshot, loading: true)
    }

    /// The registered object, or a fault for a stored object's ID (`nil` for an ID no store
    /// of the coordinator could have given).
    func registeredOrStoredObject(with objectID: ManagedObjectID) -> ManagedObject? {
        if let object = registered[objectID] { return object }
        guard sourceCanHave(objectID) else { return nil }
        let fault = ManagedObject.fault(for: objectID, in: self)
        registered[objectID] = fault
        return fault
    }

    /// The object for a snapshot the store sent: the registered one or a new one, loaded or
    /// left a fault whose values wait in the row cache. A registered object that is loaded
    /// keeps its values, as in Core Data, unless `refreshing` (a fetch's
    /// `shouldRefreshRefetchedObjects`): then it takes a newer snapshot's values, its unsaved
    /// changes kept on top (as `refresh(_:mergeChanges: true)`).
    func object(forSnapshot snapshot: StoredObject, loading: Bool, refreshing: Bool = false) -> ManagedObject {
        objects(forSnapshots: CollectionOfOne(snapshot), loading: loading, refreshing: refreshing)[0]
    }

    /// `object(forSnapshot:loading:refreshing:)` for many snapshots, caching their rows at once.
    func objects<Snapshots: Collection<StoredObject>>(
        forSnapshots snapshots: Snapshots, loading: Bool, refreshing: Bool = false
    ) -> [ManagedObject] {
        let cache = rowCache
        var objects: [ManagedObject] = []
        objects.reserveCapacity(snapshots.count)
        // Positions, not copies: a fetch's snapshots are cached straight from its answer.
        var newRows: [Snapshots.Index] = []
        // Faults that already hold a row: it takes the version read, so they fire with it.
        var rereadRows: [Snapshots.Index] = []
        for position in snapshots.indices {
            let snapshot = snapshots[position]
            if let object = registered[snapshot.objectID] {
                if object.isFault, object.rowCacheUse == nil {
                    newRows.append(position)
                    object.rowCacheUse = cache
                } else if object.isFault {
                    if object.rowCacheUse === cache { rereadRows.append(position) }
                } else if refreshing, !object.isInserted, !object.isDeleted,
                          let version = object.committedSnapshot?.version, version < snapshot.version {
                    if object.hasChanges {
                        refresh(object, mergeChanges: true, stored: snapshot)
                    } else {
                        object.load(snapshot)
                    }
                }
                objects.append(object)
            } else {
                let object = ManagedObject.fault(for: snapshot.objectID, in: self)
                object.rowCacheUse = cache
                registered[snapshot.objectID] = object
                newRows.append(position)
                objects.append(object)
            }
        }
        cache.retain(newRows.lazy.map { snapshots[$0] })
        if !rereadRows.isEmpty { cache.update(rereadRows.lazy.map { snapshots[$0] }) }
        if loading {
            for object in objects where object.isFault { _ = object.values }
        }
        return objects
    }

    /// The values a fault fires with: from the row cache when the object holds its row there,
    /// else from the store (the row is cached for the object). `nil` when the store has no such
    /// object, or cannot be read (a getter cannot throw).
    func snapshotForFiringFault(of object: ManagedObject) -> StoredObject? {
        let objectID = object.objectID
        if let batch = object.faultBatch {
            // The first fault of a `fetchBatchSize` batch reads the rows of the whole batch.
            let members = batch.objectIDs.compactMap { registered[$0] }
            for member in members { member.faultBatch = nil }
            try? cacheRows(of: members)
        }
        if let cache = object.rowCacheUse {
            if let snapshot = cache.snapshot(for: objectID, readWithin: stalenessInterval) { return snapshot }
            cache.release(objectID)
            object.rowCacheUse = nil
        }
        guard let snapshot = try? retainedSourceSnapshot(for: objectID) else { return nil }
        object.rowCacheUse = rowCache
        return snapshot
    }

    /// Reads in one go the rows of those faults that hold none in the row cache, and caches
    /// them for the faults, which then fire without a store read (`fetchBatchSize` batches,
    /// prefetching).
    func cacheRows(of faults: [ManagedObject]) throws {
        let unread = faults.filter { $0.isFault && $0.rowCacheUse == nil }
        guard !unread.isEmpty else { return }
        _ = objects(forSnapshots: try sourceSnapshots(for: unread.map(\.objectID)), loading: false)
    }

    /// The members of a to-many the store left unloaded.
    func relatedObjectIDs(of object: ManagedObject, relationship: RelationshipDescription) -> [ManagedObjectID] {
        (try? sourceRelatedObjectIDs(of: object.objectID, relationship: relationship)) ?? []
    }

    // MARK: Insert

    /// Registers a new object; it is saved with the next `save()`. `awakeFromInsert()` runs.
    open func insert(_ object: ManagedObject) {
        insert(object, awakening: true)
    }

    /// `insert(_:)`; `awakening: false` for an object a child context made and saved here,
    /// which was awoken there.
    func insert(_ object: ManagedObject, awakening: Bool) {
        if object.contextIdentity == ObjectIdentifier(self), registered[object.objectID] === object { return }
        precondition(object.contextIdentity == nil || object.managedObjectContext == nil,
                     "\(object.objectID) is already in another context; an object belongs to one context")
        precondition(!object.entity.isAbstract,
                     "cannot insert an object of abstract entity \(object.entity.name); insert a sub-entity")
        precondition(object.entity.managedObjectModel === managedObjectModel,
                     "\(object.entity.name) is from a different ManagedObjectModel than the context's")
        if undoManager != nil { recordForUndo(object, wasRegistered: false) }
        object.managedObjectContext = self
        object.isInserted = true
        registered[object.objectID] = object
        inserted.append(object)
        changeListAdditions += 1
        // Changes before the insert is announced are part of the insert.
        object.hasUnannouncedChange = true
        if awakening { object.awakeFromInsert() }
    }

    /// Called when `object`'s fault found no stored object: with
    /// `shouldDeleteInaccessibleFaults`, it is marked deleted as Core Data marks it.
    func faultWasInaccessible(_ object: ManagedObject) {
        guard shouldDeleteInaccessibleFaults, registered[object.objectID] === object,
              !object.isInserted, !object.isDeleted else { return }
        if object.isUpdated {
            object.isUpdated = false
            updated.remove(object)
        }
        object.isDeleted = true
        deleted.append(object)
        inaccessibleObjects.insert(ObjectIdentifier(object))
    }

    /// Called by an object's `deinit`: it leaves the registry.
    func objectWasReleased(_ object: ManagedObject) {
        registered.remove(object.objectID, ifItIs: object)
    }

    /// Records a change to a registered object (called by the object, whose context this is,
    /// before each change).
    func objectWillChange(_ object: ManagedObject) {
        guard !object.isDeleted else { return }
        if undoManager != nil { recordForUndo(object) }
        // An unsaved insert is not "updated", but once its insert has been announced, later
        // changes are announced as updates, as Core Data does (processPendingChanges leaves out
        // objects whose insert is still unannounced).
        if !object.isInserted && !object.isUpdated {
            object.isUpdated = true
            updated.append(object)
            changeListAdditions += 1
        }
        if !object.hasUnannouncedChange {
            object.hasUnannouncedChange = true
            unannouncedUpdates.append(object)
        }
    }

    // MARK: Announcing changes

    /// Announces the changes made since the last call in an `objectsDidChange` notification.
    /// Runs by itself at the end of each `perform`/`performAndWait` block and before a save.
    open func processPendingChanges() {
        if undoManager != nil { registerRecordedUndo() }
        // Unobserved, the changes only stop being unannounced: no notification is made, whose
        // lists would copy every new object and its ID.
        let postsToNotificationCenter = Self.postsToNotificationCenter
        let hasObservers = observers.hasHandlers(for: .objectsDidChange)
        let changes = takeUnannounced(listingInserts: postsToNotificationCenter || hasObservers)
        guard postsToNotificationCenter || hasObservers, !changes.isEmpty else { return }
        let inserts = changes.updated.isEmpty ? [] : Set(changes.inserted.map(ObjectIdentifier.init))
        let updates = changes.updated.filter { !inserts.contains(ObjectIdentifier($0)) && !changes.deleted.contains($0) }
        // The IDs only for the runtime's own observers: `NotificationCenter`'s carries objects.
        let notification = hasObservers
            ? ContextNotification(
                name: .objectsDidChange, context: self,
                inserted: changes.inserted.map(\.objectID), updated: updates.map(\.objectID), deleted: changes.deleted.map(\.objectID))
            : ContextNotification(name: .objectsDidChange, context: self)
        post(notification)
        if postsToNotificationCenter {
            postToNotificationCenter(
                notification, objects: AnnouncedObjects(inserted: Array(changes.inserted), updated: Array(updates), deleted: Array(changes.deleted)))
        }
    }

    /// The changes not announced yet, which are announced (or dropped) now; the inserted
    /// objects listed only when `listingInserts`.
    @discardableResult
    func takeUnannounced(listingInserts: Bool) -> PendingAnnouncement {
        var inserts: [ManagedObject] = []
        inserted.moveMark { object in
            object.hasUnannouncedChange = false
            if listingInserts { inserts.append(object) }
        }
        let changes = PendingAnnouncement(inserted: inserts, updated: unannouncedUpdates, deleted: unannouncedDeletes)
        unannouncedUpdates = []
        unannouncedDeletes = []
        for object in changes.updated { object.hasUnannouncedChange = false }
        return changes
    }

    struct PendingAnnouncement {
        var inserted: [ManagedObject]
        var updated: OrderedSet<ManagedObject>
        var deleted: OrderedSet<ManagedObject>
        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    // MARK: Undoing

    /// Discards every unsaved change: inserted objects leave the context, changed and deleted
    /// ones get their saved values back.
    open func rollback() {
        undoManager?.removeAllActions()
        undoRecording = UndoRecording()
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
        inaccessibleObjects = []
        takeUnannounced(listingInserts: false)
    }

    /// Forgets every object: all of them leave the context, unsaved changes are lost. As Core
    /// Data does, a change notification names them all invalidated
    /// (`invalidatedAllObjectsKey`) through `NotificationCenter`.
    open func reset() {
        undoManager?.removeAllActions()
        undoRecording = UndoRecording()
        let objects = registered.objects
        for object in objects {
            object.managedObjectContext = nil
        }
        registered.removeAll()
        inserted = []
        updated = []
        deleted = []
        inaccessibleObjects = []
        takeUnannounced(listingInserts: false)
        advanceQueryGeneration()
        if Self.postsToNotificationCenter, !objects.isEmpty {
            postToNotificationCenter(
                ContextNotification(name: .objectsDidChange, context: self),
                objects: AnnouncedObjects(invalidatedAll: objects.map(\.objectID)))
        }
    }

    /// Brings an object up to date with the store. Without `mergeChanges` its unsaved changes
    /// are discarded and it turns into a fault (its values are read again when next used; an
    /// unchanged object the app no longer holds can then be released, and relationship cycles
    /// are broken). With `mergeChanges` its values are reloaded and its unsaved changes kept on
    /// top. An inserted object is left as it is (it has nothing stored).
    open func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        refresh(object, mergeChanges: mergeChanges, stored: nil)
    }

    /// `refresh(_:mergeChanges:)` with the stored values when the caller has them (a save's
    /// notification), else read from the store.
    private func refresh(_ object: ManagedObject, mergeChanges: Bool, stored known: StoredObject?) {
        guard registered[object.objectID] === object, !object.isInserted else { return }
        guard mergeChanges else {
            if object.isUpdated {
                object.isUpdated = false
                updated.remove(object)
            }
            if !object.isDeleted { object.turnIntoFault() }
            return
        }
        guard !object.isFault else { return }
        let stored = known
            ?? (try? sourceSnapshot(for: object.objectID))
            ?? object.committedSnapshot
        guard let stored else { return }
        let kept: [(Int, Any?)] = object.entity.properties.indices.filter(object.hasChangedValue).map { ($0, object.values[$0]) }
        object.load(stored)
        for (index, value) in kept {
            object.values[index] = value
        }
        if kept.isEmpty && object.isUpdated {
            object.isUpdated = false
            updated.remove(object)
        }
    }

    /// Turns every unchanged object into a fault (Core Data's `refreshAllObjects()` keeps
    /// changed objects' changes: they are refreshed merging them).
    public func refreshAllObjects() {
        for object in registered.objects {
            refresh(object, mergeChanges: object.hasChanges)
        }
    }

    /// Applies another context's save here: objects it changed are reloaded (keeping this
    /// context's own unsaved changes), objects it deleted leave this context. Inserted objects
    /// show up on the next fetch.
    public func mergeChanges(fromContextDidSave notification: ContextNotification) {
        advanceQueryGeneration()
        var refreshed: [ManagedObject] = []
        for objectID in notification.updatedObjectIDs {
            guard let object = registered[objectID], !object.isFault else { continue }
            refresh(object, mergeChanges: true, stored: notification.savedSnapshots[objectID])
            refreshed.append(object)
        }
        var removed: [ManagedObject] = []
        for objectID in notification.deletedObjectIDs {
            guard let object = registered[objectID] else { continue }
            forget(object)
            removed.append(object)
        }
        announceMerge(refreshed: refreshed, removed: removed)
    }

    /// The objects-did-change notification of a merge: reloaded objects, and objects another
    /// context deleted, which left this one (Core Data names those as deleted).
    func announceMerge(inserted: [ManagedObjectID] = [], refreshed: [ManagedObject], removed: [ManagedObject]) {
        guard !inserted.isEmpty || !refreshed.isEmpty || !removed.isEmpty else { return }
        let notification = ContextNotification(
            name: .objectsDidChange, context: self, inserted: inserted, updated: [], deleted: removed.map(\.objectID),
            refreshed: refreshed.map(\.objectID))
        post(notification)
        if Self.postsToNotificationCenter {
            postToNotificationCenter(notification, objects: AnnouncedObjects(deleted: removed, refreshed: refreshed))
        }
    }

    /// Called by the coordinator or the parent, from the saving context's queue.
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

/// The contexts whose queue the current thread holds (it runs one of their blocks).
private final class HeldQueues {
    var contexts: Set<ObjectIdentifier> = []

    private static let key = "ManagedObjectContext.heldQueues"

    static var onThisThread: HeldQueues? {
        Thread.current.threadDictionary[key] as? HeldQueues
    }

    static func forThisThread() -> HeldQueues {
        if let held = onThisThread { return held }
        let held = HeldQueues()
        Thread.current.threadDictionary[key] = held
        return held
    }
}
