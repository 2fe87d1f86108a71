import Foundation

/// A request for persistent history: Core Data's `NSPersistentHistoryChangeRequest`,
/// run with a context's `execute(_:)` against the stores that keep history (stores without the
/// history tables contribute nothing). It fetches the history after a point, or deletes the
/// history before one.
public final class PersistentHistoryChangeRequest: PersistentStoreRequest {
    /// A point in the history: its beginning, a token, or a date.
    public enum Start: Sendable, Hashable {
        case beginning
        case afterToken(PersistentHistoryToken)
        case afterDate(Date)
    }

    /// Whether the request reads history or removes it.
    public enum Operation: Sendable, Hashable {
        /// The transactions after `start`.
        case fetch
        /// Removes the transactions before `start` (up to and including a token's
        /// transaction; saved before a date), with their changes.
        case delete
    }

    /// For a fetch: where the history starts. For a delete: where the history kept starts.
    public let start: Start
    public let operation: Operation
    /// For a fetch: the transactions or changes to return, as Core Data's `fetchRequest` (set
    /// it on a request made with `fetchHistory(after:)` to narrow the history after a token, or
    /// make the request with `fetchHistory(withFetch:)`). A request made from
    /// ``PersistentHistoryTransaction/fetchRequest`` gives the transactions its predicate
    /// matches, each with all its changes; one made from ``PersistentHistoryChange/fetchRequest``
    /// gives the transactions that have a matching change, each with only those changes. The
    /// predicate is evaluated on the history read (keys as those fetch requests list them); as
    /// in Core Data, the fetch limit is not used. Executing the request throws
    /// `invalidFetchRequest` for a fetch request on another entity, or a predicate with a
    /// variable left unbound.
    public var fetchRequest: (any PersistentHistoryFetchRequest)?

    /// The name of the history's transaction entity (`Z_PRIMARYKEY` names it `TRANSACTION`).
    static let transactionEntityName = "TRANSACTION"
    /// The name of the history's change entity (`Z_PRIMARYKEY` names it `CHANGE`).
    static let changeEntityName = "CHANGE"

    init(start: Start, operation: Operation = .fetch, fetchRequest: (any PersistentHistoryFetchRequest)? = nil) {
        self.start = start
        self.operation = operation
        self.fetchRequest = fetchRequest
    }

    // MARK: Fetching

    /// The transactions after `token` (all of them for `nil`): Core Data's `fetchHistory(after:)`.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(start: token.map(Start.afterToken) ?? .beginning)
    }

    /// The transactions saved after `date`.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(start: .afterDate(date))
    }

    /// The transactions after `transaction`.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        fetchHistory(after: transaction?.token)
    }

    /// The whole history, narrowed by `fetchRequest` (Core Data's `fetchHistory(withFetch:)`;
    /// see ``fetchRequest`` for what it selects).
    public static func fetchHistory(withFetch fetchRequest: some PersistentHistoryFetchRequest) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(start: .beginning, fetchRequest: fetchRequest)
    }

    // MARK: Deleting

    /// Removes the transactions up to and including `token`'s (all of them for `nil`), with
    /// their changes: Core Data's `deleteHistory(before:)`. Newer transactions stay.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(start: token.map(Start.afterToken) ?? .beginning, operation: .delete)
    }

    /// Removes the transactions saved before `date`.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(start: .afterDate(date), operation: .delete)
    }

    /// Removes the transactions up to and including `transaction`.
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        deleteHistory(before: transaction?.token)
    }

    // MARK: Filtering

    /// `transactions` narrowed by the request's `fetchRequest`; throws `invalidFetchRequest`
    /// for a fetch request on another entity, or a predicate with an unbound variable.
    func filtered(_ transactions: [PersistentHistoryTransaction]) throws -> [PersistentHistoryTransaction] {
        guard let fetchRequest else { return transactions }
        let predicate = fetchRequest.predicate
        do {
            switch fetchRequest.entityName {
            case Self.transactionEntityName:
                guard let predicate else { return transactions }
                return try transactions.filter { try predicate.evaluateChecked(with: $0.keyValues) }
            case Self.changeEntityName:
                return try transactions.compactMap { transaction in
                    let kept = try transaction.changes.filter { change in
                        try predicate?.evaluateChecked(with: change.keyValues(in: transaction)) ?? true
                    }
                    return kept.isEmpty ? nil : transaction.keeping(kept)
                }
            default:
                throw ManagedObjectError(
                    .invalidFetchRequest,
                    "a persistent history request's fetch request is on \(fetchRequest.entityName), not on history; make it from PersistentHistoryTransaction.fetchRequest or PersistentHistoryChange.fetchRequest",
                    entityName: fetchRequest.entityName)
            }
        } catch let error as ObjectPredicateError {
            throw ManagedObjectError(.invalidFetchRequest, "a persistent history request's fetch request: \(error)", underlying: error)
        }
    }
}
