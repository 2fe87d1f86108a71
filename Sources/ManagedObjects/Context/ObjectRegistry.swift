import Foundation

/// A context's objects by ID, held weakly. Entries of released objects are dropped as the
/// registry grows, so it stays proportional to the objects in use.
struct ObjectRegistry {
    private var entries: [ManagedObjectID: WeakObject] = [:]
    /// The size at which released entries are next swept out.
    private var sweepAt = 1024

    private struct WeakObject {
        weak var object: ManagedObject?
    }

    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        get { entries[objectID]?.object }
        set {
            guard let newValue else {
                entries[objectID] = nil
                return
            }
            entries[objectID] = WeakObject(object: newValue)
            if entries.count >= sweepAt {
                entries = entries.filter { $0.value.object != nil }
                sweepAt = max(1024, entries.count * 2)
            }
        }
    }

    /// The registered objects still alive.
    var objects: [ManagedObject] { entries.values.compactMap(\.object) }

    mutating func removeAll() {
        entries = [:]
        sweepAt = 1024
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
