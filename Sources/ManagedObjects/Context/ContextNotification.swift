import Foundation

/// What a context announces: Core Data's `NSManagedObjectContextObjectsDidChange`,
/// `NSManagedObjectContextWillSave` and `NSManagedObjectContextDidSave` notifications, as a
/// Sendable value naming objects by ID. Observers on the context's queue turn IDs into objects
/// with `context.object(with:)`.
public struct ContextNotification: Sendable, CustomStringConvertible {
    public enum Name: String, Sendable, Hashable {
        /// Objects were inserted, changed or deleted (announced by `processPendingChanges()`,
        /// which runs after each `perform` block and before each save), or reloaded by a merge.
        case objectsDidChange
        /// A save is starting.
        case willSave
        /// A save succeeded. Inserted objects are named by their new permanent IDs (after a
        /// child context's save into its parent, by the IDs they keep, temporary ones included).
        case didSave
    }

    public let name: Name
    public let context: ManagedObjectContext
    public let insertedObjectIDs: [ManagedObjectID]
    public let updatedObjectIDs: [ManagedObjectID]
    public let deletedObjectIDs: [ManagedObjectID]
    /// Objects reloaded from the store by `mergeChanges(fromContextDidSave:)`.
    public let refreshedObjectIDs: [ManagedObjectID]
    /// A save's updated objects as stored, so other contexts merge them without reading the
    /// store object by object.
    let savedSnapshots: [ManagedObjectID: StoredObject]

    init(
        name: Name, context: ManagedObjectContext, inserted: [ManagedObjectID] = [],
        updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = [], refreshed: [ManagedObjectID] = [],
        savedSnapshots: [ManagedObjectID: StoredObject] = [:]
    ) {
        self.savedSnapshots = savedSnapshots
        self.name = name
        self.context = context
        self.insertedObjectIDs = inserted
        self.updatedObjectIDs = updated
        self.deletedObjectIDs = deleted
        self.refreshedObjectIDs = refreshed
    }

    public var description: String {
        "\(name.rawValue): \(insertedObjectIDs.count) inserted, \(updatedObjectIDs.count) updated, "
            + "\(deletedObjectIDs.count) deleted, \(refreshedObjectIDs.count) refreshed"
    }
}

/// A context's observers. Guarded by its own lock: streams end (and unregister) from any thread.
final class ObserverList: @unchecked Sendable {
    // Unchecked: `handlers` and `nextToken` are used only while holding `lock`.
    typealias Handler = (ContextNotification) -> Void

    private let lock = NSLock()
    private var handlers: [(token: Int, names: Set<ContextNotification.Name>, handler: Handler)] = []
    private var nextToken = 0

    func add(_ names: Set<ContextNotification.Name>, _ handler: @escaping Handler) -> Int {
        lock.withLock {
            nextToken += 1
            handlers.append((nextToken, names, handler))
            return nextToken
        }
    }

    func remove(_ token: Int) {
        lock.withLock { handlers.removeAll { $0.token == token } }
    }

    func hasHandlers(for name: ContextNotification.Name) -> Bool {
        lock.withLock { handlers.contains { $0.names.contains(name) } }
    }

    func handlers(for name: ContextNotification.Name) -> [Handler] {
        lock.withLock { handlers.filter { $0.names.contains(name) }.map(\.handler) }
    }
}

extension ManagedObjectContext {
    /// Calls `handler` on the context's queue for each notification with one of `names`, until
    /// the returned observation is cancelled or released.
    public func addObserver(
        for names: Set<ContextNotification.Name> = [.objectsDidChange, .willSave, .didSave],
        using handler: @escaping (ContextNotification) -> Void
    ) -> ContextObservation {
        let token = observers.add(names, handler)
        return ContextObservation { [observers] in observers.remove(token) }
    }

    /// The context's notifications with one of `names`, as an asynchronous sequence. The
    /// sequence buffers without limit and ends when the consumer stops iterating.
    public func notifications(
        named names: Set<ContextNotification.Name> = [.objectsDidChange, .willSave, .didSave]
    ) -> AsyncStream<ContextNotification> {
        AsyncStream { continuation in
            let token = observers.add(names) { continuation.yield($0) }
            continuation.onTermination = { [observers] _ in observers.remove(token) }
        }
    }

    func post(_ notification: ContextNotification) {
        for handler in observers.handlers(for: notification.name) {
            handler(notification)
        }
    }
}
