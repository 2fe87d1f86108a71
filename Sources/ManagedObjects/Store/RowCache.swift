import Foundation

/// The coordinator's row cache: one snapshot (values and version) per object ID, shared by
/// every context of the coordinator, as Core Data's coordinator keeps one. A fetch puts the
/// rows it read here, so the faults it returns fire without asking the store again; each
/// object that holds a row counts as one user, and a row nobody uses is released.
final class RowCache: @unchecked Sendable {
    // Unchecked: `rows` is used only while holding `lock`.
    private let lock = NSLock()
    private var rows: [ManagedObjectID: Row] = [:]

    /// A snapshot without its object ID, which is the row's key (one copy of it per row), and
    /// when it was last read from the store (or saved there), for a context's
    /// `stalenessInterval`.
    private struct Row {
        var version: Int
        var values: [StoredValue]
        var users: Int
        var readAt: ContinuousClock.Instant

        init(_ snapshot: StoredObject, users: Int, readAt: ContinuousClock.Instant) {
            version = snapshot.version
            values = snapshot.values
            self.users = users
            self.readAt = readAt
        }

        /// Whether the row was read no longer than `maximumAge` seconds before `now` (a
        /// negative age accepts any row, Core Data's default staleness interval).
        func isFresh(within maximumAge: TimeInterval, at now: ContinuousClock.Instant) -> Bool {
            maximumAge < 0 || readAt.duration(to: now) <= .seconds(maximumAge)
        }

        func snapshot(_ objectID: ManagedObjectID) -> StoredObject {
            StoredObject(objectID: objectID, version: version, values: values)
        }
    }

    /// Puts rows read from the store in the cache, each with one more user. A newer version
    /// replaces the cached one; an older one (a read that raced a save) does not.
    func retain(_ snapshots: some Collection<StoredObject>) {
        let now = ContinuousClock.now
        lock.withLock {
            rows.reserveCapacity(rows.count + snapshots.count)
            for snapshot in snapshots {
                if var row = rows[snapshot.objectID] {
                    if snapshot.version > row.version {
                        row = Row(snapshot, users: row.users, readAt: now)
                    } else if snapshot.version == row.version {
                        row.readAt = now
                    }
                    row.users += 1
                    rows[snapshot.objectID] = row
                } else {
                    rows[snapshot.objectID] = Row(snapshot, users: 1, readAt: now)
                }
            }
        }
    }

    /// Rows read again for objects that already hold a use of them: a newer version replaces
    /// the cached one, the same version counts as read now.
    func update(_ snapshots: some Collection<StoredObject>) {
        let now = ContinuousClock.now
        lock.withLock {
            for snapshot in snapshots {
                guard var row = rows[snapshot.objectID], snapshot.version >= row.version else { continue }
                if snapshot.version > row.version {
                    row = Row(snapshot, users: row.users, readAt: now)
                } else {
                    row.readAt = now
                }
                rows[snapshot.objectID] = row
            }
        }
    }

    /// The cached row, with one more user when there is one read within `maximumAge` seconds
    /// (any, when negative).
    func retainedSnapshot(for objectID: ManagedObjectID, readWithin maximumAge: TimeInterval = -1) -> StoredObject? {
        let now = ContinuousClock.now
        return lock.withLock {
            guard var row = rows[objectID], row.isFresh(within: maximumAge, at: now) else { return nil }
            row.users += 1
            rows[objectID] = row
            return row.snapshot(objectID)
        }
    }

    /// The cached row, if any read within `maximumAge` seconds (any, when negative), for an
    /// object that already holds a use of it.
    func snapshot(for objectID: ManagedObjectID, readWithin maximumAge: TimeInterval = -1) -> StoredObject? {
        let now = ContinuousClock.now
        return lock.withLock {
            guard let row = rows[objectID], row.isFresh(within: maximumAge, at: now) else { return nil }
            return row.snapshot(objectID)
        }
    }

    /// One user fewer; the row goes when it has none.
    func release(_ objectID: ManagedObjectID) {
        lock.withLock {
            guard var row = rows[objectID] else { return }
            row.users -= 1
            rows[objectID] = row.users > 0 ? row : nil
            // Emptied, the table lets go of its storage (a dictionary keeps its largest capacity).
            if rows.isEmpty { rows = [:] }
        }
    }

    /// A save went through: saved rows take their new values (keeping their users), deleted
    /// rows are dropped so no context fires a fault from them.
    func apply(saved: [StoredObject], deleted: [ManagedObjectID]) {
        let now = ContinuousClock.now
        lock.withLock {
            for snapshot in saved {
                guard let users = rows[snapshot.objectID]?.users else { continue }
                rows[snapshot.objectID] = Row(snapshot, users: users, readAt: now)
            }
            for objectID in deleted {
                rows[objectID] = nil
            }
        }
    }

    /// How many rows are cached (for tests and diagnostics).
    var count: Int { lock.withLock { rows.count } }
}
