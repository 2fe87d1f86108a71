/// A store that can tell when another coordinator or process has written it (the SQLite store
/// by SQLite's `data_version`, the PostgreSQL store by `LISTEN/NOTIFY`), so that its coordinator
/// posts remote change notifications (``PersistentStoreCoordinator/postRemoteChangeNotifications(for:)``).
package protocol RemoteChangeSource: PersistentStore {
    /// Starts calling `onChange` (on a queue of the store's, never the caller's) after each
    /// commit of another connection to the store, until the returned watch is stopped. The
    /// store's own saves and batch requests are not reported.
    func watchRemoteChanges(_ onChange: @escaping @Sendable () -> Void) throws -> any RemoteChangeWatch
}

/// A running watch of ``RemoteChangeSource``; stopping it ends the calls.
package protocol RemoteChangeWatch: Sendable {
    func stop()
}
