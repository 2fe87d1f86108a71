import Foundation
import ManagedObjects

// Core Data's context notification names. Contexts post these through
// `NotificationCenter.default` once a program names one of them (every observer does, to
// observe it): until then no save pays for the sets of objects they carry
// (`ManagedObjectContext.postsToNotificationCenter`).
extension Notification.Name {
    public static var NSManagedObjectContextObjectsDidChange: Notification.Name {
        postedName(.objectsDidChange)
    }

    public static var NSManagedObjectContextWillSave: Notification.Name {
        postedName(.willSave)
    }

    public static var NSManagedObjectContextDidSave: Notification.Name {
        postedName(.didSave)
    }

    private static func postedName(_ name: ContextNotification.Name) -> Notification.Name {
        if !ManagedObjectContext.postsToNotificationCenter {
            ManagedObjectContext.postsToNotificationCenter = true
        }
        return name.notificationName
    }
}
