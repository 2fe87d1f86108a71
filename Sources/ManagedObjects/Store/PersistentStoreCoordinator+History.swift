import Foundation

extension PersistentStoreCoordinator {
    /// The token of the newest transaction in the history of the first of `stores` (all the
    /// coordinator's stores when `nil`) that keeps history: Core Data's
    /// `currentPersistentHistoryToken(fromStores:)`. A store with the history tables but no
    /// transaction gives a token before any (fetching after it gives the whole history).
    /// `nil` when none of the stores keeps history. A token names one store: with several
    /// stores keeping history, ask for each one's token (Core Data's token can cover several).
    /// As Core Data's, it does not throw: a store whose history cannot be read is passed over
    /// (the history fetch that follows reports its error).
    public func currentPersistentHistoryToken(fromStores stores: [any PersistentStore]? = nil) -> PersistentHistoryToken? {
        for case let store as any PersistentHistoryStore in stores ?? persistentStores {
            if let token = try? store.currentHistoryToken() { return token }
        }
        return nil
    }
}
