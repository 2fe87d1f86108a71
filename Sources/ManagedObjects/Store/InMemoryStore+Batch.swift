import Foundation

/// Batch requests in memory: each runs under the store's lock, checked whole before anything
/// changes, so it is all or nothing as a save is.
extension InMemoryStore {
    public func batchInsert(_ request: StoreBatchInsert) throws -> StoreBatchOutcome {
        try lock.withLock {
            let root = ObjectIdentifier(request.entity.rootEntity)
            let empty = request.entity.properties.map(\.emptyStoredValue)
            var number = tables[root]?.lastNumber ?? 0
            func object(row: Int, objectID: ManagedObjectID, version: Int, values base: [StoredValue]) -> StoredObject {
                var values = base
                for (column, attribute) in request.attributes.enumerated() {
                    values[attribute.index] = .attribute(request.value(row: row, column: column))
                }
                return StoredObject(objectID: objectID, version: version, values: values)
            }
            func newID() -> ManagedObjectID {
                number += 1
                return ManagedObjectID(entity: request.entity, key: .permanent(storeIdentifier: identifier, number: number))
            }
            var ids: [ManagedObjectID] = []
            ids.reserveCapacity(request.rowCount)
            if request.updatesObjectsOnConstraintConflict {
                // Row by row, so a later row updates the object an earlier one inserted. Nothing
                // here can fail, so the batch is still all or nothing.
                for row in 0..<request.rowCount {
                    let candidate = object(row: row, objectID: newID(), version: 1, values: empty)
                    if let owner = uniqueness.owner(sharingConstrainedValuesWith: candidate), let stored = storedObject(owner) {
                        number -= 1  // the number goes back unused
                        let updated = object(row: row, objectID: owner, version: stored.version + 1, values: stored.values)
                        uniqueness.remove([stored])
                        put(updated)
                        uniqueness.add([updated])
                        ids.append(owner)
                    } else {
                        put(candidate)
                        uniqueness.add([candidate])
                        ids.append(candidate.objectID)
                    }
                }
            } else {
                var changes = StoreChangeSet()
                changes.inserted.reserveCapacity(request.rowCount)
                for row in 0..<request.rowCount {
                    changes.inserted.append(object(row: row, objectID: newID(), version: 1, values: empty))
                }
                if let error = ManagedObjectError.combining(uniqueness.conflicts(of: changes, replacing: [])) { throw error }
                for object in changes.inserted { put(object) }
                uniqueness.add(changes.inserted)
                ids = changes.inserted.map(\.objectID)
            }
            tables[root, default: Table()].lastNumber = max(tables[root]?.lastNumber ?? 0, number)
            return StoreBatchOutcome(count: ids.count, objectIDs: ids)
        }
    }

    public func batchUpdate(_ request: StoreBatchUpdate) throws -> StoreBatchOutcome {
        try lock.withLock {
            var changes = StoreChangeSet()
            var probe: SnapshotSubject?
            for stored in try matching(request.matching) {
                var object = stored
                object.version += 1
                for (attribute, value) in request.values {
                    object.values[attribute.index] = .attribute(try value.value(
                        for: attribute, of: stored, subject: SnapshotSubject.point(&probe, at: stored, graph: graph)))
                }
                changes.updated.append(object)
            }
            let replaced = changes.updated.compactMap { storedObject($0.objectID) }
            if let error = ManagedObjectError.combining(uniqueness.conflicts(of: changes, replacing: replaced)) { throw error }
            uniqueness.remove(replaced)
            for object in changes.updated { put(object) }
            uniqueness.add(changes.updated)
            return StoreBatchOutcome(count: changes.updated.count, objectIDs: changes.updated.map(\.objectID))
        }
    }

    public func batchDelete(_ request: StoreBatchDelete) throws -> StoreBatchOutcome {
        try lock.withLock {
            let targets = try request.objectIDs.map { $0.compactMap(storedObject) } ?? matching(request.matching)
            let targetIDs = Set(targets.map(\.objectID))
            // Objects as the delete rules leave them: deleted ones, and related ones changed.
            var deleted: [ManagedObjectID] = []
            var deletedSet = Set<ManagedObjectID>()
            var changed: [ManagedObjectID: StoredObject] = [:]
            var emptiedMandatory: [(objectID: ManagedObjectID, error: ManagedObjectError)] = []
            func current(_ objectID: ManagedObjectID) -> StoredObject? { changed[objectID] ?? storedObject(objectID) }
            var pending = targets.map(\.objectID)
            while let objectID = pending.popLast() {
                guard deletedSet.insert(objectID).inserted, let object = current(objectID) else { continue }
                deleted.append(objectID)
                for relationship in objectID.entity.relationships where !relationship.isTransient {
                    let related: [ManagedObjectID] = switch object.values[relationship.index] {
                    case .toOne(let id?): [id]
                    case .toMany(let ids): ids
                    default: []
                    }
                    switch relationship.deleteRule {
                    case .deny:
                        if related.contains(where: { !targetIDs.contains($0) }) { throw StoreBatchDelete.denyError(relationship, of: objectID) }
                    case .cascade:
                        pending += related
                    case .nullify:
                        guard let inverse = relationship.inverseRelationship else { continue }
                        for relatedID in related where !deletedSet.contains(relatedID) {
                            guard var other = current(relatedID) else { continue }
                            if changed[relatedID] == nil { other.version += 1 }
                            switch other.values[inverse.index] {
                            case .toOne:
                                other.values[inverse.index] = .toOne(nil)
                                if !inverse.isOptional {
                                    emptiedMandatory.append((relatedID, StoreBatchDelete.mandatoryInverseError(relationship, inverse: inverse)))
                                }
                            case .toMany(let members):
                                other.values[inverse.index] = .toMany(members.filter { $0 != objectID })
                            default:
                                break
                            }
                            changed[relatedID] = other
                        }
                    case .noAction:
                        break
                    }
                }
            }
            // A mandatory to-one emptied is an error only for an object that stays.
            if let failure = emptiedMandatory.first(where: { !deletedSet.contains($0.objectID) }) { throw failure.error }
            let removed = deleted.compactMap(storedObject)
            uniqueness.remove(removed)
            for object in removed {
                guard let number = object.objectID.storeNumber else { continue }
                tables[ObjectIdentifier(object.objectID.entity.rootEntity)]?.remove(object.objectID, number: number)
            }
            let updated = changed.values.filter { !deletedSet.contains($0.objectID) }
            for object in updated { put(object) }
            return StoreBatchOutcome(count: deleted.count, objectIDs: deleted, relatedUpdatedObjectIDs: updated.map(\.objectID))
        }
    }

    /// The stored objects a request matches, in store order; the caller holds the lock.
    private func matching(_ request: StoreRequest) throws -> [StoredObject] {
        let entities = Set(request.entities.map(ObjectIdentifier.init))
        let candidates = (tables[ObjectIdentifier(request.entity.rootEntity)]?.rows ?? []).compactMap { row in
            row.flatMap { entities.contains(ObjectIdentifier($0.objectID.entity)) ? $0 : nil }
        }
        var snapshots = request
        snapshots.resultType = .snapshots
        guard case .snapshots(let matching) = try snapshots.evaluate(over: candidates, graph: graph) else { return [] }
        return matching
    }
}
