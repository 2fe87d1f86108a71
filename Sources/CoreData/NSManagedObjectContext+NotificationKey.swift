import Foundation
import ManagedObjects

// The same notifications under the names Core Data's Swift overlay gives them
// (`NSManagedObjectContext.didSaveObjectsNotification`, …), and their `userInfo` keys.
extension ManagedObjectContext {
    public static var didChangeObjectsNotification: Notification.Name { .NSManagedObjectContextObjectsDidChange }
    public static var willSaveObjectsNotification: Notification.Name { .NSManagedObjectContextWillSave }
    public static var didSaveObjectsNotification: Notification.Name { .NSManagedObjectContextDidSave }

    /// The `userInfo` keys of the context notifications: `rawValue` is the key
    /// (`NSInsertedObjectsKey`, …).
    public enum NotificationKey: String, Sendable {
        case insertedObjects = "inserted"
        case updatedObjects = "updated"
        case deletedObjects = "deleted"
        case refreshedObjects = "refreshed"
        case invalidatedObjects = "invalidated"
        case invalidatedAllObjects = "invalidatedAll"
    }
}
