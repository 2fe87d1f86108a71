import Foundation

/// A request for persistent history: Core Data's `NSPersistentHistoryChangeRequest`,
/// run with a context's `execute(_:)` against the stores that keep history (stores without the
/// history tables contribute nothing).
public final class PersistentHistoryChangeRequest: PersistentStoreRequest {
    /// Where the history starts: after a token, after a date, or from the beginning.
    public enum Start: Sendable, Hashable {
        case beginning
        case afterToken(PersistentHistoryToken)
        case afterDate(Date)
    }

    public let start: Start

    init(start: Start) {
        self.start = start
    }

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
}
