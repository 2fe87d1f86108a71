import Foundation

extension PersistentStoreCoordinator {
    /// Posted through `NotificationCenter.default` (object: the coordinator) when another
    /// coordinator or process has written a store the coordinator watches
    /// (``postRemoteChangeNotifications(for:)``): Core Data's `.NSPersistentStoreRemoteChange`.
    public static let remoteChangeNotification = Notification.Name("NSPersistentStoreRemoteChangeNotification")
    /// The store's URL in a remote change's `userInfo` (Core Data's `NSPersistentStoreURLKey`).
    public static let storeURLKey = "storeURL"
    /// The store's identifier in a remote change's `userInfo` (Core Data's `NSStoreUUIDKey`).
    public static let storeUUIDKey = "NSStoreUUID"
    /// The store's newest history token in a remote change's `userInfo`, when the store keeps
    /// history (Core Data's `NSPersistentHistoryTokenKey`).
    public static let historyTokenKey = "historyToken"

    /// Starts posting ``remoteChangeNotification`` (and yielding to ``remoteChanges``) whenever
    /// another coordinator or process commits to `store`, one of this coordinator's: Core
    /// Data's `NSPersistentStoreRemoteChangeNotificationPostOptionKey` (a store description's
    /// ``PersistentStoreDescription/postsRemoteChangeNotifications`` calls this). The
    /// coordinator's own saves and batch requests are not reported. An SQLite store is watched
    /// through SQLite's `data_version` (polled), a PostgreSQL store through `LISTEN/NOTIFY`,
    /// until it is removed. Other stores are not watched (an in-memory or atomic store has no
    /// other writer).
    /// Throws `persistentStoreOperation` for a store the coordinator does not hold.
    public func postRemoteChangeNotifications(for store: any PersistentStore) throws {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw ManagedObjectError(
                .persistentStoreOperation, "the coordinator does not hold the store \(store.identifier)" + (store.url.map { " at \($0.path)" } ?? ""))
        }
        guard let source = store as? any RemoteChangeSource, !remoteChangeObservers.isWatching(source) else { return }
        let watch = try source.watchRemoteChanges { [weak self, weak source] in
            guard let self, let source else { return }
            self.announceRemoteChange(of: source)
        }
        remoteChangeObservers.watch(source, with: watch)
    }

    /// The remote changes of the stores the coordinator watches (``postRemoteChangeNotifications(for:)``)
    /// from now on, for code without NotificationCenter. Each call gives a new sequence; it ends
    /// when the coordinator goes.
    public var remoteChanges: AsyncStream<PersistentStoreRemoteChange> {
        remoteChangeObservers.stream()
    }

    private func announceRemoteChange(of store: any PersistentStore) {
        let change = PersistentStoreRemoteChange(
            storeURL: store.url, storeIdentifier: store.identifier,
            historyToken: store.recordsPersistentHistory ? currentPersistentHistoryToken(fromStores: [store]) : nil)
        NotificationCenter.default.post(name: Self.remoteChangeNotification, object: self, userInfo: change.userInfo)
        remoteChangeObservers.yield(change)
    }
}
