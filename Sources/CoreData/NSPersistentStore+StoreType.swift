import Foundation
import ManagedObjects

extension PersistentStore {
    /// Core Data's `NSPersistentStore.StoreType` (iOS 15, macOS 12): the runtime's store types,
    /// `.sqlite`, `.inMemory`, `.binary` and `.xml`, whose raw values are Core Data's type names
    /// (`NSSQLiteStoreType`, …). `NSPersistentStore` is the runtime's store protocol, and a
    /// protocol cannot nest a type: a type alias in its extension is named the same way.
    public typealias StoreType = PersistentStoreType
}

extension PersistentStoreCoordinator {
    /// Core Data's `addPersistentStore(type:configuration:at:options:)`: as
    /// `addPersistentStore(ofType:configurationName:at:options:)`, options read as there.
    @discardableResult
    public func addPersistentStore(
        type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL, options: [AnyHashable: Any]? = nil
    ) throws -> any PersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    /// Core Data's `destroyPersistentStore(at:type:options:)`; `options` are accepted and not read.
    public func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, type: type)
    }

    /// Core Data's `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`;
    /// the options are accepted and not read.
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil, withPersistentStoreFrom sourceURL: URL,
        sourceOptions: [AnyHashable: Any]? = nil, type: NSPersistentStore.StoreType
    ) throws {
        try replacePersistentStore(at: destinationURL, withPersistentStoreFrom: sourceURL, type: type)
    }

    /// Core Data's `metadataForPersistentStore(type:at:options:)`; `options` are accepted and not read.
    public static func metadataForPersistentStore(
        type: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: type, at: url)
    }

    /// Core Data's `setMetadata(_:type:at:options:)`: `nil` keeps only the store's own keys;
    /// `options` are accepted and not read.
    public static func setMetadata(
        _ metadata: [String: Any]?, type: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws {
        try setMetadata(metadata ?? [:], forPersistentStoreOfType: type, at: url)
    }
}
