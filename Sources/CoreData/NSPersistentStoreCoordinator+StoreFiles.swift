import Foundation
import ManagedObjects

extension PersistentStoreCoordinator {
    /// Core Data's `destroyPersistentStore(at:ofType:options:)`
    /// (`PersistentStoreCoordinator.destroyPersistentStore(at:type:)`); `options` are accepted
    /// and not read.
    public func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, type: PersistentStoreType(rawValue: storeType))
    }

    /// Core Data's `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)`
    /// (`PersistentStoreCoordinator.replacePersistentStore(at:withPersistentStoreFrom:type:)`);
    /// the options are accepted and not read.
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL,
        sourceOptions: [AnyHashable: Any]? = nil, ofType storeType: String
    ) throws {
        try replacePersistentStore(at: destinationURL, withPersistentStoreFrom: sourceURL, type: PersistentStoreType(rawValue: storeType))
    }
}
