import Foundation
import ManagedObjects
import PostgresNIO

/// Remote changes: every save tells the database's other stores (other processes, other
/// coordinators) what it inserted, updated and deleted, through PostgreSQL's `NOTIFY` on a
/// channel named after the store's UUID, sent in the save's transaction (so delivered when, and
/// only if, it commits). A store `LISTEN`s on a connection of its own once a coordinator posts
/// its remote changes (``PersistentStoreCoordinator/postRemoteChangeNotifications(for:)``: Core
/// Data's `.NSPersistentStoreRemoteChange` with the store's URL, UUID and history token, after
/// which a reader fetches the history), or once ``startObservingRemoteChanges(_:)`` hands the
/// changed IDs to a handler that merges them (`ManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`).
extension PostgreSQLStore {
    /// The notification channel: one per store UUID, a plain identifier.
    var changeChannel: String { "mo_" + identifier.lowercased().filter { $0.isLetter || $0.isNumber } }

    /// A notification payload's limit is 8000 bytes: IDs go in as many as it takes.
    private static let payloadLimit = 7_900

    /// The `pg_notify` calls announcing `changes`: `<sender>|<i, u or d>|<Z_ENT>.<Z_PK>,…`.
    func notifications(of changes: StoreChangeSet, connection: PostgresConnection) -> [EventLoopFuture<PostgresQueryResult>] {
        notifications(
            inserted: changes.inserted.map(\.objectID), updated: changes.updated.map(\.objectID), deleted: changes.deleted.map(\.objectID),
            connection: connection)
    }

