import Foundation
import OrderedCollections

/// How a context's save resolves conflicts with the store: Core Data's `NSMergePolicy`
/// (`context.mergePolicy = .mergeByPropertyObjectTrump`). Two kinds of conflict:
///
/// - an object conflict: another context (or process) saved an object since this context read
///   it (its version in the store is no longer the one read);
/// - a constraint conflict: objects saved would share the values of a uniqueness constraint
///   with each other or with a stored object.
public enum MergePolicy: Sendable, Hashable, CustomStringConvertible {
    /// The save fails: 133020 with ``MergeConflict`` values, or 133021 with
    /// ``ConstraintConflict`` values, in the error's `conflictList`. Nothing is written.
    /// Core Data's `NSErrorMergePolicy`, the default.
    case error
    /// Property by property, the store's changes win: a property another context changed takes
    /// the stored value; this context's changes to other properties are saved. In a constraint
    /// conflict the stored object stays as it is and the new duplicates are discarded.
    case mergeByPropertyStoreTrump
    /// Property by property, this context's changes win: they are saved over the stored
    /// values; properties only another context changed keep the stored value. In a constraint
    /// conflict the stored object takes the values of the new duplicate, which is discarded
    /// (an upsert).
    case mergeByPropertyObjectTrump
    /// The whole object as this context has it is saved over the stored one. Constraint
    /// conflicts as with `mergeByPropertyObjectTrump`, every property copied.
    case overwrite
    /// This context's unsaved changes to conflicting objects, deletes included, are discarded:
    /// they take the stored values; the rest of the save goes through. Constraint conflicts as
    /// with `mergeByPropertyStoreTrump`.
    case rollback

    public var description: String {
        switch self {
        case .error: "error"
        case .mergeByPropertyStoreTrump: "mergeByPropertyStoreTrump"
        case .mergeByPropertyObjectTrump: "mergeByPropertyObjectTrump"
        case .overwrite: "overwrite"
        case .rollback: "rollback"
        }
    }

    /// Whether this context's values win a conflict.
    var objectWins: Bool { self == .mergeByPropertyObjectTrump || self == .overwrite }
}

/// An object another context saved since this one read it. Core Data's `NSMergeConflict`.
/// Snapshots hold attributes and to-ones (as object IDs; `NSNull()` for `nil`), not to-manys,
/// as Core Data's do.
public struct MergeConflict: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: the object and snapshot values are used on the saving context's queue, where
    // the error carrying the conflict is thrown, as in Core Data.
    /// The object this context tried to save.
    public let sourceObject: ManagedObject
    /// The object's values in this context (optional, as Core Data declares it; always given).
    public let objectSnapshot: [String: Any]?
    /// The values this context read (Core Data's coordinator-level cached snapshot).
    public let cachedSnapshot: [String: Any]?
    /// The values in the store now; `nil` when another context deleted the object.
    public let persistedSnapshot: [String: Any]?
    /// The version in the store now (0 when deleted).
    public let newVersionNumber: Int
    /// The version this context read.
    public let oldVersionNumber: Int

    public var description: String {
        "MergeConflict(\(sourceObject.objectID): read version \(oldVersionNumber), store has "
            + (persistedSnapshot == nil ? "deleted it)" : "version \(newVersionNumber))")
    }
}

/// Objects that share the values of a uniqueness constraint. Core Data's `NSConstraintConflict`.
public struct ConstraintConflict: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: as for `MergeConflict`.
    /// The constrained property names.
    public let constraint: [String]
    /// The shared values, by property name.
    public let constraintValues: [String: Any]
    /// The stored object that has the values, when one does (`nil` when only objects being
    /// saved share them).
    public let databaseObject: ManagedObject?
    /// The stored object's values.
    public let databaseSnapshot: [String: Any]?
    /// The objects being saved that have the values.
    public let conflictingObjects: [ManagedObject]
    /// Their values as last read from the store (empty for new objects).
    public let conflictingSnapshots: [[String: Any]]

    public var description: String {
        "ConstraintConflict(\(constraint.joined(separator: ", ")) = "
            + constraint.map { "\(constraintValues[$0] ?? "nil")" }.joined(separator: ", ")
            + ": \(conflictingObjects.map(\.objectID))" + (databaseObject.map { " and stored \($0.objectID)" } ?? "") + ")"
    }
}

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
            let conflicts = try constraintConflicts(in: store)
            error.constraintConflicts = conflicts
            guard mergePolicy != .error, !conflicts.isEmpty, attempt < Self.conflictResolutionAttempts else { throw error }
            Self.pauseBeforeRetrying(attempt: attempt)
            for conflict in conflicts { resolve(conflict) }
        } else {
            throw error
        }
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
