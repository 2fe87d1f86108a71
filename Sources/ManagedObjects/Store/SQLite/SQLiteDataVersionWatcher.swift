import Foundation
import GRDB

/// Calls `onChange` when another connection (another coordinator, another process) has
/// committed to an SQLite store, by polling SQLite's `PRAGMA data_version` on the store's own
/// writer connection: that number changes only for other connections' commits, so the store's
/// own saves and batch requests are not reported. Polling costs one pragma per `interval`
/// while watching, and nothing once stopped.
final class SQLiteDataVersionWatcher: RemoteChangeWatch, @unchecked Sendable {
    // Unchecked: `lastVersion` is read and written only on `queue` (the timer's handler).
    private let timer: DispatchSourceTimer
    private let queue = DispatchQueue(label: "SQLiteStore.dataVersion")
    private var lastVersion: Int

    init(pool: DatabasePool, interval: DispatchTimeInterval, onChange: @escaping @Sendable () -> Void) throws {
        lastVersion = try Self.dataVersion(of: pool)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in
            // A store closed under the watcher stops answering; the coordinator stops the
            // watcher when it removes the store.
            guard let self, let version = try? Self.dataVersion(of: pool), version != lastVersion else { return }
            lastVersion = version
            onChange()
        }
        timer.resume()
    }

    private static func dataVersion(of pool: DatabasePool) throws -> Int {
        try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA data_version") } ?? 0
    }

    func stop() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
