import Foundation

/// A request a context hands straight to its store: Core Data's `NSPersistentStoreRequest`.
/// The batch requests (``BatchInsertRequest``, ``BatchUpdateRequest``, ``BatchDeleteRequest``)
/// run with `context.execute(_:)`, in the store, bypassing the context: its objects learn of the
/// changes only when they are merged (``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)-([AnyHashable:Any],_)``).
public class PersistentStoreRequest {
    init() {}
}

/// What `execute(_:)` returns: Core Data's `NSPersistentStoreResult`; the batch results
/// subclass it.
public class PersistentStoreResult {
    init() {}
}

// MARK: Batch insert

/// Core Data's `NSBatchInsertRequestResultType`.
public enum BatchInsertRequestResultType: Sendable, Hashable {
    /// `result` is `true` once the rows are in the store.
    case statusOnly
    /// `result` is the new objects' IDs (`[ManagedObjectID]`).
    case objectIDs
    /// `result` is how many objects were inserted (`Int`).
    case count
}

/// New objects of one entity written straight to the store: Core Data's `NSBatchInsertRequest`.
///
/// The rows come as dictionaries of attribute names to values (`objectsToInsert`), or from a
/// handler called until it returns `true`: `dictionaryHandler` fills a dictionary,
/// `managedObjectHandler` sets the attributes of an object that is in no context (the call
/// that returns `true` adds nothing). An attribute a row leaves out gets the model's default.
/// As in Core Data, relationships cannot be set, and validation rules are not checked; a key
/// that is not an attribute of the entity, or a value that is not of the attribute's type,
/// throws before anything is written.
public final class BatchInsertRequest: PersistentStoreRequest {
    public let entityName: String
    public var objectsToInsert: [[String: Any]]?
    public var dictionaryHandler: ((inout [String: Any]) -> Bool)?
    public var managedObjectHandler: ((ManagedObject) -> Bool)?
    public var resultType: BatchInsertRequestResultType = .statusOnly

    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        self.objectsToInsert = objects
    }

    public convenience init(entity: EntityDescription, objects: [[String: Any]]) {
        self.init(entityName: entity.name, objects: objects)
    }

    public init(entityName: String, dictionaryHandler: @escaping (inout [String: Any]) -> Bool) {
        self.entityName = entityName
        self.dictionaryHandler = dictionaryHandler
    }

    public convenience init(entity: EntityDescription, dictionaryHandler: @escaping (inout [String: Any]) -> Bool) {
        self.init(entityName: entity.name, dictionaryHandler: dictionaryHandler)
    }

    public init(entityName: String, managedObjectHandler: @escaping (ManagedObject) -> Bool) {
        self.entityName = entityName
        self.managedObjectHandler = managedObjectHandler
    }

    public convenience init(entity: EntityDescription, managedObjectHandler: @escaping (ManagedObject) -> Bool) {
        self.init(entityName: entity.name, managedObjectHandler: managedObjectHandler)
    }
}

/// Core Data's `NSBatchInsertResult`.
public final class BatchInsertResult: PersistentStoreResult {
    public let resultType: BatchInsertRequestResultType
    /// As Core Data gives it: `true` (status), `[ManagedObjectID]` or `Int` (count).
    public let result: Any?

    init(resultType: BatchInsertRequestResultType, outcome: StoreBatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .statusOnly: result = true
        case .objectIDs: result = outcome.objectIDs ?? []
        case .count: result = outcome.count
        }
    }

    /// The inserted objects' IDs, for the `objectIDs` result type.
    public var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// How many objects were inserted, for the `count` result type.
    public var count: Int? { result as? Int }
}

// MARK: Batch update

/// Core Data's `NSBatchUpdateRequestResultType`.
public enum BatchUpdateRequestResultType: Sendable, Hashable {
    /// `result` is `true` once the store is updated.
    case statusOnlyResultType
    /// `result` is the updated objects' IDs (`[ManagedObjectID]`).
    case updatedObjectIDsResultType
    /// `result` is how many objects were updated (`Int`).
    case updatedObjectsCountResultType
}

