import OrderedCollections

/// An object's place in a context, as an undo puts it back: whether the context held it, its
/// values (attributes and relationships), and whether it was inserted or deleted.
struct UndoableObjectState {
    var isRegistered: Bool
    var values: [Any?]
    var isInserted: Bool
    var isDeleted: Bool

    /// An object the context did not hold (before its insert).
    static var notRegistered: UndoableObjectState {
        UndoableObjectState(isRegistered: false, values: [], isInserted: false, isDeleted: false)
    }
}

/// The objects a context changed since its last event, each as it was before its first change
/// in the event.
struct UndoRecording {
    var objects: OrderedDictionary<ObjectIdentifier, (object: ManagedObject, state: UndoableObjectState)> = [:]
    /// While an undo or redo puts objects back, which records nothing itself.
    var isRestoring = false
}

// Core Data records changes with the context's undo manager event by event: an event's
// inserts, deletes and changes to attributes and relationships are one undo action, registered
// by `processPendingChanges()` (after each `perform` block, before a save, and before the undo
// manager undoes, redoes or groups). Undoing puts each object back as it was before the event
// and registers the redo; the objects' changed state is announced with the next event.
extension ManagedObjectContext: UndoCheckpointObserver {
    /// Core Data's `undo()`: the latest event's changes (or the undo manager's latest group).
    public func undo() {
        undoManager?.undo()
    }

    /// Core Data's `redo()`: the latest undone changes again.
    public func redo() {
        undoManager?.redo()
    }

    func undoManagerCheckpoint() {
        processPendingChanges()
    }

    /// Records `object` as it is before its first change in this event (with an undo manager
    /// that registers); `wasRegistered: false` for an object being inserted.
    func recordForUndo(_ object: ManagedObject, wasRegistered: Bool = true) {
        guard !undoRecording.isRestoring, let undoManager, undoManager.isUndoRegistrationEnabled else { return }
        let key = ObjectIdentifier(object)
        guard undoRecording.objects[key] == nil else { return }
        undoRecording.objects[key] = (object, wasRegistered ? undoableState(of: object) : .notRegistered)
    }

    /// Registers the event's recorded changes as one undo action.
    func registerRecordedUndo() {
        guard !undoRecording.objects.isEmpty, let undoManager else { return }
        let recorded = undoRecording.objects.values.map { ($0.object, $0.state) }
        undoRecording.objects = [:]
        undoManager.registerUndo(withTarget: self) { context in context.restoreForUndo(recorded) }
    }

    private func undoableState(of object: ManagedObject) -> UndoableObjectState {
        let isRegistered = object.managedObjectContext === self && registered[object.objectID] === object
        guard isRegistered else { return .notRegistered }
        return UndoableObjectState(isRegistered: true, values: object.values, isInserted: object.isInserted, isDeleted: object.isDeleted)
    }

    /// Puts `states`' objects back, registering the states they had (the redo of an undo, the
    /// undo of a redo).
    private func restoreForUndo(_ states: [(ManagedObject, UndoableObjectState)]) {
        let current = states.map { ($0.0, undoableState(of: $0.0)) }
        undoRecording.isRestoring = true
        defer { undoRecording.isRestoring = false }
        for (object, state) in states {
            restore(object, to: state)
        }
        undoManager?.registerUndo(withTarget: self) { context in context.restoreForUndo(current) }
    }

    private func restore(_ object: ManagedObject, to state: UndoableObjectState) {
        let isRegistered = object.managedObjectContext === self && registered[object.objectID] === object
        guard state.isRegistered else {
            guard isRegistered else { return }
            leaveChangeLists(object)
            if object.committedSnapshot == nil {
                // Never saved: the object leaves the context, as a rollback's inserts do.
                registered[object.objectID] = nil
                object.isInserted = false
                object.isUpdated = false
                object.managedObjectContext = nil
            } else {
                // Saved since its insert: undoing the insert deletes it.
                object.isInserted = false
                object.isUpdated = false
                object.isDeleted = true
                deleted.append(object)
                changeListAdditions += 1
            }
            unannouncedDeletes.append(object)
            return
        }
        if !isRegistered {
            // Back into the context: an insert deleted before any save. An object whose delete
            // was saved stays deleted (its row is gone; see Docs/RuntimeDifferences.md).
            guard state.isInserted, object.committedSnapshot == nil else { return }
            object.managedObjectContext = self
            registered[object.objectID] = object
        }
        object.values = state.values
        leaveChangeLists(object)
        // The flags follow what the store has: an object saved since it was inserted is not
        // inserted again, and one that matches its stored values is not updated.
        object.isInserted = state.isInserted && object.committedSnapshot == nil
        object.isDeleted = state.isDeleted && !object.isInserted
        object.isUpdated = !object.isInserted && !object.isDeleted
            && object.entity.properties.indices.contains(where: object.hasChangedValue)
        if object.isInserted {
            inserted.append(object)
            object.hasUnannouncedChange = true
        } else if object.isDeleted {
            deleted.append(object)
            unannouncedDeletes.append(object)
        } else {
            if object.isUpdated { updated.append(object) }
            if !object.hasUnannouncedChange {
                object.hasUnannouncedChange = true
                unannouncedUpdates.append(object)
            }
        }
        changeListAdditions += 1
    }

    /// Takes `object` out of the inserted, updated and deleted lists (it is in one at most: the
    /// lists share the object's slot field).
    private func leaveChangeLists(_ object: ManagedObject) {
        if object.isInserted {
            inserted.remove(object)
        } else if object.isDeleted {
            deleted.remove(object)
        } else if object.isUpdated {
            updated.remove(object)
        }
        unannouncedUpdates.remove(object)
        unannouncedDeletes.remove(object)
        object.hasUnannouncedChange = false
    }
}
