@_spi(CoreData) import ManagedObjects

// Core Data's `NSPersistentHistoryTransaction.changes` is optional (`transaction.changes?.count`,
// `transaction.changes ?? []` in Core Data code); the runtime's is not. This hides the runtime's
// from code that imports CoreData.
extension PersistentHistoryTransaction {
    /// The changes, in the order they were recorded: never `nil` here (Core Data gives `nil`
    /// for a request whose result type leaves changes out, which this runtime does not have).
    public var changes: [PersistentHistoryChange]? { recordedChanges }
}
