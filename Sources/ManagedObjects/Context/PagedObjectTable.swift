/// Objects by packed ID (`ObjectRegistry`), in pages of 32 consecutive IDs.
///
/// A store numbers the objects of an entity from 1 up, and a context meets them in runs (a
/// save's new objects, a fetch's rows), so neighbouring IDs share a page: registering a run of
/// objects fills memory in order, a look-up hashes a page number in a table of a thirty-second
/// the size, and a removal empties a slot. A dictionary by ID hashed each ID into a table that
/// outgrew the cache, shifted its neighbours back on each removal, and re-hashed everything as it
/// grew. An ID alone on its page costs the page (256 bytes), less than its object.
struct PagedObjectTable {
    typealias Entry = Unmanaged<ManagedObject>

    private static let pageBits = 5
    private static let pageSize = 1 << pageBits
    private static let slotMask = UInt64(pageSize - 1)

    /// Each page's place in `slots` (counted in pages), by the bits its IDs share.
    private var pages: [UInt64: Int32] = [:]
    /// Every page's slots, one page after another.
    private var slots: [Entry?] = []
    /// The objects on each page, by its place.
    private var pageCounts: [Int32] = []
    /// Places of pages that emptied, for the next new page.
    private var freePlaces: [Int32] = []
    /// The page last written to: runs of new objects look up their page once.
    private var lastPage: (key: UInt64, place: Int32)?
    private(set) var count = 0

    private func slot(of key: UInt64, onPageAt place: Int32) -> Int {
        Int(place) << Self.pageBits | Int(key & Self.slotMask)
    }

    private func place(ofPage pageKey: UInt64) -> Int32? {
        if let lastPage, lastPage.key == pageKey { return lastPage.place }
        return pages[pageKey]
    }

    /// The entry at `key`; setting `nil` empties the slot, as a dictionary's subscript does.
    subscript(key: UInt64) -> Entry? {
        get {
            guard let place = place(ofPage: key >> Self.pageBits) else { return nil }
            return slots[slot(of: key, onPageAt: place)]
        }
        set {
            if let newValue { set(newValue, at: key) } else { remove(at: key) }
        }
    }

    /// Registers `entry` at `key`, in place of what was there.
    mutating func set(_ entry: Entry, at key: UInt64) {
        let pageKey = key >> Self.pageBits
        let place: Int32
        if let existing = self.place(ofPage: pageKey) {
            place = existing
        } else {
            place = newPage()
            pages[pageKey] = place
        }
        lastPage = (pageKey, place)
        let slot = slot(of: key, onPageAt: place)
        if slots[slot] == nil {
            pageCounts[Int(place)] += 1
            count += 1
        }
        slots[slot] = entry
    }

    /// Empties the slot at `key` if it holds the object at `address` (any object when `nil`).
    mutating func remove(at key: UInt64, ifItIs address: UnsafeMutableRawPointer? = nil) {
        let pageKey = key >> Self.pageBits
        guard let place = place(ofPage: pageKey) else { return }
        let slot = slot(of: key, onPageAt: place)
        guard let entry = slots[slot], address == nil || entry.toOpaque() == address else { return }
        slots[slot] = nil
        count -= 1
        pageCounts[Int(place)] -= 1
        guard pageCounts[Int(place)] == 0 else { return }
        // An emptied table lets go of its storage: a context that once held many objects (a
        // large insert, saved and released) would otherwise keep a slot for each of them.
        if count == 0 {
            self = PagedObjectTable()
            return
        }
        pages[pageKey] = nil
        freePlaces.append(place)
        if lastPage?.key == pageKey { lastPage = nil }
    }

    private mutating func newPage() -> Int32 {
        if let place = freePlaces.popLast() { return place }
        let place = Int32(pageCounts.count)
        pageCounts.append(0)
        slots.append(contentsOf: repeatElement(nil, count: Self.pageSize))
        return place
    }

    /// Makes room for `count` more objects with consecutive IDs.
    mutating func reserveCapacity(forConsecutive count: Int) {
        let newPages = count / Self.pageSize + 2
        pages.reserveCapacity(pages.count + newPages)
        pageCounts.reserveCapacity(pageCounts.count + newPages)
        slots.reserveCapacity(slots.count + newPages * Self.pageSize)
    }

    /// The registered entries, in no particular order.
    var entries: [Entry] { slots.compactMap { $0 } }

    /// The entries whose objects pass `isIncluded`, in a new table.
    func filter(_ isIncluded: (Entry) -> Bool) -> PagedObjectTable {
        var kept = PagedObjectTable()
        for (pageKey, place) in pages {
            for offset in 0..<UInt64(Self.pageSize) {
                let key = pageKey << Self.pageBits | offset
                if let entry = slots[slot(of: key, onPageAt: place)], isIncluded(entry) {
                    kept.set(entry, at: key)
                }
            }
        }
        return kept
    }
}
