import Foundation
import ManagedObjects

// Custom stores under Core Data's names: a subclass of `NSIncrementalStore` registered with
// `NSPersistentStoreCoordinator.registerStoreClass(_:forStoreType:)` (see `IncrementalStore`).
public typealias NSIncrementalStore = IncrementalStore
public typealias NSIncrementalStoreNode = IncrementalStoreNode
public typealias NSSaveChangesRequest = SaveChangesRequest
public typealias NSPersistentStoreRequestType = PersistentStoreRequestType

extension FetchRequestResultType {
    /// Core Data's `NSFetchRequestResultType` case names, which store code compares with.
    public static var managedObjectResultType: Self { .managedObject }
    public static var managedObjectIDResultType: Self { .managedObjectID }
    public static var countResultType: Self { .count }
    public static var dictionaryResultType: Self { .dictionary }
}
