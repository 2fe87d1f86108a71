import Foundation

/// Another coordinator or process wrote a store this coordinator watches: what Core Data's
/// `.NSPersistentStoreRemoteChange` notification carries, as a value for code without
/// NotificationCenter (``PersistentStoreCoordinator/remoteChanges``).
public struct PersistentStoreRemoteChange: Sendable, Equatable {
    /// The store's file.
    public let storeURL: URL?
    /// The store's identifier (`NSStoreUUID`).
    public let storeIdentifier: String
    /// The store's newest history transaction when the change was seen; `nil` when the store
    /// keeps no history (`persistentHistoryTracking` off).
    public let historyToken: PersistentHistoryToken?

    public init(storeURL: URL?, storeIdentifier: String, historyToken: PersistentHistoryToken?) {
        self.storeURL = storeURL
        self.storeIdentifier = storeIdentifier
        self.historyToken = historyToken
    }

    /// The notification's `userInfo`, under Core Data's keys.
    var userInfo: [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [PersistentStoreCoordinator.storeUUIDKey: storeIdentifier]
        if let storeURL { info[PersistentStoreCoordinator.storeURLKey] = storeURL }
        if let historyToken { info[PersistentStoreCoordinator.historyTokenKey] = historyToken }
        return info
    }
}
