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

    /// ``changes``, under a name the `CoreData` module's `changes` (optional, as Core Data's)
    /// does not hide.
    @_spi(CoreData)
    public var recordedChanges: [PersistentHistoryChange] { changes }

    /// The token that stands for the history up to and including this transaction.
    public var token: PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: storeID, transactionNumber: transactionNumber)
    }

    /// The same transaction holding only `changes` (a change fetch request's answer).
    func keeping(_ changes: [PersistentHistoryChange]) -> PersistentHistoryTransaction {
        PersistentHistoryTransaction(
            transactionNumber: transactionNumber, timestamp: timestamp, author: author, contextName: contextName,
            processID: processID, bundleID: bundleID, storeID: storeID, changes: changes)
    }

    /// The transaction as a predicate of a transaction fetch request reads it (Core Data's key
    /// names; a missing name is left out, so `author == nil` matches it).
    var keyValues: [String: Any] {
        var values: [String: Any] = ["timestamp": timestamp, "storeID": storeID, "transactionNumber": transactionNumber]
        values["author"] = author
        values["contextName"] = contextName
        values["processID"] = processID
        values["bundleID"] = bundleID
        return values
    }

    /// A fetch request on history transactions: Core Data's `NSPersistentHistoryTransaction.fetchRequest`.
    /// Give it a predicate on the transaction's keys (`author`, `contextName`, `processID`,
    /// `bundleID`, `timestamp`, `storeID`, `transactionNumber`) and pass it to
    /// ``PersistentHistoryChangeRequest/fetchHistory(withFetch:)``.
    public static var fetchRequest: FetchRequest<PersistentHistoryTransaction>? {
        FetchRequest(entityName: PersistentHistoryChangeRequest.transactionEntityName)
    }

    // MARK: Merging

    /// The transaction's changes as a did-save notification (Core Data's
    /// `objectIDNotification()`): named `NSManagedObjectContextDidSaveNotification`, with the
    /// changed objects' IDs under `inserted_objectIDs`, `updated_objectIDs` and
    /// `deleted_objectIDs` (sets of ``ManagedObjectID``), which
    /// `ManagedObjectContext.mergeChanges(fromContextDidSave:)` merges. An object changed
    /// several times in the transaction is named by its last change.
    public func objectIDNotification() -> Notification {
        let changes = objectIDChanges
        return Notification(
            name: ContextNotification.Name.didSave.notificationName, object: nil,
            userInfo: [
                ManagedObjectContext.insertedObjectIDsKey: Set(changes.inserted),
                ManagedObjectContext.updatedObjectIDsKey: Set(changes.updated),
                ManagedObjectContext.deletedObjectIDsKey: Set(changes.deleted),
            ])
    }

    /// The transaction's changes as a value, for code without `NotificationCenter`: merge it
    /// with `ManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`.
    public var objectIDChanges: ManagedObjectContext.RemoteChanges {
        var last: [ManagedObjectID: PersistentHistoryChangeType] = [:]
        var order: [ManagedObjectID] = []
        for change in changes {
            if last.updateValue(change.changeType, forKey: change.changedObjectID) == nil { order.append(change.changedObjectID) }
        }
        var result = ManagedObjectContext.RemoteChanges()
        for objectID in order {
            switch last[objectID] {
            case .insert?: result.inserted.append(objectID)
            case .update?: result.updated.append(objectID)
            case .delete?: result.deleted.append(objectID)
            case nil: break
            }
        }
        return result
    }
}
