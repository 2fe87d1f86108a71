import Foundation

/// A coordinator's watchers of its stores' files and the streams that hear from them
/// (``PersistentStoreCoordinator/remoteChanges``).
final class RemoteChangeObservers: Sendable {
    private let watchers = LockedValue<[ObjectIdentifier: SQLiteDataVersionWatcher]>([:])
    private let continuations = LockedValue<[UUID: AsyncStream<PersistentStoreRemoteChange>.Continuation]>([:])

    func isWatching(_ store: SQLiteStore) -> Bool {
        watchers.withLock { $0[ObjectIdentifier(store)] != nil }
    }

    func watch(_ store: SQLiteStore, with watcher: SQLiteDataVersionWatcher) {
        watchers.withLock { $0[ObjectIdentifier(store)] = watcher }
    }

    func stopWatching(_ store: any PersistentStore) {
        watchers.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }?.stop()
    }

    func stopAll() {
        for watcher in watchers.withLock({ all in defer { all = [:] }; return all.values }) { watcher.stop() }
        for continuation in continuations.withLock({ all in defer { all = [:] }; return all.values }) { continuation.finish() }
    }

    func stream() -> AsyncStream<PersistentStoreRemoteChange> {
        let (stream, continuation) = AsyncStream<PersistentStoreRemoteChange>.makeStream(bufferingPolicy: .unbounded)
        let key = UUID()
        continuations.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.continuations.withLock { $0.removeValue(forKey: key) } }
        return stream
    }

    func yield(_ change: PersistentStoreRemoteChange) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(change) }
    }
}
