import Foundation

/// A context's objects by ID, held without a strong reference: an unchanged object the app no
/// longer uses is released and takes itself out (`ManagedObject.deinit`). Objects are not
/// `Sendable` and are confined to their context's queue, as in Core Data, so the last reference
/// to one goes on that queue and the removal cannot race a look-up. Weak references would do
/// the same at a price on every retain and release of every object (Swift keeps a side table
/// for a weakly referenced object).
struct ObjectRegistry {
    private var entries: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]

    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        get { entries[objectID]?.takeUnretainedValue() }
        set { entries[objectID] = newValue.map(Unmanaged.passUnretained) }
    }

    /// Takes out a released object's entry (if it is still that object's).
    mutating func remove(_ objectID: ManagedObjectID, ifItIs object: ManagedObject) {
        // One look-up: every released object comes here.
        guard let index = entries.index(forKey: objectID),
              entries.values[index].toOpaque() == Unmanaged.passUnretained(object).toOpaque() else { return }
        entries.remove(at: index)
        // An emptied table lets go of its storage: a dictionary keeps its largest capacity, and
        // a context that once held many objects (a large insert, saved and released) would keep
        // 40 bytes a slot for each of them.
        if entries.isEmpty { entries = [:] }
    }

    /// The registered objects.
    var objects: [ManagedObject] { entries.values.map { $0.takeUnretainedValue() } }

    mutating func removeAll() {
        entries = [:]
    }
}

/// The faults one fetch with a `fetchBatchSize` made for one batch: when the first of them
/// fires, the rows of the whole batch are read at once.
final class FaultBatch {
    let objectIDs: [ManagedObjectID]

    init(_ objectIDs: [ManagedObjectID]) {
        self.objectIDs = objectIDs
    }
}
