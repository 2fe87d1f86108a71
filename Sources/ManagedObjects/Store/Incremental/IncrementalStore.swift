import Foundation

/// A store an app writes, over whatever keeps its data (a file of its own format, a server):
/// Core Data's `NSIncrementalStore`. Subclass it, override ``loadMetadata()``,
/// ``execute(_:with:)`` (fetches and saves), ``newValuesForObject(with:with:)``,
/// ``newValue(forRelationship:forObjectWith:with:)`` and ``obtainPermanentIDs(for:)``, make
/// object IDs with ``newObjectID(for:referenceObject:)`` and read them back with
/// ``referenceObject(for:)``, then register the class under a type name
/// (``PersistentStoreCoordinator/registerStoreClass(_:type:)``) and add a store of that type.
///
/// The runtime talks to it as to every store (``PersistentStore``), translating:
/// - A fetch reaches ``execute(_:with:)`` as a `FetchRequest<ManagedObject>` with the entity,
///   predicate and sort descriptors, `fetchOffset` 0 and `fetchLimit` the offset plus the limit
///   asked (0: none). The store answers with the matching objects or their IDs (any order);
///   the coordinator then applies the predicate and the sorts again over the objects' values,
///   and the window, so a store that filters and sorts gives the same answer as one that does
///   not (Foundation on Linux cannot sort by key). A count request (`resultType` `.count`)
///   is answered by the store alone, as `[count]`. Dictionary fetches are computed from the
///   objects the store returns.
/// - A save reaches it as a ``SaveChangesRequest``, after ``obtainPermanentIDs(for:)`` gave
///   the new objects their IDs. What the store throws reaches the caller of `save()` as it is.
/// - A fault fires through ``newValuesForObject(with:with:)``; to-manys the node leaves out
///   through ``newValue(forRelationship:forObjectWith:with:)``.
///
/// Calls into the subclass are made one at a time (as Core Data's coordinator serializes its
/// calls to a store), so a store needs no locking of its own; a call made from inside another
/// (firing a fault of the context it is given) is allowed. The context given to these methods
/// is one of the store's coordinator made for the call, not the caller's: objects a fetch
/// returns from it are handed to the caller's context by ID.
open class IncrementalStore: PersistentStore, @unchecked Sendable {
    // Unchecked: `type` and `identifier` are set once, while the coordinator opens the store and
    // before any other thread sees it; `metadataState`, `references` and `calls` are
    // thread-safe; the subclass is called only while holding `calls`.

    /// The coordinator that opened the store (`nil` once it is gone).
    public private(set) weak var persistentStoreCoordinator: PersistentStoreCoordinator?
    /// The configuration the store was added with (`Default` for every entity).
    public let configurationName: String
    public let url: URL?
    /// The options the store was added with.
    public let options: [AnyHashable: Any]?
    /// The type name the store class was registered under.
    public internal(set) var type: PersistentStoreType
    /// The store's `NSStoreUUIDKey`, read from its metadata once ``loadMetadata()`` has run.
    public internal(set) var identifier: String

    private let metadataState = LockedValue<[String: Any]>([:])
    let references = IncrementalStoreReferences()
    private let calls = NSRecursiveLock()
    /// The context handed to the subclass during the outermost call under way, and how deep
    /// the calls are; used only while holding `calls`.
    private var callContext: ManagedObjectContext?
    private var callDepth = 0

    /// Core Data's designated initializer. The coordinator makes stores of a registered class
    /// with it (so a subclass that declares its own writes `required`), then calls
    /// ``loadMetadata()``.
    public required init(
        persistentStoreCoordinator root: PersistentStoreCoordinator?, configurationName name: String?, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) {
        persistentStoreCoordinator = root
        configurationName = name ?? "Default"
        self.url = url
        self.options = options
        type = PersistentStoreType(rawValue: String(describing: Self.self))
        identifier = ""
    }

    /// The store's metadata: ``loadMetadata()`` sets it, with at least `NSStoreUUIDKey` (the
    /// store's identifier, the host of its object IDs' URIs) and `NSStoreTypeKey`.
    public var metadata: [String: Any] {
        get { metadataState.withLock { $0 } }
        set { metadataState.withLock { $0 = newValue } }
    }

    // MARK: What a subclass overrides

    /// Reads or creates what the store keeps at ``url`` and sets ``metadata``; throws when the
    /// store cannot be used there. The coordinator calls it once, when the store is added.
    open func loadMetadata() throws {
        throw mustOverride("loadMetadata()")
    }

