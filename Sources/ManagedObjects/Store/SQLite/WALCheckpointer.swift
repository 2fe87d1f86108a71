import GRDB
import GRDBSQLite

/// Runs the WAL checkpoint SQLite's own automatic checkpoint runs — a passive one, once a
/// commit leaves 1,000 pages or more in the `-wal` file — after the commit instead of inside it:
/// on the store's writer queue, as the next write, so a save returns once its transaction is
/// durable, without copying the pages into the main file first. SQLite's documentation offers
/// exactly this ("turn off the automatic checkpoints and run checkpoints ... in a separate
/// thread"): a large save paid for the copy of everything it wrote before returning.
///
/// Installed as the writer connection's WAL hook, which replaces SQLite's automatic checkpoint
/// on that connection (both are the one hook). Durability is the same: the WAL holds the
/// committed transaction either way. A checkpoint that fails is left to the next commit's.
/// Closing the pool runs it first (the writer queue is serial).
final class WALCheckpointer: @unchecked Sendable {
    /// SQLite's default automatic checkpoint threshold (`SQLITE_DEFAULT_WAL_AUTOCHECKPOINT`).
    static let pageThreshold: Int32 = 1000

    private struct State {
        /// Weak: the pool's connections keep this checkpointer (through their configuration).
        weak var pool: DatabasePool?
        var isScheduled = false
    }

    // Unchecked: the state is read and written under the lock only.
    private let state = LockedValue(State())

    /// The pool whose writer runs the checkpoints: set once the pool is open.
    func attach(to pool: DatabasePool) {
        state.withLock { $0.pool = pool }
    }

    /// Makes `db`'s commits schedule the checkpoint (the writer connection only: readers never
    /// commit).
    func install(on db: Database) {
        guard !db.configuration.readonly, let connection = db.sqliteConnection else { return }
        sqlite3_wal_hook(connection, { context, _, _, pages in
            // Called after the commit, with its write lock released.
            if let context, pages >= WALCheckpointer.pageThreshold {
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().schedule()
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Queues one checkpoint on the writer (commits while it waits queue no more).
    private func schedule() {
        let pool: DatabasePool? = state.withLock { state in
            guard !state.isScheduled, let pool = state.pool else { return nil }
            state.isScheduled = true
            return pool
        }
        pool?.asyncWriteWithoutTransaction { [self] db in
            state.withLock { $0.isScheduled = false }
            // Passive, as SQLite's own: it copies what no reader still needs and never waits.
            _ = try? db.checkpoint(.passive)
        }
    }
}
