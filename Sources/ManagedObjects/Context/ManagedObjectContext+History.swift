import Foundation

extension ManagedObjectContext {
    // MARK: Persistent history

    /// Runs a persistent history request against every store of the coordinator that keeps
    /// history (an SQLite or PostgreSQL store with Core Data's history tables), store by store in the order
    /// they were added. A fetch gives each store's transactions in the order they were saved; a
    /// delete removes the history before its point and gives no transactions. A token names its
    /// store: it starts (or bounds) the history of that store only, and the other stores are
    /// left out.
    @discardableResult
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        var transactions: [PersistentHistoryTransaction] = []
        for case let store as any PersistentHistoryStore in coordinator.persistentStores {
            if case .afterToken(let token) = request.start, token.storeIdentifier != store.identifier,
               coordinator.persistentStores.contains(where: { $0.identifier == token.storeIdentifier }) {
                continue
            }
            switch request.operation {
            case .fetch: transactions += try request.filtered(store.fetchHistory(after: request.start))
            case .delete: try store.deleteHistory(before: request.start)
            }
        }
        return PersistentHistoryResult(transactions: transactions)
    }
}
