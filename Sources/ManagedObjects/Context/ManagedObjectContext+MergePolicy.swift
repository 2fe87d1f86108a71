import Foundation
import OrderedCollections

extension ManagedObjectContext {
    /// How many times a save resolves conflicts and tries again before it gives up (other
    /// contexts may keep saving the same objects in between).
    static let conflictResolutionAttempts = 16

    /// The pause before a save's `attempt`-th try after conflicts: none for the first retry (one
    /// process's contexts conflict once), then a random 1–4 ms doubling each time, at most 250 ms,
    /// so that processes saving the same rows over and over on a server store stop meeting.
    static func pauseBeforeRetrying(attempt: Int) {
        guard attempt >= 2 else { return }
        let pause = min(Double.random(in: 0.001...0.004) * Double(1 << min(attempt - 2, 8)), 0.25)
        Thread.sleep(forTimeInterval: pause)
    }

    /// After the store refused a save with a merge or constraint conflict: finds every conflict
    /// of the context's changes, then resolves them by `mergePolicy`, or throws `error` with
    /// them in its `conflictList` (the `error` policy, or no attempts left).
    func resolveConflicts(refusedWith error: ManagedObjectError, in store: any PersistentStore, attempt: Int) throws {
        var error = error
        let codes = Set([error.code] + error.detailedErrors.map(\.code))
        if codes.contains(.mergeConflict) {
            let conflicts = try mergeConflicts(in: store)
            error.mergeConflicts = conflicts
            guard mergePolicy != .error, !conflicts.isEmpty, attempt < Self.conflictResolutionAttempts else { throw error }
            Self.pauseBeforeRetrying(attempt: attempt)
            for conflict in conflicts { resolve(conflict) }
        } else if codes.contains(.constraintConflict) {
            guard try resolveConstraintConflicts(in: store, refusedWith: error, attempt: attempt, pausing: true) else { throw error }
        } else {
            throw error
        }
    }

    /// Finds the context's uniqueness conflicts with `store` (and among its own saved objects) and
    /// resolves them by `mergePolicy`; returns whether there were any. Under the `error` policy,
    /// or with no attempts left, throws `error` (or one made from the first conflict, when the
    /// store refused nothing yet) with the conflicts in its `conflictList`. `pausing` waits
    /// before a retry that follows others (``pauseBeforeRetrying(attempt:)``): a store resolving
    /// inside its save holds the constrained values, and does not pause.
    func resolveConstraintConflicts(
        in store: any PersistentStore, refusedWith error: ManagedObjectError?, attempt: Int, pausing: Bool
    ) throws -> Bool {
        let conflicts = try constraintConflicts(in: store)
        guard !conflicts.isEmpty else { return false }
        guard mergePolicy != .error, attempt < Self.conflictResolutionAttempts else {
            var error = error ?? ManagedObjectError(conflicts[0])
            error.constraintConflicts = conflicts
            throw error
        }
        if pausing { Self.pauseBeforeRetrying(attempt: attempt) }
        for conflict in conflicts { resolve(conflict) }
        return true
    }

    // MARK: Object conflicts

    /// The changed and deleted objects whose stored version is not the one this context read.
    func mergeConflicts(in store: any PersistentStore) throws -> [MergeConflict] {
        var conflicts: [MergeConflict] = []
        for object in updated.elements + deleted.elements where object.objectID.storeIdentifier == store.identifier {
            let read = object.committedSnapshot?.version ?? 0
            let stored = try store.snapshot(for: object.objectID)
            guard stored?.version != read else { continue }
            conflicts.append(MergeConflict(
                sourceObject: object, objectSnapshot: object.currentSnapshot().dictionary(of: object.entity),
                cachedSnapshot: object.committedSnapshot?.dictionary(of: object.entity),
                persistedSnapshot: stored?.dictionary(of: object.entity),
                newVersionNumber: stored?.version ?? 0, oldVersionNumber: read))
        }
        return conflicts
    }

    /// Applies the merge policy to one object conflict: the object takes the stored version
    /// (so the save goes through) with the values the policy keeps. An object another context
    /// deleted leaves this context whatever the policy (its row is gone). A delete in conflict
    /// goes through, except under `.rollback`, which discards it as it discards changes.
    private func resolve(_ conflict: MergeConflict) {
        let object = conflict.sourceObject
        guard let stored = try? coordinator.store(for: object.objectID)?.snapshot(for: object.objectID) else {
            forget(object)
            return
        }
        if object.isDeleted {
            guard mergePolicy == .rollback else {
                // The delete goes through over the newer version.
                object.committedSnapshot?.version = stored.version
                return
            }
            // Rollback discards the delete too: the object stays, with the stored values.
            object.isDeleted = false
            deleted.remove(object)
        }
        let read = object.committedSnapshot
        let kept: [Int] = object.entity.properties.indices.filter { index in
            let ordered = object.entity.properties[index].relationshipIsOrdered
            let changedHere = object.hasChangedValue(at: index)
            let changedThere = read.map { !stored.values[index].isSame(as: $0.values[index], ordered: ordered) } ?? true
            switch mergePolicy {
            case .error, .rollback: return false
            case .overwrite: return true
            case .mergeByPropertyObjectTrump: return changedHere
            case .mergeByPropertyStoreTrump: return changedHere && !changedThere
            }
        }
        reload(object, from: stored, keeping: kept)
    }

    /// Loads stored values into a changed object, keeping its own values at `kept` indexes; it
    /// stays changed when they differ from the stored ones.
    func reload(_ object: ManagedObject, from stored: StoredObject, keeping kept: [Int]) {
        let values = kept.map { ($0, object.values[$0]) }
        object.load(object.keepingTransientValues(stored))
        for (index, value) in values { object.values[index] = value }
        if object.isUpdated, !object.entity.properties.indices.contains(where: object.hasChangedValue) {
            object.isUpdated = false
            updated.remove(object)
        }
    }

