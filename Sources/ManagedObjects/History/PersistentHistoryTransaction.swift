import Foundation

/// One save's (or batch request's) record in persistent history: Core Data's
/// `NSPersistentHistoryTransaction`, read from an `ATRANSACTION` row and its `ACHANGE` rows.
public struct PersistentHistoryTransaction: Sendable, Hashable {
    /// The transaction's number in the store (`ATRANSACTION.Z_PK`).
    public let transactionNumber: Int64
    /// When it was saved (`ATRANSACTION.ZTIMESTAMP`, seconds since the reference date).
    public let timestamp: Date
    /// The saving context's `transactionAuthor`.
    public let author: String?
    /// The saving context's `name`.
    public let contextName: String?
    /// The saving process's name (Core Data's real stores hold the process name, `xctest`).
    public let processID: String?
    /// The saving app's bundle identifier.
    public let bundleID: String?
    /// The store's identifier (`NSStoreUUID`).
    public let storeID: String
    /// The changes, in the order they were recorded.
    public let changes: [PersistentHistoryChange]

    /// The token that stands for the history up to and including this transaction.
    public var token: PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: storeID, transactionNumber: transactionNumber)
    }
}
