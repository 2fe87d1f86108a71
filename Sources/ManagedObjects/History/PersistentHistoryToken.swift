import Foundation

/// Where a consumer of persistent history has read up to: Core Data's `NSPersistentHistoryToken`.
/// It names the store and the number of the last transaction read (`ATRANSACTION.Z_PK`, which
/// grows with each transaction); an app persists it (it is `Codable`) and asks for the history
/// after it next time. Tokens of one store compare by transaction; tokens of different stores
/// compare by store identifier first, so that sorting is total (Core Data does not order those).
public struct PersistentHistoryToken: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The store's identifier (`NSStoreUUID`).
    public let storeIdentifier: String
    /// The transaction's number in the store (`ATRANSACTION.Z_PK`).
    public let transactionNumber: Int64

    public init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    public var description: String { "<PersistentHistoryToken: \(storeIdentifier) \(transactionNumber)>" }
}
