/// A store that can keep Core Data's persistent history (the SQLite and PostgreSQL stores):
/// what a context's ``PersistentHistoryChangeRequest`` and the coordinator's
/// `currentPersistentHistoryToken(fromStores:)` ask of it. A store without the history tables
/// gives no transactions and no token.
package protocol PersistentHistoryStore: PersistentStore {
    /// The transactions after `start`, with their changes, in the order they were saved. A token
    /// of another store throws `persistentHistoryTokenExpired` (134301); a damaged row throws
    /// naming its table, never traps.
    func fetchHistory(after start: PersistentHistoryChangeRequest.Start) throws -> [PersistentHistoryTransaction]
    /// Removes the transactions before `start` (up to and including a token's) with their changes.
    func deleteHistory(before start: PersistentHistoryChangeRequest.Start) throws
    /// The token of the newest transaction (before any when there is none); `nil` without the tables.
    func currentHistoryToken() throws -> PersistentHistoryToken?
}