    /// Runs a fetch (a `FetchRequest<ManagedObject>`: returns the matching objects or their IDs,
    /// or `[count]` for a `.count` result type) or a save (a ``SaveChangesRequest``: returns
    /// an empty array). Tell them apart by ``PersistentStoreRequest/requestType``.
    open func execute(_ request: PersistentStoreRequest, with context: ManagedObjectContext?) throws -> Any {
        throw mustOverride("execute(_:with:)")
    }

    /// The values of the stored object `objectID` (see ``IncrementalStoreNode``); throws when
    /// there is none.
    open func newValuesForObject(with objectID: ManagedObjectID, with context: ManagedObjectContext) throws -> IncrementalStoreNode {
        throw mustOverride("newValuesForObject(with:with:)")
    }

    /// The value of one relationship of a stored object: for a to-one the related object's ID
    /// or `NSNull`; for a to-many the related IDs as an array, set or ordered set.
    open func newValue(
        forRelationship relationship: RelationshipDescription, forObjectWith objectID: ManagedObjectID,
        with context: ManagedObjectContext?
    ) throws -> Any {
        throw mustOverride("newValue(forRelationship:forObjectWith:with:)")
    }

    /// Permanent IDs (from ``newObjectID(for:referenceObject:)``) for new objects, in their
    /// order; called before the save that stores them, or by a context's
    /// `obtainPermanentIDs(for:)`. The objects' values are the ones being saved.
    open func obtainPermanentIDs(for array: [ManagedObject]) throws -> [ManagedObjectID] {
        throw mustOverride("obtainPermanentIDs(for:)")
    }

    /// An identifier for a new store at `storeURL`: a new UUID string.
    open class func identifierForNewStore(at storeURL: URL) -> Any {
        UUID().uuidString
    }

    /// Called when contexts start using objects of the store; the default does nothing. (The
    /// runtime's contexts do not call it: they hold objects weakly and tell no store.)
    open func managedObjectContextDidRegisterObjects(with objectIDs: [ManagedObjectID]) {}

    /// Called when contexts stop using objects of the store; the default does nothing. (Not
    /// called, as ``managedObjectContextDidRegisterObjects(with:)``.)
    open func managedObjectContextDidUnregisterObjects(with objectIDs: [ManagedObjectID]) {}

    // MARK: Object IDs

    /// The permanent ID of the object of `entity` the store knows by `data` (a string or a
    /// number): the same ID each time for the same entity and reference.
    public final func newObjectID(for entity: EntityDescription, referenceObject data: Any) -> ManagedObjectID {
        .permanent(entity: entity, storeIdentifier: identifier, number: references.number(for: data, entityName: entity.name))
    }

    /// The reference an ID of this store was made from with ``newObjectID(for:referenceObject:)``.
    /// Stops the program for another ID (a temporary one, another store's), as Core Data raises.
    public final func referenceObject(for objectID: ManagedObjectID) -> Any {
        guard objectID.storeIdentifier == identifier, let number = objectID.storeNumber,
              let reference = references.reference(for: number, entityName: objectID.entity.name)
        else {
            preconditionFailure("referenceObject(for:): \(objectID) is not an ID \(Swift.type(of: self)) made with newObjectID(for:referenceObject:)")
        }
        return reference
    }

    // MARK: The store seam (what the coordinator and contexts call)

    /// A block predicate reads managed objects, which the coordinator evaluates itself.
    public final func canEvaluate(_ predicate: ObjectPredicate) -> Bool { !predicate.containsBlock }

    public final func execute(_ request: StoreRequest) throws -> StoreResult {
        try calling { context in
            let fetch = FetchRequest<ManagedObject>(
                entityName: request.entity.name, predicate: request.predicate, sortDescriptors: request.sortDescriptors)
            fetch.entity = request.entity
            fetch.includesSubentities = request.includesSubentities
            if request.resultType == .count {
                fetch.resultType = .count
                fetch.fetchOffset = request.fetchOffset
                fetch.fetchLimit = request.fetchLimit
                return .count(try count(in: execute(fetch, with: context), for: request))
            }
            fetch.fetchLimit = request.fetchLimit > 0 ? max(0, request.fetchOffset) + request.fetchLimit : 0
            let ids = try objectIDs(in: execute(fetch, with: context), for: request)
            if request.predicate == nil, request.sortDescriptors.isEmpty, request.resultType == .objectIDs {
                return .objectIDs(Array(request.window(ids)))
            }
            let snapshots = try ids.compactMap { try snapshot(for: $0) }
            return try request.evaluate(over: snapshots, graph: graph)
        }
    }

