import Foundation

// Core Data posts its context notifications through `NotificationCenter.default`: `object` is
// the context, `userInfo` holds sets of objects under `insertedObjectsKey`, `updatedObjectsKey`,
// `deletedObjectsKey` (`refreshedObjectsKey` and `invalidatedObjectsKey` for a change
// notification). Contexts post them here too, once posting is switched on: building the sets
// costs every save a pass over its objects, so it is not done for programs that only use
// `addObserver(for:)` (the `CoreData` module switches it on when code names a notification).

extension ContextNotification.Name {
    /// Core Data's name of the notification (`Notification.Name.NSManagedObjectContextDidSave`, …).
    public var notificationName: Notification.Name {
        switch self {
        case .objectsDidChange: Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
        case .willSave: Notification.Name("NSManagedObjectContextWillSaveNotification")
        case .didSave: Notification.Name("NSManagedObjectContextDidSaveNotification")
        }
    }
}

extension ManagedObjectContext {
    private static let notificationCenterPosting = LockedValue(false)

    /// Whether contexts post their notifications through `NotificationCenter.default` as Core
    /// Data does. Off until switched on; never switched off by the runtime.
    public static var postsToNotificationCenter: Bool {
        get { notificationCenterPosting.withLock { $0 } }
        set { notificationCenterPosting.withLock { $0 = newValue } }
    }

    /// The key under which a posted `Notification` carries its `ContextNotification`, so that
    /// `mergeChanges(fromContextDidSave:)` merges it as the runtime's own notification.
    static let contextNotificationKey = "ManagedObjects.ContextNotification"

    /// The objects a notification names, as Core Data's `userInfo` holds them.
    struct AnnouncedObjects {
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
        var refreshed: [ManagedObject] = []
        var invalidated: [ManagedObject] = []
    }

    /// Posts `notification` through `NotificationCenter.default` with `objects` in its
    /// `userInfo`. A did-save notification has all three change keys, empty sets included; a
    /// change notification only the keys that name objects.
    func postToNotificationCenter(_ notification: ContextNotification, objects: AnnouncedObjects) {
        var userInfo: [AnyHashable: Any] = [Self.contextNotificationKey: notification]
        let lists: [(String, [ManagedObject])] = [
            (Self.insertedObjectsKey, objects.inserted), (Self.updatedObjectsKey, objects.updated),
            (Self.deletedObjectsKey, objects.deleted), (Self.refreshedObjectsKey, objects.refreshed),
            (Self.invalidatedObjectsKey, objects.invalidated),
        ]
        let alwaysPresent: Set<String> =
            notification.name == .didSave ? [Self.insertedObjectsKey, Self.updatedObjectsKey, Self.deletedObjectsKey] : []
        for (key, list) in lists where !list.isEmpty || alwaysPresent.contains(key) {
            userInfo[key] = Set(list)
        }
        NotificationCenter.default.post(
            name: notification.name.notificationName, object: self,
            userInfo: notification.name == .willSave ? nil : userInfo)
    }

    /// Core Data's `mergeChanges(fromContextDidSave:)` for a did-save notification from
    /// `NotificationCenter`. A notification a context posted merges as its `ContextNotification`;
    /// another one (made by hand, or a history transaction's `objectIDNotification()`) merges
    /// the objects or object IDs its `userInfo` names, as changes made outside this
    /// coordinator's contexts: the coordinator's cached rows of them are dropped first.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        if let posted = notification.userInfo?[Self.contextNotificationKey] as? ContextNotification {
            mergeChanges(fromContextDidSave: posted)
            return
        }
        Self.mergeChanges(fromRemoteContextSave: notification.userInfo ?? [:], into: [self])
    }
}