    func notifications(
        inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID], connection: PostgresConnection
    ) -> [EventLoopFuture<PostgresQueryResult>] {
        var notifications: [EventLoopFuture<PostgresQueryResult>] = []
        let kinds: [(String, [ManagedObjectID])] = [("i", inserted), ("u", updated), ("d", deleted)]
        for (kind, objectIDs) in kinds where !objectIDs.isEmpty {
            let prefix = "\(senderToken)|\(kind)|"
            var payload = prefix
            func send() {
                notifications.append(pool.send(
                    "SELECT pg_notify(?, ?)",
                    bindings: PostgreSQLConnectionPool.bindings([.text(changeChannel), .text(payload)]), on: connection))
                payload = prefix
            }
            for objectID in objectIDs {
                guard let entity = schema.entityNumbers[objectID.entity.name], let key = objectID.storeNumber else { continue }
                let item = "\(entity).\(key)"
                if payload.utf8.count + item.utf8.count + 1 > Self.payloadLimit { send() }
                payload += payload.count == prefix.count ? item : "," + item
            }
            if payload.count > prefix.count { send() }
        }
        return notifications
    }

    /// Calls `handler` (on a queue of its own, never an event loop) with the changes of every
    /// save another store makes in this database, until the store closes: the changed IDs, for
    /// code that merges without persistent history. A store has one such handler; a second call
    /// throws. Coordinators hear of the same saves as Core Data's remote change notifications
    /// (``PersistentStoreCoordinator/postRemoteChangeNotifications(for:)``), on the same connection.
    public func startObservingRemoteChanges(_ handler: @escaping @Sendable (ManagedObjectContext.RemoteChanges) -> Void) throws {
        let added = listener.withLock { listening -> Bool in
            guard listening.handler == nil else { return false }
            listening.handler = handler
            return true
        }
        guard added else {
            throw ManagedObjectError(.persistentStoreOperation, "the PostgreSQL store \(pool.location) observes remote changes already")
        }
        try listen()
    }

    /// Listens on a connection of its own, unless listening already. When that connection goes
    /// while the store still observes (the server restarted), it listens again on a new one.
    private func listen() throws {
        guard listener.withLock({ $0.connection == nil }) else { return }
        let connection = try pool.openDedicatedConnection()
        let started = listener.withLock { listening -> Bool in
            guard listening.connection == nil else { return false }
            listening.connection = connection
            return true
        }
        guard started else {
            PostgreSQLConnectionPool.close(connection)
            return
        }
        let sender = senderToken
        connection.addListener(channel: changeChannel) { [weak self] _, notification in
            guard let self, let changes = self.remoteChanges(notification.payload, ignoring: sender) else { return }
            self.hear(changes)
        }
        connection.closeFuture.whenComplete { [weak self] _ in self?.listeningConnectionClosed(connection) }
        do {
            try pool.execute("LISTEN \(changeChannel)", on: connection)
        } catch {
            // Not listening: the next `listen()` (or the retry after a restart) starts afresh.
            listener.withLock { listening in
                if listening.connection === connection { listening.connection = nil }
            }
            PostgreSQLConnectionPool.close(connection)
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot listen for remote changes in \(pool.location): \(pool.describe(error))", underlying: error)
        }
    }

    /// The listening connection closed without the store stopping: listen again, from the
    /// queue of those who hear (listening waits for the server, which an event loop must not).
    private func listeningConnectionClosed(_ connection: PostgresConnection) {
        let lost = listener.withLock { listening -> Bool in
            guard listening.connection === connection else { return false }
            listening.connection = nil
            return true
        }
        if lost { listenAgain(after: 0.1) }
    }

    /// Tries to listen again after `delay`, then after twice as long (up to 2 s) while the
    /// server is away. Saves made meanwhile were not announced: the watching coordinators are
    /// told once it listens again, so their readers look at the history; the handler of
    /// ``startObservingRemoteChanges(_:)`` is not told of them.
    private func listenAgain(after delay: TimeInterval) {
        remoteChangeQueue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, self.listener.withLock({ $0.handler != nil || !$0.watches.isEmpty }) else { return }
            do {
                try self.listen()
            } catch {
                self.listenAgain(after: min(delay * 2, 2))
                return
            }
            for watch in self.listener.withLock({ Array($0.watches.values) }) { watch() }
        }
    }

    /// Hands another store's save to the handler, and tells the watching coordinators once for
    /// the notifications that come together (a save sends one per kind of change and per 8 kB).
    private func hear(_ changes: ManagedObjectContext.RemoteChanges) {
        let (handler, tellsWatchers) = listener.withLock { listening in
            let tells = !listening.watchersPending && !listening.watches.isEmpty
            if tells { listening.watchersPending = true }
            return (listening.handler, tells)
        }
        remoteChangeQueue.async { [weak self] in
            handler?(changes)
            guard tellsWatchers, let self else { return }
            let watches = self.listener.withLock { listening in
                listening.watchersPending = false
                return Array(listening.watches.values)
            }
            for watch in watches { watch() }
        }
    }

    /// The changes a payload names; `nil` for this store's own saves and for payloads it does
    /// not read (another version's, or not this format).
    private func remoteChanges(_ payload: String, ignoring sender: String) -> ManagedObjectContext.RemoteChanges? {
        let parts = payload.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] != sender else { return nil }
        let objectIDs = parts[2].split(separator: ",").compactMap { item -> ManagedObjectID? in
            let numbers = item.split(separator: ".")
            guard numbers.count == 2, let entityNumber = Int64(numbers[0]), let key = Int64(numbers[1]),
                  let entity = schema.entitiesByNumber[entityNumber] else { return nil }
            return permanentID(entity: entity, number: key)
        }
        switch parts[1] {
        case "i": return ManagedObjectContext.RemoteChanges(inserted: objectIDs)
        case "u": return ManagedObjectContext.RemoteChanges(updated: objectIDs)
        case "d": return ManagedObjectContext.RemoteChanges(deleted: objectIDs)
        default: return nil
        }
    }

    /// Stops listening (the store's `close()` and deinit do).
    func stopObservingRemoteChanges() {
        let connection = listener.withLock { listening -> PostgresConnection? in
            defer { listening = RemoteChangeListening() }
            return listening.connection
        }
        if let connection { PostgreSQLConnectionPool.close(connection) }
    }
}

extension PostgreSQLStore: RemoteChangeSource {
    /// Calls `onChange` after each save of another store in this database, through the store's
    /// `LISTEN` connection (opened on the first watch).
    package func watchRemoteChanges(_ onChange: @escaping @Sendable () -> Void) throws -> any RemoteChangeWatch {
        let key = UUID()
        listener.withLock { $0.watches[key] = onChange }
        try listen()
        return Watch { [weak self] in _ = self?.listener.withLock { $0.watches.removeValue(forKey: key) } }
    }

    private struct Watch: RemoteChangeWatch {
        let stopping: @Sendable () -> Void
        func stop() { stopping() }
    }
}

/// A PostgreSQL store's listening for other stores' saves: its connection, the handler of
/// ``PostgreSQLStore/startObservingRemoteChanges(_:)`` and the coordinators' watches.
struct RemoteChangeListening: @unchecked Sendable {
    // Unchecked: held in a `LockedValue`; the connection is used through its own thread-safe API.
    var connection: PostgresConnection?
    var handler: (@Sendable (ManagedObjectContext.RemoteChanges) -> Void)?
    var watches: [UUID: @Sendable () -> Void] = [:]
    /// Whether the watches are to be told already (notifications that come together tell once).
    var watchersPending = false
}
