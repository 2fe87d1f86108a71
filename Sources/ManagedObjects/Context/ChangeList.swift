/// One of a context's change lists (its inserted, updated or deleted objects): each object at
/// most once, in the order added, by identity.
///
/// An object is in at most one of a context's three lists at a time, and keeps its place there
/// (`ManagedObject.changeListSlot`), so adding, finding and removing an object is a look at one
/// slot: an ordered set's hash of each object, twice per insert, cost more than a large insert's
/// own SQL. A removed object leaves an empty slot; the slots close up once half are empty.
///
/// The list also keeps a mark: the objects added after it are the ones whose change is not
/// announced yet (for the inserted list, the inserts the next objects-did-change notification
/// announces).
struct ChangeList: Sequence, ExpressibleByArrayLiteral {
    private var slots: [ManagedObject?] = []
    /// The first slot after the mark.
    private var markedSlot = 0
    private(set) var count = 0

    init(arrayLiteral objects: ManagedObject...) {
        for object in objects { append(object) }
    }

    var isEmpty: Bool { count == 0 }

    /// Exact, so `map` over a list makes its array once rather than growing it.
    var underestimatedCount: Int { count }

    func contains(_ object: ManagedObject) -> Bool {
        let slot = object.changeListSlot
        return slot < slots.count && slots[slot] === object
    }

    /// Adds `object` at the end, unless it is already there.
    mutating func append(_ object: ManagedObject) {
        guard !contains(object) else { return }
        object.changeListSlot = slots.count
        slots.append(object)
        count += 1
    }

    /// Removes `object`; whether it was there.
    @discardableResult
    mutating func remove(_ object: ManagedObject) -> Bool {
        guard contains(object) else { return false }
        slots[object.changeListSlot] = nil
        count -= 1
        if count == 0 {
            self = []
        } else if slots.count >= 32 && count < slots.count / 2 {
            closeUp()
        }
        return true
    }

    /// Whether `object` is in the list, added after the mark.
    func isAfterMark(_ object: ManagedObject) -> Bool {
        contains(object) && object.changeListSlot >= markedSlot
    }

    /// Passes `body` the objects added after the mark, in order; the mark moves to the end.
    mutating func moveMark(passing body: (ManagedObject) -> Void) {
        for slot in markedSlot..<slots.count {
            if let object = slots[slot] { body(object) }
        }
        markedSlot = slots.count
    }

    /// The objects, in order.
    var elements: [ManagedObject] { slots.compactMap { $0 } }

    func makeIterator() -> some IteratorProtocol<ManagedObject> {
        slots.lazy.compactMap { $0 }.makeIterator()
    }

    private mutating func closeUp() {
        var kept: [ManagedObject?] = []
        kept.reserveCapacity(count)
        var newMark = 0
        for (slot, object) in slots.enumerated() {
            guard let object else { continue }
            if slot < markedSlot { newMark += 1 }
            object.changeListSlot = kept.count
            kept.append(object)
        }
        slots = kept
        markedSlot = newMark
    }
}
