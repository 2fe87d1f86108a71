import Foundation
import ManagedObjects

// Core Data's key-based sort descriptors on Foundation's own `NSSortDescriptor`, whose key
// initializers and `key` are unavailable on Linux: these are chosen over them.
extension NSSortDescriptor {
    /// `NSSortDescriptor(key:ascending:)`: the runtime compares by the key path.
    public convenience init(key: String?, ascending: Bool) {
        self.init(keyPath: FoundationBridge.placeholderKeyPath, ascending: ascending)
        FoundationBridge.sortDescriptors.set(ObjectSortDescriptor(key: key ?? "", ascending: ascending), for: self)
    }

    /// The key path sorted by; `nil` for a descriptor made from a Swift key path.
    public var key: String? {
        FoundationBridge.objectSortDescriptor(self)?.key ?? FoundationBridge.comparatorKeys.value(for: self)
    }
}