/// New attribute values for every object of an entity a predicate matches, written straight to
/// the store: Core Data's `NSBatchUpdateRequest`.
///
/// `propertiesToUpdate` maps attribute names to a constant (converted to the attribute's type
/// as `setValue(_:forKey:)` converts it; `NSNull()` clears it) or an ``ObjectExpression``
/// evaluated for each object (`ObjectExpression(parsing: "count + 1")`). Updated objects'
/// versions increase. As in Core Data, validation rules are not checked and relationships
/// cannot be set; an unknown key, a relationship, or a constant of the wrong type throws before
/// anything is written.
public final class BatchUpdateRequest: PersistentStoreRequest {
    public let entityName: String
    public var predicate: ObjectPredicate?
    public var propertiesToUpdate: [String: Any]?
    public var includesSubentities = true
    public var resultType: BatchUpdateRequestResultType = .statusOnlyResultType

    public init(entityName: String) {
        self.entityName = entityName
    }

    public convenience init(entity: EntityDescription) {
        self.init(entityName: entity.name)
    }
}

/// Core Data's `NSBatchUpdateResult`.
public final class BatchUpdateResult: PersistentStoreResult {
    public let resultType: BatchUpdateRequestResultType
    /// As Core Data gives it: `true` (status), `[ManagedObjectID]` or `Int` (count).
    public let result: Any?

    init(resultType: BatchUpdateRequestResultType, outcome: StoreBatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .statusOnlyResultType: result = true
        case .updatedObjectIDsResultType: result = outcome.objectIDs ?? []
        case .updatedObjectsCountResultType: result = outcome.count
        }
    }

    /// The updated objects' IDs, for the `updatedObjectIDsResultType` result type.
    public var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// How many objects were updated, for the `updatedObjectsCountResultType` result type.
    public var count: Int? { result as? Int }
}

// MARK: Batch delete

/// Core Data's `NSBatchDeleteRequestResultType`.
public enum BatchDeleteRequestResultType: Sendable, Hashable {
    /// `result` is `true` once the objects are deleted.
    case resultTypeStatusOnly
    /// `result` is the deleted objects' IDs (`[ManagedObjectID]`).
    case resultTypeObjectIDs
    /// `result` is how many objects were deleted (`Int`).
    case resultTypeCount
}

/// Deletes the objects a fetch request matches (or the objects with the given IDs) straight in
/// the store: Core Data's `NSBatchDeleteRequest`.
///
/// The deleted objects' delete rules are applied by the store, as Core Data applies them:
/// Cascade deletes related objects too (they are counted and listed with the others), Nullify
/// removes the deleted objects from related ones (134030 when that would empty a mandatory
/// to-one), Deny throws 1600 when a deleted object has related objects. Validation rules are
/// not checked. The fetch request's entity, predicate and `includesSubentities` are used; a
/// fetch limit or offset throws `invalidFetchRequest`. Object IDs must all be of one entity's
/// table (Core Data: one entity), else the request throws.
public final class BatchDeleteRequest: PersistentStoreRequest {
    public let fetchRequest: FetchRequest<Any>
    /// The IDs given to `init(objectIDs:)`.
    public let objectIDs: [ManagedObjectID]?
    public var resultType: BatchDeleteRequestResultType = .resultTypeStatusOnly

    public init<Result>(fetchRequest: FetchRequest<Result>) {
        let copy = FetchRequest<Any>(
            entityName: fetchRequest.entityName, predicate: fetchRequest.predicate,
            sortDescriptors: fetchRequest.sortDescriptors)
        copy.includesSubentities = fetchRequest.includesSubentities
        copy.fetchLimit = fetchRequest.fetchLimit
        copy.fetchOffset = fetchRequest.fetchOffset
        self.fetchRequest = copy
        self.objectIDs = nil
    }

    public init(objectIDs: [ManagedObjectID]) {
        self.fetchRequest = FetchRequest<Any>(entityName: objectIDs.first?.entity.name ?? "")
        self.objectIDs = objectIDs
    }
}

/// Core Data's `NSBatchDeleteResult`.
public final class BatchDeleteResult: PersistentStoreResult {
    public let resultType: BatchDeleteRequestResultType
    /// As Core Data gives it: `true` (status), `[ManagedObjectID]` or `Int` (count).
    public let result: Any?

    init(resultType: BatchDeleteRequestResultType, outcome: StoreBatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .resultTypeStatusOnly: result = true
        case .resultTypeObjectIDs: result = outcome.objectIDs ?? []
        case .resultTypeCount: result = outcome.count
        }
    }

    /// The deleted objects' IDs, for the `resultTypeObjectIDs` result type.
    public var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// How many objects were deleted, for the `resultTypeCount` result type.
    public var count: Int? { result as? Int }
}
