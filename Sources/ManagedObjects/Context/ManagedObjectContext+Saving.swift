import Foundation
import OrderedCollections

extension ManagedObjectContext {
    // MARK: Delete

    /// Marks an object deleted; it leaves the store with the next `save()`.
    /// `prepareForDeletion()` runs, then the delete rules of its relationships, at once:
    /// Nullify removes the object from the related objects; Cascade deletes them too
    /// (transitively); Deny leaves them, and the save fails (1600) unless they are gone by
    /// then; No Action leaves them pointing at the deleted object. Deleting an object that was
    /// never saved simply forgets it.
    func deleteObject(_ object: ManagedObject) {
        guard registered[object.objectID] === object, !object.isDeleted else { return }
        object.fireFaultIfNeeded()
        if undoManager != nil { recordForUndo(object) }
        object.prepareForDeletion()
        let wasInserted = object.isInserted
        object.isDeleted = true
        if object.isUpdated {
            object.isUpdated = false
            updated.remove(object)
        }
        if !wasInserted {
            deleted.append(object)
            changeListAdditions += 1
            unannouncedDeletes.append(object)
        }
        for relationship in object.entity.relationships {
            applyDeleteRule(of: relationship, to: object)
        }
        if wasInserted {
            // Never saved: nothing to delete from the store. An insert not yet announced is
            // simply not announced; one already announced is announced as deleted.
            let insertWasAnnounced = !inserted.isAfterMark(object)
            forget(object)
            if insertWasAnnounced {
                unannouncedDeletes.append(object)
            }
        }
    }

    private func applyDeleteRule(of relationship: RelationshipDescription, to object: ManagedObject) {
        let related = object.relatedObjects(relationship)
        switch relationship.deleteRule {
        case .nullify:
            for destination in related { object.unlink(destination, via: relationship) }
        case .cascade:
            for destination in related {
                object.unlink(destination, via: relationship)
                delete(destination)
            }
        case .deny, .noAction:
            break
        }
    }

    // MARK: Save

    /// Writes every insert, change and delete to the store at once; in a child context, into
    /// the parent context (which has them as its own unsaved changes until it saves).
    ///
    /// `willSave()` runs on each changed object, then validation; any problem throws a
    /// `ManagedObjectError` (one problem: its own code; several: 1560 with `detailedErrors`)
    /// and nothing is written: the context keeps its unsaved changes. A conflict with the store
    /// (another context saved the same object since this one read it: 133020; a uniqueness
    /// constraint broken: 133021) is resolved by `mergePolicy`; under the default `.error` it
    /// throws with the conflicts in `conflictList`, also leaving everything as it was. On
    /// success inserted objects get permanent IDs (in a child context they keep their temporary
    /// IDs until the parent saves), deleted objects leave the context, `didSave()` runs and the
    /// `didSave` notification is posted. (`save()`, which a subclass may override, calls it.)
    func saveChanges() throws {
        processPendingChanges()
        guard hasChanges else { return }
        post(ContextNotification(name: .willSave, context: self))
        let postsToNotificationCenter = Self.postsToNotificationCenter
        if postsToNotificationCenter {
            postToNotificationCenter(ContextNotification(name: .willSave, context: self), objects: AnnouncedObjects())
        }
        callWillSave()
        processPendingChanges()
        // Core Data computes derived attributes when changes reach the store (a child's save
        // hands its parent the objects, which compute them when the parent saves).
        if parent == nil, managedObjectModel.hasDerivedAttributes {
            try DerivedAttributes.compute(for: Array(inserted) + Array(updated))
            processPendingChanges()
        }

        let errors = inserted.flatMap(Validation.errors(forSaving:)) + updated.flatMap(Validation.errors(forSaving:))
            + deleted.filter { !inaccessibleObjects.contains(ObjectIdentifier($0)) }.flatMap(Validation.errors(forDeleting:))
        if let error = ManagedObjectError.combining(errors) { throw error }

        // The saved objects, for Core Data's did-save notification: deleted ones leave the context.
        let savedObjects = postsToNotificationCenter
            ? AnnouncedObjects(inserted: Array(inserted), updated: Array(updated), deleted: Array(deleted)) : nil
        let notification = if let parent { saveIntoParent(parent) } else { try saveToStore() }
        post(notification)
        if var savedObjects {
            // A merge policy may have taken objects out of the save (an object another context
            // deleted, a delete rolled back): name only what was saved.
            let updatedIDs = Set(notification.updatedObjectIDs), deletedIDs = Set(notification.deletedObjectIDs)
            savedObjects.updated.removeAll { !updatedIDs.contains($0.objectID) }
            savedObjects.deleted.removeAll { !deletedIDs.contains($0.objectID) }
            postToNotificationCenter(notification, objects: savedObjects)
        }
        if parent == nil { coordinator.contextDidSave(notification) }
        for child in children.all { child.scheduleMerge(notification) }
        advanceQueryGeneration()
    }

