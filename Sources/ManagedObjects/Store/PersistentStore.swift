import Foundation

/// Where objects are kept between contexts: Core Data's `NSPersistentStore`, in the shape of
/// `NSIncrementalStore`. A store executes requests (``StoreRequest``: entity, predicate,
/// sorts, window, result type), gives the values of one object (``snapshot(for:)``) and the
/// members of a to-many it left unloaded (``relatedObjectIDs(of:relationship:)``), hands out
/// permanent IDs and applies saves. The coordinator sits in front of it: it evaluates in memory
/// what a store says it cannot (``canEvaluate(_:)``, ``canSort(by:)``), so every store answers
/// the same, and it keeps the row cache contexts fire their faults from.
///
/// A store is shared by every context of a coordinator, on any thread: implementations are
/// thread-safe, and `save` applies a change set atomically or not at all.
public protocol PersistentStore: AnyObject, Sendable {
    /// The store's type (`PersistentStoreType.inMemory`, …).
    var type: PersistentStoreType { get }
    /// A UUID string, the host part of the store's permanent object ID URIs.
    var identifier: String { get }
    /// Where the store lives; `nil` for the in-memory store.
    var url: URL? { get }
    /// The store's metadata: Core Data's `NSPersistentStore.metadata`. `NSStoreType`,
    /// `NSStoreUUID`, the model's version hashes and identifiers, and any keys an app adds.
    /// Setting it replaces the dictionary (keeping the store's type and UUID, and its model
    /// keys when left out); a store with a file writes it with its next save. The default,
    /// for a store that keeps none, holds it in memory for the life of the store.
    var metadata: [String: Any] { get set }

    /// Runs a request the store can evaluate (the coordinator checks ``canEvaluate(_:)`` and
    /// ``canSort(by:)`` first and asks for what it will finish itself otherwise). Objects the
    /// sort descriptors do not tell apart come in the order they were first saved.
    func execute(_ request: StoreRequest) throws -> StoreResult
    /// Whether the store evaluates this predicate itself. The default says yes.
    func canEvaluate(_ predicate: ObjectPredicate) -> Bool
    /// Whether the store sorts by these descriptors itself. The default says yes.
    func canSort(by sortDescriptors: [ObjectSortDescriptor]) -> Bool
    /// The stored values of one object with their version, or `nil` when the store has none
    /// with that ID (deleted, or never saved). Core Data's `newValuesForObject(with:)`.
    func snapshot(for objectID: ManagedObjectID) throws -> StoredObject?
    /// The members of a to-many relationship of a stored object, in relationship order: what a
    /// snapshot's ``StoredValue/toManyFault`` stands for. Core Data's
    /// `newValue(forRelationship:forObjectWith:)`.
    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID]
    /// New permanent IDs for objects of `entity`, never handed out before.
    func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID]
    /// Applies a change set atomically. Throws `ManagedObjectError` with code
    /// `mergeConflict` (133020), changing nothing, when an updated or deleted object's version
    /// is no longer current (another context saved it since), or `constraintConflict`
    /// (133021) when the changes would break a uniqueness constraint of the model.
    func save(_ changes: StoreChangeSet) throws
    /// ``save(_:)`` for a store other processes write at the same time, with Core Data's order
    /// of work: the merge policy resolves uniqueness conflicts while the save holds the store.
    /// Once the store has taken the constrained values of `changes` (no other save can store
    /// them until this one ends), it calls `resolveConstraintConflicts`, which finds the
    /// conflicts with stored objects (reading the store as it is then), resolves them and
    /// returns the change set to write instead, or throws (nothing is written). Without this,
    /// another process could store the same values between a refused save and its retry. The
    /// default, for a store with one writer at a time, saves `changes` as they are.
    func save(_ changes: StoreChangeSet, resolvingConstraintConflicts: (StoreChangeSet) throws -> StoreChangeSet) throws
    /// A read-only view of the store as it is now, which later saves do not change (a query
    /// generation: ``ManagedObjectContext/setQueryGenerationFrom(_:)``); `nil`, the default,
    /// when the store cannot pin its state. The view answers reads only.
    func pinnedForReading() throws -> (any PersistentStore)?
    /// Whether saves record persistent history, so that a save tells the store which
    /// properties each updated object changed (``StoreChangeSet/updatedPropertyIndexes``).
    /// The default says no.
    var recordsPersistentHistory: Bool { get }

    // Batch requests (StoreBatchInsert, StoreBatchUpdate, StoreBatchDelete): run straight in the store, each all or nothing.
    /// Inserts rows of attribute values as new objects.
    func batchInsert(_ request: StoreBatchInsert) throws -> StoreBatchOutcome
    /// Sets attribute values of every matching object, increasing their versions.
    func batchUpdate(_ request: StoreBatchUpdate) throws -> StoreBatchOutcome
    /// Deletes the matching objects, applying their relationships' delete rules.
    func batchDelete(_ request: StoreBatchDelete) throws -> StoreBatchOutcome
}

extension PersistentStore {
    public func canEvaluate(_ predicate: ObjectPredicate) -> Bool { true }
    public func canSort(by sortDescriptors: [ObjectSortDescriptor]) -> Bool { true }
    public func pinnedForReading() throws -> (any PersistentStore)? { nil }
    public func save(_ changes: StoreChangeSet, resolvingConstraintConflicts: (StoreChangeSet) throws -> StoreChangeSet) throws {
        try save(changes)
    }
    public var recordsPersistentHistory: Bool { false }

    public var metadata: [String: Any] {
        get { StoreMetadata.kept(for: self) }
        set { StoreMetadata.keep(newValue, for: self) }
    }

    // A custom store without batch support throws, naming its type.
    public func batchInsert(_ request: StoreBatchInsert) throws -> StoreBatchOutcome { throw batchUnsupported("insert") }
    public func batchUpdate(_ request: StoreBatchUpdate) throws -> StoreBatchOutcome { throw batchUnsupported("update") }
    public func batchDelete(_ request: StoreBatchDelete) throws -> StoreBatchOutcome { throw batchUnsupported("delete") }

    private func batchUnsupported(_ kind: String) -> ManagedObjectError {
        ManagedObjectError(.persistentStoreOperation, "the \(type) store \(identifier) does not execute batch \(kind) requests")
    }
}
