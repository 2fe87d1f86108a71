import Foundation

extension PersistentStoreCoordinator {
    /// The store classes registered by type name; a type here opens before the types
    /// registered with an opener.
    private static let storeClasses = LockedValue<[PersistentStoreType: IncrementalStore.Type]>([:])

    /// Makes `type` open stores of `storeClass`, a subclass of ``IncrementalStore``: Core Data's
    /// `registerStoreClass(_:type:)`. `nil` removes the registration. A class that is not an
    /// `IncrementalStore` stops the program, naming it (the runtime makes no other store
    /// from a class; register those with ``registerStoreType(_:opener:)``).
    public static func registerStoreClass(_ storeClass: AnyClass?, type: PersistentStoreType) {
        guard let storeClass else {
            storeClasses.withLock { $0[type] = nil }
            return
        }
        guard let incremental = storeClass as? IncrementalStore.Type else {
            preconditionFailure("registerStoreClass: \(storeClass) is not a subclass of NSIncrementalStore")
        }
        storeClasses.withLock { $0[type] = incremental }
    }

    /// ``registerStoreClass(_:type:)`` with the type as Core Data's string (`forStoreType:`).
    public static func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String) {
        registerStoreClass(storeClass, type: PersistentStoreType(rawValue: storeType))
    }

    /// The store types registered with a class, and their classes: Core Data's
    /// `registeredStoreTypes` (which holds the built-in types too).
    public static var registeredStoreClasses: [String: AnyClass] {
        storeClasses.withLock { classes in
            Dictionary(uniqueKeysWithValues: classes.map { ($0.key.rawValue, $0.value as AnyClass) })
        }
    }

    /// Opens a store of the class registered for `type`, if there is one: made with Core
    /// Data's initializer, then ``IncrementalStore/loadMetadata()`` (whose error is thrown as
    /// it is). Throws 134080 when the store needs a URL and has none, or its metadata has no
    /// `NSStoreUUIDKey`.
    func openRegisteredStoreClass(
        type: PersistentStoreType, configuration: String?, at url: URL?, options: [AnyHashable: Any]?
    ) throws -> IncrementalStore? {
        guard let storeClass = Self.storeClasses.withLock({ $0[type] }) else { return nil }
        guard let url else {
            throw ManagedObjectError(.persistentStoreOpen, "a store of type \(type.rawValue) (\(storeClass)) needs a URL")
        }
        let store = storeClass.init(persistentStoreCoordinator: self, configurationName: configuration, at: url, options: options)
        store.type = type
        try store.loadMetadata()
        guard let identifier = store.metadata["NSStoreUUID"] as? String, !identifier.isEmpty else {
            throw ManagedObjectError(
                .persistentStoreOpen,
                "\(storeClass).loadMetadata() set no NSStoreUUIDKey in the store's metadata (the store's identifier): \(url.path)")
        }
        store.identifier = identifier
        if store.metadata["NSStoreType"] == nil { store.metadata["NSStoreType"] = type.rawValue }
        return store
    }
}