    /// A child's save: the changes go into the parent; objects keep their IDs.
    private func saveIntoParent(_ parent: ManagedObjectContext) -> ContextNotification {
        var changes = ChildSave()
        changes.inserted = inserted.map { $0.currentSnapshot() }
        changes.updated = updated.map { object in
            (object.currentSnapshot(), object.entity.properties.indices.filter(object.hasChangedValue))
        }
        changes.deleted = deleted.map(\.objectID)
        parent.performAndWait { parent.absorb(changes) }
        for (object, snapshot) in zip(inserted, changes.inserted) {
            object.committedSnapshot = snapshot
            object.isInserted = false
        }
        for (object, change) in zip(updated, changes.updated) {
            object.committedSnapshot = change.snapshot
            object.isUpdated = false
        }
        let savedUpdates = changes.updated.map(\.snapshot)
        finishSave()
        return ContextNotification(
            name: .didSave, context: self,
            inserted: changes.inserted.map(\.objectID), updated: savedUpdates.map(\.objectID), deleted: changes.deleted,
            savedSnapshots: Dictionary(savedUpdates.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// A save to the store, conflicts resolved by the merge policy.
    private func saveToStore() throws -> ContextNotification {
        let store = try coordinator.store()
        // With several stores, each new object goes to the store that holds its entity, or the
        // one it is assigned to: assigned ones take their permanent IDs from it first.
        let severalStores = coordinator.hasSeveralStores
        if !assignedStores.isEmpty {
            try obtainPermanentIDs(for: inserted.elements.filter { assignedStores[$0.objectID] != nil })
            assignedStores = [:]
        }
        try coordinator.checkWritable(inserted: inserted, updated: updated, deleted: deleted)
        let outerSaveStamp = saveStamp
        latestSaveStamp = Self.stamp(after: latestSaveStamp)
        saveStamp = latestSaveStamp
        defer { saveStamp = outerSaveStamp }
        // Each new object's place among its entity's new objects, in order of insertion, so
        // numbers follow the order objects were made; entities in the order they first come
        // (sub-entities share their root's numbers). The place is a field on the object: a
        // table by temporary ID cost a hash for each object and each reference to one.
        let entities = managedObjectModel.entities
        var newCounts = [UInt32](repeating: 0, count: entities.count)
        var entityOrder: [Int] = []
        for object in inserted where object.objectID.isTemporaryID {
            let place = object.entity.indexInModel
            if newCounts[place] == 0 { entityOrder.append(place) }
            object.newObjectPlace = (saveStamp, newCounts[place])
            newCounts[place] += 1
        }
        var numbersByEntity = [[Int64]](repeating: [], count: entities.count)
        var storeIdentifiers = [String](repeating: "", count: entities.count)
        for place in entityOrder {
            // The store that holds the entity (throws when none does).
            let store = try coordinator.store(for: entities[place])
            let storeIdentifier = store.identifier
            storeIdentifiers[place] = storeIdentifier
            let ids: [ManagedObjectID]
            if let incremental = store as? IncrementalStore {
                // A store an app writes makes IDs from the objects (their values name them).
                let saveStamp = saveStamp
                ids = try incremental.checkedPermanentIDs(
                    for: inserted.filter { $0.entity.indexInModel == place && $0.newObjectPlace.save == saveStamp })
            } else {
                ids = try store.obtainPermanentIDs(for: entities[place], count: Int(newCounts[place]))
            }
            precondition(ids.count == newCounts[place], "\(store) handed out \(ids.count) IDs for \(newCounts[place]) objects")
            numbersByEntity[place] = ids.map { id in
                guard let number = id.storeNumber, id.storeIdentifier == storeIdentifier else {
                    preconditionFailure("\(store) handed out \(id), not a permanent ID of its own")
                }
                return number
            }
        }
        // Constants, so the closure reads them without the exclusivity checks of captured variables.
        let permanentNumbers = numbersByEntity
        let permanentStores = storeIdentifiers
        let idOf = { (object: ManagedObject) -> ManagedObjectID in
            guard let place = self.placeAmongNewObjects(of: object) else { return object.objectID }
            let index = object.entity.indexInModel
            return .permanent(entity: object.entity, storeIdentifier: permanentStores[index], number: permanentNumbers[index][place])
        }
        // Transient properties live in the context only: the store gets nil for them.
        func snapshot(_ object: ManagedObject, version: Int, movingAttributes: Bool = false) -> StoredObject {
            StoredObject(
                objectID: idOf(object), version: version,
                values: object.storedValues(id: idOf, emptyingTransients: true, movingAttributes: movingAttributes))
        }
        var changes = StoreChangeSet()
        changes.transactionAuthor = transactionAuthor
        changes.contextName = name
        let namesUpdatedProperties = coordinator.persistentStores.contains { $0.recordsPersistentHistory }
        var attempt = 0
        // With several stores: the stores that have their part of the change set, and the one
        // that refused its part.
        var savedStores: Set<String> = []
        var refusingStore = store
        func makeChanges() {
            // New objects keep only their snapshot after the save, so their attribute values
            // move into it; they go back if the save does not happen.
            changes.inserted = inserted.map { snapshot($0, version: 1, movingAttributes: true) }
            changes.updated = updated.map { snapshot($0, version: $0.committedSnapshot?.version ?? 0) }
            if namesUpdatedProperties {
                changes.updatedPropertyIndexes = Dictionary(
                    zip(updated, changes.updated).map { object, stored in (stored.objectID, object.changedPropertyIndexes(in: stored)) },
                    uniquingKeysWith: { first, _ in first })
            }
            // An inaccessible fault's stored object is gone already: nothing to delete.
            let inaccessible = inaccessibleObjects
            changes.deleted = inaccessible.isEmpty
                ? deleted.map { ($0.objectID, $0.committedSnapshot?.version ?? 0) }
                : deleted.filter { !inaccessible.contains(ObjectIdentifier($0)) }.map { ($0.objectID, $0.committedSnapshot?.version ?? 0) }
        }
        func restoreInsertedAttributes() {
            for (object, stored) in zip(inserted, changes.inserted) { object.restoreAttributes(from: stored.values) }
        }
        // The merge policy's refusal of conflicts found while the store held the save: final.
        var refusedInStore = false
        while true {
            makeChanges()
            do {
                do {
                    if severalStores {
                        try Self.checkRelationshipsStayInTheirStore(changes)
                        for (partStore, part) in try coordinator.changeSetsByStore(changes)
                        where !savedStores.contains(partStore.identifier) {
                            refusingStore = partStore
                            try partStore.save(part)
                            savedStores.insert(partStore.identifier)
                        }
                    } else {
                        try store.save(changes) { _ in
                            // The store holds the constrained values: conflicts found now are
                            // all there are until it commits (Core Data resolves them here too).
                            restoreInsertedAttributes()
                            do {
                                if try resolveConstraintConflicts(in: store, refusedWith: nil, attempt: attempt + 1, pausing: false) {
                                    attempt += 1
                                }
                            } catch {
                                refusedInStore = true
                                throw error
                            }
                            makeChanges()
                            return changes
                        }
                    }
                } catch {
                    restoreInsertedAttributes()
                    throw error
                }
                break
            } catch let error as ManagedObjectError where !refusedInStore {
                // Name objects by the IDs the caller knows: the permanent ones were never given out.
                let knownIDs = Dictionary(uniqueKeysWithValues: zip(changes.inserted.map(\.objectID), inserted.map(\.objectID)))
                attempt += 1
                try resolveConflicts(refusedWith: error.mappingObjectIDs { knownIDs[$0] ?? $0 }, in: refusingStore, attempt: attempt)
            }
        }

        // The store has the changes: make the row cache and the context match.
        let savedUpdates = changes.updated.map { var saved = $0; saved.version += 1; return saved }
        coordinator.rowCache.apply(saved: savedUpdates, deleted: changes.deleted.map(\.objectID))
        let childrenNameTemporaryIDs = !children.all.isEmpty
        if !childrenNameTemporaryIDs { formerTemporaryIDs = [:] }
        registered.reserveCapacity(forPermanentIDs: inserted.count)
        // Each snapshot moves into its object (a copy would touch every snapshot's storage
        // once more, to retain it here and release it with the change set); the change set
        // keeps the IDs, for the notification.
        changes.inserted.withUnsafeMutableBufferPointer { snapshots in
            for (position, object) in inserted.enumerated() {
                let formerID = object.objectID
                var stored = StoredObject(objectID: formerID, version: 1, values: [])
                swap(&stored, &snapshots[position])
                snapshots[position].objectID = stored.objectID
                if childrenNameTemporaryIDs, formerID != stored.objectID {
                    formerTemporaryIDs[formerID] = stored.objectID
                }
                object.objectID = stored.objectID
                registered.moveToPermanentID(object, from: formerID)
                object.committedSnapshot = object.keepingTransientValues(consume stored)
                object.keepOnlyCommittedValues()
                object.isInserted = false
            }
        }
        registered.finishMovingToPermanentIDs()
        for (object, var stored) in zip(updated, changes.updated) {
            stored.version += 1
            object.committedSnapshot = object.keepingTransientValues(consume stored)
            object.keepOnlyCommittedValues()
            object.isUpdated = false
        }
        finishSave()
        return ContextNotification(
            name: .didSave, context: self,
            inserted: changes.inserted.map(\.objectID), updated: changes.updated.map(\.objectID),
            deleted: changes.deleted.map(\.objectID),
            savedSnapshots: Dictionary(savedUpdates.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The end of a save: deleted objects leave the context, the change sets empty, `didSave()`.
    private func finishSave() {
        for object in deleted {
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        }
        // The lists themselves, not an array of their objects: no retain and release of each.
        let saved = [inserted, updated, deleted]
        inserted = []
        updated = []
        deleted = []
        inaccessibleObjects = []
        for objects in saved { for object in objects { object.didSave() } }
        // Only deleted objects are deleted here: deleting an object takes it out of the other lists.
        for object in saved[2] { object.isDeleted = false }
    }

    /// `object`'s place among its entity's new objects in the save under way, if it has one
    /// (see `ManagedObject.newObjectPlace`).
    func placeAmongNewObjects(of object: ManagedObject) -> Int? {
        saveStamp != 0 && object.newObjectPlace.save == saveStamp ? Int(object.newObjectPlace.place) : nil
    }

    /// The stamp that follows `stamp`, never 0: an object's stamp of 0 means it has none.
    private static func stamp(after stamp: UInt32) -> UInt32 {
        stamp == .max ? 1 : stamp + 1
    }

    /// Calls `willSave()` on every object to be saved, and again on objects it changes in turn.
    /// Each object called is stamped with this call's stamp (a field, not a set: a hash per
    /// object cost more than the call), so no pass clears a mark afterwards; the lists are
    /// gone through again only when `willSave()` added objects to them.
    private func callWillSave() {
        willSaveStamp = Self.stamp(after: willSaveStamp)
        let stamp = willSaveStamp
        var additionsSeen = -1
        while additionsSeen != changeListAdditions {
            additionsSeen = changeListAdditions
            // The lists as they are at the start of each pass: `willSave()` may change them.
            for objects in [inserted, updated, deleted] {
                for object in objects where object.willSaveStamp != stamp {
                    object.willSaveStamp = stamp
                    object.willSave()
                }
            }
        }
    }
}
