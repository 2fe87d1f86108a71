import Foundation

/// A coordinator's watchers of its stores' files and the streams that hear from them
/// (``PersistentStoreCoordinator/remoteChanges``).
final class RemoteChangeObservers: Sendable {
    private let watchers = LockedValue<[ObjectIdentifier: any RemoteChangeWatch]>([:])
    private let continuations = LockedValue<[UUID: AsyncStream<PersistentStoreRemoteChange>.Continuation]>([:])
    /// Contexts that merge remote changes on their own (``ManagedObjectContext/automaticallyMergesRemoteChanges``).
    private let subscribers = LockedValue<[UUID: @Sendable (PersistentStoreRemoteChange) -> Void]>([:])

    func isWatching(_ store: any PersistentStore) -> Bool {
        watchers.withLock { $0[ObjectIdentifier(store)] != nil }
    }

    func watch(_ store: any PersistentStore, with watcher: any RemoteChangeWatch) {
        watchers.withLock { $0[ObjectIdentifier(store)] = watcher }
    }

    func stopWatching(_ store: any PersistentStore) {
        watchers.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }?.stop()
    }

    func stopAll() {
        for watcher in watchers.withLock({ all in defer { all = [:] }; return all.values }) { watcher.stop() }
        for continuation in continuations.withLock({ all in defer { all = [:] }; return all.values }) { continuation.finish() }
        subscribers.withLock { $0 = [:] }
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
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber(change) }
    }

    /// Calls `subscriber` with each remote change until ``unsubscribe(_:)`` with the key returned.
    func subscribe(_ subscriber: @escaping @Sendable (PersistentStoreRemoteChange) -> Void) -> UUID {
        let key = UUID()
        subscribers.withLock { $0[key] = subscriber }
        return key
    }

    func unsubscribe(_ key: UUID) {
        _ = subscribers.withLock { $0.removeValue(forKey: key) }
    }
}
