import Foundation

extension ManagedObjectContext {
    /// The objects (or IDs, or count, per `resultType`) the request describes.
    ///
    /// The store finds the saved objects (and evaluates the predicate and sorts itself where it
    /// can); with `includesPendingChanges`, this context's unsaved inserts, changes and deletes
    /// are laid over that answer and sort, offset and limit applied again, as Core Data does.
    /// Objects already registered here are returned as they are; new ones are faults (see
    /// `returnsObjectsAsFaults`). Throws `invalidFetchRequest` for an unknown entity, a
    /// `$VARIABLE` without a value, or a `Result` type that does not fit the result type.
    func fetchResults<Result>(_ request: FetchRequest<Result>) throws -> [Result] {
        let results: [Any]
        switch request.resultType {
        // Objects go straight to `Result`, not through an array of `Any` as large as the answer.
        case .managedObject: return try typed(try fetchObjects(request), request)
        case .managedObjectID: results = try FetchPlan(request, in: self).objectIDs()
        case .count: results = [try count(for: request)]
        case .dictionary: results = try fetchDictionaries(request)
        }
        return try typed(results, request)
    }

    /// `results` as the request's `Result` type; throws `invalidFetchRequest` for a result of
    /// another type (a `resultType` that does not fit `Result`).
    private func typed<Element, Result>(_ results: [Element], _ request: FetchRequest<Result>) throws -> [Result] {
        try results.map { result in
            guard let typed = result as? Result else {
                throw ManagedObjectError(
                    .invalidFetchRequest,
                    "\(request): a \(type(of: result)) result is not a \(Result.self); check resultType",
                    entityName: request.entityName)
            }
            return typed
        }
    }

    /// How many objects the request would return. Without unsaved changes that concern it,
    /// the store counts (no object is made).
    func countResults<Result>(for request: FetchRequest<Result>) throws -> Int {
        let plan = try FetchPlan(request, in: self)
        if plan.storeAnswers {
            guard case .count(let count) = try plan.storeAnswer(.count) else { return 0 }
            return count
        }
        return try plan.objectIDs().count
    }

    private func fetchObjects<Result>(_ request: FetchRequest<Result>) throws -> [ManagedObject] {
        let plan = try FetchPlan(request, in: self)
        if !plan.storeAnswers, request.shouldRefreshRefetchedObjects,
           case .snapshots(let snapshots) = try plan.storeAnswer(.snapshots) {
            // The rows the store matches bring registered objects up to date before this
            // context's changes are laid over the answer.
            _ = objects(forSnapshots: snapshots, loading: false, refreshing: true)
        }
        let objects = plan.storeAnswers ? try objectsFromStore(plan) : try plan.merged()
        if request.fetchBatchSize > 0 {
            var batch: [ManagedObject] = []
            for object in objects where object.isFault && object.rowCacheUse == nil {
                batch.append(object)
                if batch.count == request.fetchBatchSize {
                    assign(batch)
                    batch = []
                }
            }
            assign(batch)
        }
        try prefetch(request.relationshipKeyPathsForPrefetching, of: objects)
        return objects
    }