    // MARK: Constraint conflicts

    /// The groups of saved objects that share a uniqueness constraint's values with each other
    /// or with a stored object. The store is asked once per constraint for the stored objects
    /// with any of the values.
    func constraintConflicts(in store: any PersistentStore) throws -> [ConstraintConflict] {
        typealias Constraint = UniquenessIndex.Constraint
        var groups: OrderedDictionary<Constraint, OrderedDictionary<[AnyHashable], [ManagedObject]>> = [:]
        for object in inserted.elements + updated.elements {
            let snapshot = object.currentSnapshot()
            for constraint in Constraint.applicable(to: object.entity) {
                guard let key = constraint.key(of: snapshot) else { continue }
                groups[constraint, default: [:]][key, default: []].append(object)
            }
        }
        let leaving = Set(deleted.map(\.objectID))
        var conflicts: [ConstraintConflict] = []
        for (constraint, keys) in groups {
            guard let entity = managedObjectModel[constraint.declaringEntity], let first = constraint.names.first else { continue }
            let candidates: [StoredObject]
            if let memory = store as? InMemoryStore {
                // Its uniqueness index answers by hashing, where the predicate would compare
                // every row with every value.
                candidates = memory.storedObjects(holding: Array(keys.keys), under: constraint)
            } else {
                let request = StoreRequest(
                    entity: entity, predicate: ObjectPredicate("%K IN %@", first, keys.keys.map { $0[0].base }),
                    resultType: .snapshots)
                guard case .snapshots(let found) = try store.execute(request) else { continue }
                candidates = found
            }
            var owners: [[AnyHashable]: StoredObject] = [:]
            for stored in candidates where !leaving.contains(stored.objectID) {
                // An object saved with other values leaves its stored key.
                if let object = registered[stored.objectID], object.isUpdated,
                   constraint.key(of: object.currentSnapshot()) != constraint.key(of: stored) { continue }
                if let key = constraint.key(of: stored) { owners[key] = stored }
            }
            for (key, objects) in keys {
                let owner = owners[key].flatMap { stored in
                    objects.contains { $0.objectID == stored.objectID } ? nil : stored
                }
                guard owner != nil || objects.count > 1 else { continue }
                // Made from the row read, which the row cache keeps: it fires without a read.
                let databaseObject = owner.map { object(forSnapshot: $0, loading: false) }
                conflicts.append(ConstraintConflict(
                    constraint: constraint.names,
                    constraintValues: Dictionary(uniqueKeysWithValues: zip(constraint.names, key.map(\.base))),
                    databaseObject: databaseObject,
                    databaseSnapshot: owner?.dictionary(of: databaseObject?.entity ?? entity),
                    conflictingObjects: objects,
                    conflictingSnapshots: objects.map { $0.committedSnapshot?.dictionary(of: $0.entity) ?? [:] }))
            }
        }
        return conflicts
    }

    /// Applies the merge policy to one constraint conflict: one object keeps the values (the
    /// stored one, else the first saved), the others are discarded; with an object-trump policy
    /// their values are copied onto it first, in order (an upsert).
    private func resolve(_ conflict: ConstraintConflict) {
        var losers = conflict.conflictingObjects.filter { registered[$0.objectID] === $0 }
        guard let survivor = conflict.databaseObject ?? (losers.isEmpty ? nil : losers.removeFirst()) else { return }
        for loser in losers {
            if mergePolicy.objectWins {
                copyValues(of: loser, onto: survivor, everyProperty: mergePolicy == .overwrite)
            }
            if loser.isInserted {
                forget(loser)
            } else if mergePolicy.objectWins {
                delete(loser)
            } else {
                refresh(loser, mergeChanges: false)
            }
        }
    }

    /// Sets `target`'s properties to `source`'s (the changed ones, or all): attributes, to-ones,
    /// and to-manys (whose members join `target`'s unless `everyProperty`), inverses kept.
    private func copyValues(of source: ManagedObject, onto target: ManagedObject, everyProperty: Bool) {
        for property in source.entity.properties where target.entity.propertiesByName[property.name] != nil {
            guard everyProperty || source.hasChangedValue(at: property.index) else { continue }
            let value = source.value(forKey: property.name)
            if case .relationship(let relationship) = property.kind, relationship.isToMany, !everyProperty {
                let members = ManagedObject.objects(in: value)
                target.setValue(ManagedObject.objects(in: target.value(forKey: property.name)) + members, forKey: property.name)
            } else {
                target.setValue(value, forKey: property.name)
            }
        }
    }
}

extension StoredObject {
    /// Core Data's snapshot dictionary: attributes and to-ones (as IDs), `NSNull()` for `nil`.
    func dictionary(of entity: EntityDescription) -> [String: Any] {
        var result: [String: Any] = [:]
        for property in entity.properties where values.indices.contains(property.index) {
            switch values[property.index] {
            case .attribute(let value): result[property.name] = value ?? NSNull()
            case .toOne(let id): result[property.name] = id ?? NSNull()
            case .toMany, .toManyFault: continue
            }
        }
        return result
    }
}

extension ManagedObjectError {
    /// The conflicts of a 133020 (``MergeConflict``) or 133021 (``ConstraintConflict``) error:
    /// Core Data's `conflictList` user-info value.
    public var conflictList: [Any] {
        mergeConflicts.isEmpty ? constraintConflicts : mergeConflicts
    }
}
