import Foundation

/// A request a context hands straight to its store: Core Data's `NSPersistentStoreRequest`.
/// The batch requests (``BatchInsertRequest``, ``BatchUpdateRequest``, ``BatchDeleteRequest``)
/// run with `context.execute(_:)`, in the store, bypassing the context: its objects learn of the
/// changes only when they are merged (``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)-([AnyHashable:Any],_)``).
public class PersistentStoreRequest {
    init() {}
}
