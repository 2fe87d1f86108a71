/// What a change did to its object: Core Data's `NSPersistentHistoryChangeType`, with the raw
/// values of its header (insert 0, update 1, delete 2), which are what `ACHANGE.ZCHANGETYPE`
/// holds (the real SampleModel2 stores' changes, all inserts, are 0).
public enum PersistentHistoryChangeType: Int, Sendable, Hashable {
    case insert = 0
    case update = 1
    case delete = 2
}
