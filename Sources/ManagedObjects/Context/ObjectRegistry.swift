import Foundation

/// A context's objects by ID, held without a strong reference: an unchanged object the app no
/// longer uses is released and takes itself out (`ManagedObject.deinit`). Objects are not
/// `Sendable` and are confined to their context's queue, as in Core Data, so the last reference
/// to one goes on that queue and the removal cannot race a look-up. Weak references would do
/// the same at a price on every retain and release of every object (Swift keeps a side table
/// for a weakly referenced object).
///
/// Every object comes in, moves (its temporary ID replaced at its first save) and goes out, and
/// a dictionary by `ManagedObjectID` hashed the whole ID for each, and again for its neighbours
/// on each removal. So IDs are packed into one word where they fit, as an object's number with
/// its entity's place in the model and the place of its store among the few the registry has
/// seen (none for a temporary ID), and are looked up by that word in pages of neighbouring IDs
/// (`PagedObjectTable`); an ID that does not fit (a number of 2⁴⁰ or more, another model's
/// entity, a 255th store) is kept by itself. New objects (temporary IDs) have a table of their
/// own, which their first save drops whole.
struct ObjectRegistry {
    private var byPackedID = PagedObjectTable()
    private var byPackedTemporaryID = PagedObjectTable()
    private var byID: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]
    /// Temporary entries of objects moved to their permanent IDs, until they are dropped.
    private var movedTemporaryEntries = 0
    /// The model whose entities' IDs are packed: the first one seen.
    private var model: ObjectIdentifier?
    /// The stores of the packed permanent IDs; an ID's place here, plus one, is in its packed form.
    private var storeIdentifiers: [String] = []

    private static let numberBits = 40
    private static let entityBits = 16

    /// `objectID` as one word, or `nil` when it does not fit.
    private func packed(_ objectID: ManagedObjectID) -> UInt64? {
        let entity = objectID.entity
        guard ObjectIdentifier(entity.managedObjectModel) == model,
              entity.indexInModel < 1 << Self.entityBits,
              objectID.key.number >= 0, objectID.key.number < 1 << Self.numberBits else { return nil }
        var store = 0
        if let identifier = objectID.key.storeIdentifier {
            guard let place = storeIdentifiers.firstIndex(of: identifier) else { return nil }
            store = place + 1
        }
        return UInt64(objectID.key.number)
            | UInt64(entity.indexInModel) << Self.numberBits
            | UInt64(store) << (Self.numberBits + Self.entityBits)
    }

    /// `packed(_:)`, first taking in the ID's model and store when there is room.
    private mutating func packedAdding(_ objectID: ManagedObjectID) -> UInt64? {
        if model == nil { model = ObjectIdentifier(objectID.entity.managedObjectModel) }
        if let identifier = objectID.key.storeIdentifier, storeIdentifiers.count < 254,
           !storeIdentifiers.contains(identifier) {
            storeIdentifiers.append(identifier)
        }
        return packed(objectID)
    }

    subscript(objectID: ManagedObjectID) -> ManagedObject? {
        get {
            let entry = if let key = packed(objectID) {
                objectID.isTemporaryID ? byPackedTemporaryID[key] : byPackedID[key]
            } else {
                byID[objectID]
            }
            guard let object = entry?.takeUnretainedValue() else { return nil }
            // A packed ID names one object of this registry's model; this checks the rest.
            return object.objectID == objectID ? object : nil
        }
        set {
            let entry = newValue.map(Unmanaged.passUnretained)
            if let key = newValue == nil ? packed(objectID) : packedAdding(objectID) {
                if objectID.isTemporaryID {
                    byPackedTemporaryID[key] = entry
                } else {
                    byPackedID[key] = entry
                }
            } else {
                byID[objectID] = entry
            }
        }
    }

    /// Registers a saved new object under the permanent ID it now has, in place of its
    /// temporary one (`formerID`). Its temporary entry goes at `finishMovingToPermanentIDs()`:
    /// when a save moved every new object registered (the common case), their table goes whole,
    /// which costs a fraction of taking each out. Until then the entry is stale, and a look-up
    /// by the temporary ID finds nothing (the object's ID no longer matches).
    mutating func moveToPermanentID(_ object: ManagedObject, from formerID: ManagedObjectID) {
        if formerID.isTemporaryID, let key = packed(formerID),
           byPackedTemporaryID[key]?.toOpaque() == Unmanaged.passUnretained(object).toOpaque() {
            movedTemporaryEntries += 1
        } else {
            self[formerID] = nil
        }
        self[object.objectID] = object
    }

    /// Makes room for `count` more objects with permanent IDs: a save's new objects, moved one
    /// by one, then need no growing of the table on the way.
    mutating func reserveCapacity(forPermanentIDs count: Int) {
        byPackedID.reserveCapacity(forConsecutive: count)
    }

    /// Drops the temporary entries `moveToPermanentID(_:from:)` left.
    mutating func finishMovingToPermanentIDs() {
        guard movedTemporaryEntries > 0 else { return }
        if movedTemporaryEntries == byPackedTemporaryID.count {
            byPackedTemporaryID = PagedObjectTable()
        } else {
            byPackedTemporaryID = byPackedTemporaryID.filter { $0.takeUnretainedValue().objectID.isTemporaryID }
        }
        movedTemporaryEntries = 0
    }

    /// Takes out a released object's entry (if it is still that object's).
    mutating func remove(_ objectID: ManagedObjectID, ifItIs object: ManagedObject) {
        let address = Unmanaged.passUnretained(object).toOpaque()
        // One look-up: every released object comes here.
        if let key = packed(objectID) {
            if objectID.isTemporaryID {
                byPackedTemporaryID.remove(at: key, ifItIs: address)
            } else {
                byPackedID.remove(at: key, ifItIs: address)
            }
        } else {
            guard let index = byID.index(forKey: objectID), byID.values[index].toOpaque() == address else { return }
            byID.remove(at: index)
            // As the paged tables do: an emptied table lets go of its storage.
            if byID.isEmpty { byID = [:] }
        }
    }

    /// The registered objects.
    var objects: [ManagedObject] {
        (byPackedID.entries + byPackedTemporaryID.entries + Array(byID.values)).map { $0.takeUnretainedValue() }
    }

    mutating func removeAll() {
        byPackedID = PagedObjectTable()
        byPackedTemporaryID = PagedObjectTable()
        byID = [:]
        movedTemporaryEntries = 0
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
