import Foundation
import ManagedObjects

// Core Data's remote change notification: posted by a coordinator whose store was added with
// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` when another coordinator or process
// writes it (PersistentStoreCoordinator+RemoteChanges.swift).
extension Notification.Name {
    public static let NSPersistentStoreRemoteChange = PersistentStoreCoordinator.remoteChangeNotification
}

/// The store's URL in a remote change notification's `userInfo`.
public let NSPersistentStoreURLKey = PersistentStoreCoordinator.storeURLKey
/// The store's newest history token (an `NSPersistentHistoryToken`) in a remote change
/// notification's `userInfo`, when the store keeps history.
public let NSPersistentHistoryTokenKey = PersistentStoreCoordinator.historyTokenKey