    /// The rows of a `.dictionary` fetch: computed by the store when it evaluates the predicate
    /// and sorts, else here over the saved objects.
    private func fetchDictionaries<Result>(_ request: FetchRequest<Result>) throws -> [[String: Any]] {
        // Sorts may name computed columns.
        let columns = Set((request.propertiesToFetch ?? []).compactMap { column -> String? in
            if case .expression(let description) = column { description.name } else { nil }
        })
        let plan = try FetchPlan(request, in: self, includingPendingChanges: false, columnNames: columns)
        let projection = DictionaryProjection(
            properties: request.propertiesToFetch ?? DictionaryProjection.allProperties(of: plan.storeRequest.entity),
            groupBy: request.propertiesToGroupBy ?? [], returnsDistinctResults: request.returnsDistinctResults)
        try projection.check(for: plan.storeRequest.entity, in: "\(request)")
        if !plan.evaluatesInContext {
            guard case .dictionaries(let rows) = try plan.storeAnswer(.dictionaries(projection)) else { return [] }
            return rows
        }
        let objects = try plan.merged(sortingAndWindowing: false)
        return projection.rows(
            of: objects, sortedBy: request.sortDescriptors, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    private func assign(_ batch: [ManagedObject]) {
        let shared = FaultBatch(batch.map(\.objectID))
        for object in batch { object.faultBatch = shared }
    }

    /// The store's answer as objects: faults whose rows wait in the row cache (or loaded, when
    /// the request does not want faults), or bare faults when it does not want values.
    private func objectsFromStore<Result>(_ plan: FetchPlan<Result>) throws -> [ManagedObject] {
        let request = plan.request
        let wantsValues = !request.returnsObjectsAsFaults || (request.includesPropertyValues && request.fetchBatchSize == 0)
        guard wantsValues else {
            return try plan.storeAnswer(.objectIDs).objectIDs.compactMap(registeredOrStoredObject(with:))
        }
        guard case .snapshots(let snapshots) = try plan.storeAnswer(.snapshots) else { return [] }
        return objects(
            forSnapshots: snapshots, loading: !request.returnsObjectsAsFaults, refreshing: request.shouldRefreshRefetchedObjects)
    }

    /// Reads the objects at the end of each key path with as few store reads as it takes, and
    /// relates them, so the relationships are no longer faults.
    private func prefetch(_ keyPaths: [String], of objects: [ManagedObject]) throws {
        for keyPath in keyPaths {
            var level = objects
            for key in keyPath.split(separator: ".").map(String.init) {
                var next: [ManagedObject] = []
                var seen = Set<ObjectIdentifier>()
                try cacheRows(of: level)
                for object in level {
                    guard let relationship = object.entity.relationship(named: key) else {
                        throw ManagedObjectError(
                            .invalidFetchRequest,
                            "relationshipKeyPathsForPrefetching: \(object.entity.name) has no relationship '\(key)' (in '\(keyPath)')",
                            entityName: object.entity.name, key: key)
                    }
                    for related in object.relatedObjects(relationship) where seen.insert(ObjectIdentifier(related)).inserted {
                        next.append(related)
                    }
                }
                level = next
            }
            try cacheRows(of: level)
            for object in level where object.isFault { _ = object.values }
        }
    }
}

/// One fetch: the request checked against the model, the context's unsaved changes that
/// concern it, and how much the store can answer.
struct FetchPlan<Result> {
    let request: FetchRequest<Result>
    let context: ManagedObjectContext
    let storeRequest: StoreRequest
    /// Inserted, updated and deleted objects of the request's entities (empty when the request
    /// does not include pending changes).
    let pendingObjects: [ManagedObject]
    /// Whether the predicate and sorts run here over managed objects, the store only listing
    /// the entity's objects: for a predicate the store cannot evaluate (a block), or for key
    /// paths through relationships while the context has unsaved changes the store's answer
    /// cannot see.
    let evaluatesInContext: Bool

    init(
        _ request: FetchRequest<Result>, in context: ManagedObjectContext, includingPendingChanges: Bool = true,
        columnNames: Set<String> = []
    ) throws {
        guard let entity = context.managedObjectModel[request.entityName] else {
            throw ManagedObjectError(
                .invalidFetchRequest, "\(request): the model has no entity named '\(request.entityName)'",
                entityName: request.entityName)
        }
        if let error = request.typedPredicateError ?? request.typedSortError { throw error }
        try entity.checkKeyPaths(
            (request.predicate?.keyPathsRead ?? []) + request.sortDescriptors.map(\.key).filter { !columnNames.contains($0) },
            in: "\(request)")
        self.request = request
        self.context = context
        let store = try context.readingStore(for: entity)
        let storeEvaluates = (request.predicate.map(store.canEvaluate) ?? true) && store.canSort(by: request.sortDescriptors)
        let readsRelatedObjects = (request.predicate?.mayReadRelatedObjects ?? false)
            || request.sortDescriptors.contains { $0.key.contains(".") }
        let includesChanges = includingPendingChanges && request.includesPendingChanges && context.hasChanges
        evaluatesInContext = !storeEvaluates || (includesChanges && readsRelatedObjects)
        storeRequest = StoreRequest(
            entity: entity, includesSubentities: request.includesSubentities,
            predicate: evaluatesInContext ? nil : request.predicate,
            sortDescriptors: evaluatesInContext ? [] : request.sortDescriptors,
            fetchOffset: request.fetchOffset, fetchLimit: request.fetchLimit)
        if includesChanges {
            let entities = Set(storeRequest.entities.map(ObjectIdentifier.init))
            pendingObjects = (context.inserted.elements + context.updated.elements + context.deleted.elements)
                .filter { entities.contains(ObjectIdentifier($0.entity)) }
        } else {
            pendingObjects = []
        }
    }

    /// Whether the store's answer is the fetch's answer.
    var storeAnswers: Bool { pendingObjects.isEmpty && !evaluatesInContext }

    func storeAnswer(_ resultType: StoreRequest.ResultType) throws -> StoreResult {
        var storeRequest = storeRequest
        storeRequest.resultType = resultType
        return try context.sourceAnswer(storeRequest)
    }

    /// The matching IDs, pending changes laid over the store's answer.
    func objectIDs() throws -> [ManagedObjectID] {
        if storeAnswers { return try storeAnswer(.objectIDs).objectIDs }
        return try merged().map(\.objectID)
    }

    /// The store's answer with this context's unsaved changes laid over it: deleted objects
    /// out, changed ones matched by their current values (in place when they still match),
    /// inserted ones added; then sort, offset and limit applied again. The store is asked for
    /// enough rows to fill the window after the changed objects are taken out. When the
    /// context evaluates, the store lists every object of the entity and the predicate runs
    /// on each here.
    func merged(sortingAndWindowing: Bool = true) throws -> [ManagedObject] {
        var wide = storeRequest
        wide.fetchOffset = 0
        wide.fetchLimit = request.fetchLimit > 0 && !evaluatesInContext && sortingAndWindowing
            ? request.fetchOffset + request.fetchLimit + pendingObjects.count : 0
        wide.resultType = .objectIDs
        let pending = Set(pendingObjects.map(ObjectIdentifier.init))
        let predicate = request.predicate
        func matches(_ object: ManagedObject) throws -> Bool {
            guard let predicate else { return true }
            do {
                return try predicate.evaluateChecked(with: object)
            } catch {
                throw ManagedObjectError(.invalidFetchRequest, "\(request): \(error)", entityName: request.entityName, underlying: error)
            }
        }
        var objects: [ManagedObject] = []
        var placed = Set<ObjectIdentifier>()
        for objectID in try context.sourceAnswer(wide).objectIDs {
            guard let object = context.registeredOrStoredObject(with: objectID) else { continue }
            if pending.contains(ObjectIdentifier(object)) {
                guard !object.isDeleted || !request.includesPendingChanges else { continue }
                placed.insert(ObjectIdentifier(object))
                guard try matches(object) else { continue }
            } else if evaluatesInContext {
                guard try matches(object) else { continue }
            }
            objects.append(object)
        }
        for object in pendingObjects where !object.isDeleted && !placed.contains(ObjectIdentifier(object)) {
            if try matches(object) { objects.append(object) }
        }
        guard sortingAndWindowing else { return objects }
        if !request.sortDescriptors.isEmpty {
            objects = request.sortDescriptors.sorted(objects)
        }
        return Array(objects.window(offset: request.fetchOffset, limit: request.fetchLimit))
    }
}
