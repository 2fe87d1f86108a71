/// What a ``PersistentHistoryChangeRequest`` returns: Core Data's `NSPersistentHistoryResult`,
/// whose `result` is the transactions (with their changes), in the order they were saved.
public final class PersistentHistoryResult: PersistentStoreResult {
    public let transactions: [PersistentHistoryTransaction]
    /// Core Data's untyped `result`: the transactions (`[PersistentHistoryTransaction]`).
    public var result: Any? { transactions }

    init(transactions: [PersistentHistoryTransaction]) {
        self.transactions = transactions
    }
}
