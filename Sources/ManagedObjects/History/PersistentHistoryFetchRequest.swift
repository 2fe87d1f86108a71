/// A fetch request a ``PersistentHistoryChangeRequest`` narrows its history by (its
/// `fetchRequest`): one made from ``PersistentHistoryTransaction/fetchRequest`` or
/// ``PersistentHistoryChange/fetchRequest``, whatever its result type, as Core Data's
/// `NSFetchRequest<NSFetchRequestResult>` is.
public protocol PersistentHistoryFetchRequest: AnyObject {
    var entityName: String { get }
    var predicate: ObjectPredicate? { get }
}

extension FetchRequest: PersistentHistoryFetchRequest {}
