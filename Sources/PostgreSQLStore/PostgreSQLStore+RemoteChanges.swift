import Foundation
import ManagedObjects
import PostgresNIO

/// Remote changes: every save tells the database's other stores (other processes, other
/// coordinators) what it inserted, updated and deleted, through PostgreSQL's `NOTIFY` on a
/// channel named after the store's UUID, sent in the save's transaction (so delivered when, and
/// only if, it commits). A store that observes (``startObservingRemoteChanges(_:)``) `LISTEN`s on
/// its own connection and hands each other store's save to the handler, which merges it into
/// contexts (`ManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`): Core Data's
/// remote-change notification, with the changed IDs in it.
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
                    bindings: PostgreSQLConnectionPool.bindings([changeChannel.databaseValue, payload.databaseValue]), on: connection))
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
    /// save another store makes in this database, until the store closes. A store observes
    /// once; a second call throws.
    public func startObservingRemoteChanges(_ handler: @escaping @Sendable (ManagedObjectContext.RemoteChanges) -> Void) throws {
        let connection = try pool.openDedicatedConnection()
        let started = listener.withLock { listener -> Bool in
            guard listener == nil else { return false }
            listener = connection
            return true
        }
        guard started else {
            PostgreSQLConnectionPool.close(connection)
            throw ManagedObjectError(.persistentStoreOperation, "the PostgreSQL store \(pool.location) observes remote changes already")
        }
        let queue = DispatchQueue(label: "PostgreSQLStore.remoteChanges")
        let sender = senderToken
        connection.addListener(channel: changeChannel) { [weak self] _, notification in
            guard let self, let changes = self.remoteChanges(notification.payload, ignoring: sender) else { return }
            queue.async { handler(changes) }
        }
        do {
            try pool.execute("LISTEN \(changeChannel)", on: connection)
        } catch {
            throw ManagedObjectError(
                .persistentStoreOperation, "cannot listen for remote changes in \(pool.location): \(PostgreSQLConnectionPool.describe(error))")
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
        let connection = listener.withLock { listener -> PostgresConnection? in
            defer { listener = nil }
            return listener
        }
        if let connection { PostgreSQLConnectionPool.close(connection) }
    }
}
