/// What a change did to its object: Core Data's `NSPersistentHistoryChangeType`, with its raw
/// values, which are what `ACHANGE.ZCHANGETYPE` holds (the real SampleModel2 stores' inserts are 0).
public enum PersistentHistoryChangeType: Int, Sendable, Hashable {
    case insert = 0
    case update = 1
    case delete = 2
}