    public final func snapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        guard objectID.storeIdentifier == identifier else { return nil }
        return try calling { context in
            let node = try newValuesForObject(with: objectID, with: context)
            return try storedObject(from: node, of: objectID)
        }
    }

    public final func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try calling { context in
            let value = try newValue(forRelationship: relationship, forObjectWith: objectID, with: context)
            return try relatedIDs(in: value, of: relationship, for: objectID)
        }
    }

    /// The runtime's contexts ask ``obtainPermanentIDs(for:)`` with the objects instead.
    public final func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID] {
        throw ManagedObjectError(
            .persistentStoreOperation,
            "\(Swift.type(of: self)) makes permanent IDs for objects (obtainPermanentIDs(for:)), not for an entity and a count (\(entity.name))",
            entityName: entity.name)
    }

    public final func save(_ changes: StoreChangeSet) throws {
        try calling { context in
            // Every saved object is registered first, so relationships among them resolve to
            // the objects being saved.
            func loaded(_ snapshots: [StoredObject]) -> [ManagedObject] {
                let objects = snapshots.map { snapshot -> ManagedObject in
                    let object = ManagedObject.fault(for: snapshot.objectID, in: context)
                    context.registered[snapshot.objectID] = object
                    return object
                }
                for (object, snapshot) in zip(objects, snapshots) { object.load(snapshot) }
                return objects
            }
            let inserted = loaded(changes.inserted)
            let updated = loaded(changes.updated)
            let deleted = changes.deleted.compactMap { context.registeredOrStoredObject(with: $0.objectID) }
            let request = SaveChangesRequest(
                inserted: Set(inserted), updated: Set(updated), deleted: Set(deleted), locked: nil)
            _ = try execute(request, with: context)
        }
    }

    // MARK: Translating

    /// Runs `body` as one call into the subclass: one at a time, with the context the
    /// outermost call made (dropped when it ends, with the objects it registered).
    private func calling<Result>(_ body: (ManagedObjectContext) throws -> Result) throws -> Result {
        calls.lock()
        defer { calls.unlock() }
        guard let coordinator = persistentStoreCoordinator else {
            throw ManagedObjectError(.persistentStoreOperation, "the coordinator of \(Swift.type(of: self)) \(identifier) is gone")
        }
        let context = callContext ?? ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        callContext = context
        callDepth += 1
        defer {
            callDepth -= 1
            if callDepth == 0 {
                context.reset()
                callContext = nil
            }
        }
        return try body(context)
    }

    /// Related objects as predicates and sorts read them: this store's through its calls,
    /// other stores' through the coordinator.
    private var graph: SnapshotSubject.Graph {
        SnapshotSubject.Graph(
            snapshot: { [weak self] objectID in
                guard let self else { return nil }
                if objectID.storeIdentifier == identifier { return try? snapshot(for: objectID) }
                return try? persistentStoreCoordinator?.store(for: objectID)?.snapshot(for: objectID)
            },
            relatedObjectIDs: { [weak self] objectID, relationship in
                guard let self else { return [] }
                if objectID.storeIdentifier == identifier { return (try? relatedObjectIDs(of: objectID, relationship: relationship)) ?? [] }
                let store = persistentStoreCoordinator?.store(for: objectID)
                return (try? store?.relatedObjectIDs(of: objectID, relationship: relationship)) ?? []
            })
    }

    /// The IDs in a fetch's answer (objects or IDs) that are objects of the request's entities.
    private func objectIDs(in answer: Any, for request: StoreRequest) throws -> [ManagedObjectID] {
        guard let elements = Self.elements(of: answer) else {
            throw answerError("a fetch of \(request.entity.name) returned \(Swift.type(of: answer)), not an array of objects or object IDs")
        }
        let entities = Set(request.entities.map(ObjectIdentifier.init))
        return try elements.compactMap { element in
            guard let objectID = Self.objectID(of: element) else {
                throw answerError("a fetch of \(request.entity.name) returned a \(Swift.type(of: element)), not an object or an object ID")
            }
            return entities.contains(ObjectIdentifier(objectID.entity)) ? objectID : nil
        }
    }

    /// The count in a count fetch's answer (`[count]`, or the count itself).
    private func count(in answer: Any, for request: StoreRequest) throws -> Int {
        let single = Self.elements(of: answer).flatMap { $0.count == 1 ? $0[0] : nil } ?? answer
        switch single {
        case let count as Int: return count
        case let count as any BinaryInteger: return Int(count)
        case let count as NSNumber: return count.intValue
        default: throw answerError("a count of \(request.entity.name) returned \(Swift.type(of: answer)), not [count]")
        }
    }

    /// An object's stored values from the node the subclass gave, in the entity's property
    /// order: attributes in their storage type, to-ones resolved (asked of the subclass when
    /// the node leaves them out), to-manys left out marked as not loaded.
    private func storedObject(from node: IncrementalStoreNode, of objectID: ManagedObjectID) throws -> StoredObject {
        let entity = objectID.entity
        let what = "newValuesForObject(with: \(objectID)) of \(Swift.type(of: self))"
        var values: [StoredValue] = []
        values.reserveCapacity(entity.properties.count)
        for property in entity.properties {
            switch property.kind {
            case .attribute(let attribute):
                guard !attribute.isTransient, let value = node.value(for: property) else {
                    values.append(.attribute(nil))
                    continue
                }
                values.append(.attribute(try BatchInsertRows.storageValue(value, for: attribute, of: entity, in: what)))
            case .relationship(let relationship):
                if relationship.isTransient {
                    values.append(relationship.isToMany ? .toMany([]) : .toOne(nil))
                } else if let value = node.value(for: property) {
                    let ids = try relatedIDs(in: value, of: relationship, for: objectID)
                    values.append(relationship.isToMany ? .toMany(ids) : .toOne(ids.first))
                } else if relationship.isToMany {
                    values.append(.toManyFault)
                } else {
                    let value = try newValue(forRelationship: relationship, forObjectWith: objectID, with: callContext)
                    values.append(.toOne(try relatedIDs(in: value, of: relationship, for: objectID).first))
                }
            case .fetchedProperty: values.append(.attribute(nil))  // not stored: never among `properties`
            }
        }
        return StoredObject(objectID: objectID, version: Int(clamping: node.version), values: values)
    }

    /// The related IDs a relationship value names: `NSNull`, an ID or an object for a to-one;
    /// an array, set or ordered set of them for a to-many.
    private func relatedIDs(in value: Any, of relationship: RelationshipDescription, for objectID: ManagedObjectID) throws -> [ManagedObjectID] {
        if value is NSNull { return [] }
        if let single = Self.objectID(of: value) { return [single] }
        guard let elements = Self.elements(of: value) else {
            throw answerError("\(relationship.name) of \(objectID) is a \(Swift.type(of: value)), not object IDs")
        }
        return try elements.map { element in
            guard let id = Self.objectID(of: element) else {
                throw answerError("\(relationship.name) of \(objectID) holds a \(Swift.type(of: element)), not an object ID")
            }
            return id
        }
    }

    private static func objectID(of element: Any) -> ManagedObjectID? {
        switch element {
        case let id as ManagedObjectID: id
        case let object as ManagedObject: object.objectID
        default: nil
        }
    }

    /// The members of an array, set or ordered set (Swift's or Foundation's).
    private static func elements(of collection: Any) -> [Any]? {
        switch collection {
        case let array as [Any]: array
        case let set as Set<ManagedObject>: Array(set)
        case let set as Set<ManagedObjectID>: Array(set)
        case let set as NSSet: set.allObjects
        case let set as NSOrderedSet: set.array
        case let array as NSArray: array.map { $0 }
        default: nil
        }
    }

    private func answerError(_ message: String) -> ManagedObjectError {
        ManagedObjectError(.persistentStoreOperation, "\(Swift.type(of: self)): \(message)")
    }

    private func mustOverride(_ method: String) -> ManagedObjectError {
        ManagedObjectError(.persistentStoreOperation, "\(Swift.type(of: self)) does not override \(method), which a subclass of NSIncrementalStore must")
    }
}

/// Stores that give new objects permanent IDs from the objects themselves: the save and
/// `obtainPermanentIDs(for:)` of a context hand them the objects rather than a count.
extension IncrementalStore {
    /// ``obtainPermanentIDs(for:)``, checked: one permanent ID of this store per object, of the
    /// object's entity. Throws naming the store and the object otherwise.
    func checkedPermanentIDs(for objects: [ManagedObject]) throws -> [ManagedObjectID] {
        let ids = try calling { _ in try obtainPermanentIDs(for: objects) }
        guard ids.count == objects.count else {
            throw answerError("obtainPermanentIDs(for:) returned \(ids.count) IDs for \(objects.count) objects")
        }
        for (object, id) in zip(objects, ids) where id.isTemporaryID || id.storeIdentifier != identifier || id.entity !== object.entity {
            throw ManagedObjectError(
                .persistentStoreOperation,
                "\(Swift.type(of: self)): obtainPermanentIDs(for:) returned \(id) for an object of \(object.entity.name); use newObjectID(for: object.entity, referenceObject:)",
                entityName: object.entity.name, objectID: object.objectID)
        }
        return ids
    }
}
