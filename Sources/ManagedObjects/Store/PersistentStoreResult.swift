import Foundation

/// What `execute(_:)` returns: Core Data's `NSPersistentStoreResult`; the batch results
/// subclass it.
public class PersistentStoreResult {
    init() {}
}
