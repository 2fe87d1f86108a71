import Foundation

extension ManagedObjectContext {
    /// When `true`, the context merges what other processes (and other coordinators) save to the
    /// stores its coordinator watches, on its own queue: on each remote change
    /// (``PersistentStoreCoordinator/postRemoteChangeNotifications(for:)``) it fetches the
    /// persistent history after the last transaction it merged and merges each transaction
    /// (`mergeChanges(fromContextDidSave: transaction.objectIDNotification())`), as Core Data
    /// apps do by hand when they observe `.NSPersistentStoreRemoteChange`. Turning it on starts
    /// from the stores' history as it is then. Core Data has no such property:
    /// ``automaticallyMergesChangesFromParent`` merges the saves of the coordinator's other
    /// contexts (or of the parent) there and here, not other processes' (Docs/RuntimeDifferences.md).
    ///
    /// It needs stores that keep history (`persistentHistoryTracking`) and post remote changes;
    /// with neither it merges nothing. A history fetch that fails is tried again at the next
    /// remote change, from the same point.
    public var automaticallyMergesRemoteChanges: Bool {
        get { remoteMerging.withLock { $0 != nil } }
        set {
            if newValue {
                startMergingRemoteChanges()
            } else if let merging = remoteMerging.withLock({ state in defer { state = nil }; return state }) {
                merging.coordinator?.remoteChangeObservers.unsubscribe(merging.subscription)
            }
        }
    }

    private func startMergingRemoteChanges() {
        guard remoteMerging.withLock({ $0 == nil }) else { return }
        let coordinator = coordinator
        var tokens: [String: PersistentHistoryToken] = [:]
        for case let store as any PersistentHistoryStore in coordinator.persistentStores {
            if let token = try? store.currentHistoryToken() { tokens[store.identifier] = token }
        }
        let subscription = coordinator.remoteChangeObservers.subscribe { [weak self] change in
            guard let self else { return }
            self.queue.async { self.mergeRemoteHistory(of: change.storeIdentifier) }
        }
        let merging = RemoteMerging(coordinator: coordinator, subscription: subscription, tokens: tokens)
        let installed = remoteMerging.withLock { state -> Bool in
            guard state == nil else { return false }
            state = merging
            return true
        }
        if !installed { coordinator.remoteChangeObservers.unsubscribe(subscription) }
    }

    /// Merges the history of the store `storeIdentifier` after the last transaction merged (on
    /// the context's queue).
    private func mergeRemoteHistory(of storeIdentifier: String) {
        guard let merging = remoteMerging.withLock({ $0 }), let coordinator = merging.coordinator,
              let store = coordinator.persistentStores.first(where: { $0.identifier == storeIdentifier }) as? any PersistentHistoryStore
        else { return }
        let start = merging.tokens[storeIdentifier].map(PersistentHistoryChangeRequest.Start.afterToken) ?? .beginning
        guard let transactions = try? store.fetchHistory(after: start), let last = transactions.last else { return }
        for transaction in transactions {
            mergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        remoteMerging.withLock { state in
            guard state?.subscription == merging.subscription else { return }
            state?.tokens[storeIdentifier] = last.token
        }
    }
}

/// A context's merging of remote changes: where it listens and how far it has read each store's history.
struct RemoteMerging: Sendable {
    weak var coordinator: PersistentStoreCoordinator?
    let subscription: UUID
    var tokens: [String: PersistentHistoryToken]
}
