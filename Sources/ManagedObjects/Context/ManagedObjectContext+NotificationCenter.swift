import Foundation

// Core Data posts its context notifications through `NotificationCenter.default`: `object` is
// the context, `userInfo` holds sets of objects under `insertedObjectsKey`, `updatedObjectsKey`,
// `deletedObjectsKey` (`refreshedObjectsKey`, `invalidatedObjectsKey` and
// `invalidatedAllObjectsKey` for a change notification). Contexts post them here too, always,
// as Core Data does: whether anyone observes a name cannot be asked of `NotificationCenter`.

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
    private static let notificationCenterPosting = LockedValue(true)

    /// Whether contexts post their notifications through `NotificationCenter.default`, as Core
    /// Data does: on unless a program switches it off. A program that observes none of them
    /// (only `addObserver(for:)`, or nothing) may switch it off to spare each save and
    /// `processPendingChanges()` the sets of objects they carry.
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
        /// `reset()`'s: every object the context held, named by ID under
        /// `invalidatedAllObjectsKey`.
        var invalidatedAll: [ManagedObjectID]?
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
        if let invalidatedAll = objects.invalidatedAll {
            userInfo[Self.invalidatedAllObjectsKey] = invalidatedAll
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
