import Foundation

/// The coordinator's row cache: one snapshot (values and version) per object ID, shared by
/// every context of the coordinator, as Core Data's coordinator keeps one. A fetch puts the
/// rows it read here, so the faults it returns fire without asking the store again; each
/// object that holds a row counts as one user, and a row nobody uses is released.
final class RowCache: @unchecked Sendable {
    // Unchecked: `rows` is used only while holding `lock`.
    private let lock = NSLock()
    private var rows: [ManagedObjectID: Row] = [:]

    /// A snapshot without its object ID, which is the row's key (one copy of it per row).
    private struct Row {
        var version: Int
        var values: [StoredValue]
        var users: Int

        init(_ snapshot: StoredObject, users: Int) {
            version = snapshot.version
            values = snapshot.values
            self.users = users
        }

        func snapshot(_ objectID: ManagedObjectID) -> StoredObject {
            StoredObject(objectID: objectID, version: version, values: values)
        }
    }

    /// Puts rows read from the store in the cache, each with one more user. A newer version
    /// replaces the cached one; an older one (a read that raced a save) does not.
    func retain(_ snapshots: some Collection<StoredObject>) {
        lock.withLock {
            rows.reserveCapacity(rows.count + snapshots.count)
            for snapshot in snapshots {
                if var row = rows[snapshot.objectID] {
                    if snapshot.version > row.version { row = Row(snapshot, users: row.users) }
                    row.users += 1
                    rows[snapshot.objectID] = row
                } else {
                    rows[snapshot.objectID] = Row(snapshot, users: 1)
                }
            }
        }
    }

    /// The cached row, with one more user when there is one.
    func retainedSnapshot(for objectID: ManagedObjectID) -> StoredObject? {
        lock.withLock {
            guard var row = rows[objectID] else { return nil }
            row.users += 1
            rows[objectID] = row
            return row.snapshot(objectID)
        }
    }

    /// The cached row, if any, for an object that already holds a use of it.
    func snapshot(for objectID: ManagedObjectID) -> StoredObject? {
        lock.withLock { rows[objectID]?.snapshot(objectID) }
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
        lock.withLock {
            for snapshot in saved {
                guard let users = rows[snapshot.objectID]?.users else { continue }
                rows[snapshot.objectID] = Row(snapshot, users: users)
            }
            for objectID in deleted {
                rows[objectID] = nil
            }
        }
    }

    /// How many rows are cached (for tests and diagnostics).
    var count: Int { lock.withLock { rows.count } }
}
