import Foundation

/// What a fetch returns. Core Data's `NSFetchRequestResultType`.
public enum FetchRequestResultType: Sendable, Hashable {
    /// Objects: `Result` is the entity's class (or `ManagedObject`).
    case managedObject
    /// Object IDs: `Result` is `ManagedObjectID`.
    case managedObjectID
    /// The number of matching objects, as the single element of the result: `Result` is `Int`.
    case count
}

/// A description of objects to fetch: an entity (and by default its sub-entities), a
/// predicate, an order, a window. Core Data's `NSFetchRequest<Result>`.
public final class FetchRequest<Result>: CustomStringConvertible {
    public var entityName: String
    /// Objects the predicate rejects are left out; `nil` keeps every object.
    public var predicate: ObjectPredicate?
    /// Applied in turn: the first that tells two objects apart orders them. Objects they do
    /// not tell apart keep the store's order (insertion order).
    public var sortDescriptors: [ObjectSortDescriptor]
    /// The most objects to return; 0 means no limit.
    public var fetchLimit: Int = 0
    /// How many matching objects to skip first.
    public var fetchOffset: Int = 0
    /// Whether objects of sub-entities match too.
    public var includesSubentities = true
    /// Whether unsaved changes count: objects inserted since the last save are included and
    /// deleted ones are left out. When `false`, only saved objects are returned, deleted ones
    /// included (predicates still see current values).
    public var includesPendingChanges = true
    public var resultType: FetchRequestResultType = .managedObject
    /// Accepted for source compatibility; every object is fetched whole.
    public var fetchBatchSize: Int = 0
    /// Accepted for source compatibility; objects are never faults.
    public var returnsObjectsAsFaults = true

    public init(entityName: String, predicate: ObjectPredicate? = nil, sortDescriptors: [ObjectSortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }

    public var description: String {
        var parts = ["FetchRequest<\(Result.self)>(\(entityName)"]
        if !sortDescriptors.isEmpty { parts.append("sorted by \(sortDescriptors.map(\.description).joined(separator: ", "))") }
        if fetchOffset > 0 { parts.append("offset \(fetchOffset)") }
        if fetchLimit > 0 { parts.append("limit \(fetchLimit)") }
        return parts.joined(separator: ", ") + ")"
    }
}

extension ManagedObjectContext {
    /// The objects (or IDs, or count, per `resultType`) the request describes.
    ///
    /// Objects already in the context are returned as they are here, unsaved changes and all;
    /// an object another context saved since this one read it, and this one has not changed,
    /// is brought up to date first. Throws `invalidFetchRequest` for an unknown entity or a
    /// `Result` type that does not fit the result type.
    public func fetch<Result>(_ request: FetchRequest<Result>) throws -> [Result] {
        let objects = try matchingObjects(request)
        let results: [Any]
        switch request.resultType {
        case .managedObject: results = objects
        case .managedObjectID: results = objects.map(\.objectID)
        case .count: results = [objects.count]
        }
        return try results.map { result in
            guard let typed = result as? Result else {
                throw ManagedObjectError(
                    .invalidFetchRequest,
                    "\(request): a \(type(of: result)) result is not a \(Result.self); check resultType",
                    entityName: request.entityName)
            }
            return typed
        }
    }

    /// How many objects the request would return.
    public func count<Result>(for request: FetchRequest<Result>) throws -> Int {
        try matchingObjects(request).count
    }

    private func matchingObjects<Result>(_ request: FetchRequest<Result>) throws -> [ManagedObject] {
        guard let entity = managedObjectModel[request.entityName] else {
            throw ManagedObjectError(
                .invalidFetchRequest, "\(request): the model has no entity named '\(request.entityName)'",
                entityName: request.entityName)
        }
        let entities = request.includesSubentities ? entity.selfAndDescendants : [entity]
        let entityNames = Set(entities.map(\.name))
        var candidates: [ManagedObject] = []
        for stored in try persistentStoreCoordinator.store().objects(ofEntities: entityNames) {
            let object: ManagedObject
            if let registered = registered[stored.objectID] {
                if !registered.hasChanges, registered.committedSnapshot?.version != stored.version {
                    registered.load(stored)
                }
                object = registered
            } else {
                object = materialize(stored)
            }
            if request.includesPendingChanges && object.isDeleted { continue }
            candidates.append(object)
        }
        if request.includesPendingChanges {
            candidates += inserted.filter { entityNames.contains($0.entity.name) && !$0.isDeleted }
        }
        if let predicate = request.predicate {
            candidates = candidates.filter { predicate.evaluate(with: $0) }
        }
        if !request.sortDescriptors.isEmpty {
            candidates = request.sortDescriptors.sorted(candidates)
        }
        let window = candidates.dropFirst(max(0, request.fetchOffset))
        return Array(request.fetchLimit > 0 ? window.prefix(request.fetchLimit) : window)
    }
}
