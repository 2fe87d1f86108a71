import Foundation
import ManagedObjects

// Core Data's context notification names; contexts post them through
// `NotificationCenter.default` (`ManagedObjectContext.postsToNotificationCenter`).
extension Notification.Name {
    public static var NSManagedObjectContextObjectsDidChange: Notification.Name {
        ContextNotification.Name.objectsDidChange.notificationName
    }

    public static var NSManagedObjectContextWillSave: Notification.Name {
        ContextNotification.Name.willSave.notificationName
    }

    public static var NSManagedObjectContextDidSave: Notification.Name {
        ContextNotification.Name.didSave.notificationName
    }
}
