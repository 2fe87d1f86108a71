import Foundation

extension ManagedObjectContext {
    // MARK: Persistent history

    /// The persistent history the request asks for, from every store of the coordinator that
    /// keeps it (an SQLite store with Core Data's history tables), store by store in the order
    /// they were added, each store's transactions in the order they were saved. A token names
    /// its store: it starts the history of that store only, and the other stores give none.
    @discardableResult
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        var transactions: [PersistentHistoryTransaction] = []
        for case let store as SQLiteStore in coordinator.persistentStores {
            if case .afterToken(let token) = request.start, token.storeIdentifier != store.identifier,
               coordinator.persistentStores.contains(where: { $0.identifier == token.storeIdentifier }) {
                continue
            }
            transactions += try store.fetchHistory(after: request.start)
        }
        return PersistentHistoryResult(transactions: transactions)
    }
}
