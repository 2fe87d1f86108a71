import Foundation
@_spi(CoreData) import ManagedObjects

// Core Data's `NSFetchRequest` takes Foundation's predicate and sort descriptor classes. These
// hide the runtime's `ObjectPredicate` and `ObjectSortDescriptor` members of the same names
// from code that imports CoreData.
extension FetchRequest {
    /// Objects the predicate rejects are left out; `nil` keeps every object. A predicate made
    /// with `NSPredicate(format:)`, `NSCompoundPredicate` or `NSPredicate(value:)` is run by the
    /// store; one made with `NSPredicate(block:)` is evaluated in memory.
    public var predicate: NSPredicate? {
        get { objectPredicate.map(FoundationBridge.nsPredicate) }
        set { objectPredicate = newValue.map(FoundationBridge.objectPredicate) }
    }

    /// The order of the results, by `NSSortDescriptor(key:ascending:)` (or a key path of a
    /// generated class). Setting a descriptor the runtime cannot read a key from, or one that
    /// compares with a block, stops the program, as Core Data raises for a key that is not a
    /// property and its SQLite store for a block.
    public var sortDescriptors: [NSSortDescriptor]? {
        get { objectSortDescriptors.isEmpty ? nil : objectSortDescriptors.map(FoundationBridge.nsSortDescriptor) }
        set {
            objectSortDescriptors = (newValue ?? []).map { descriptor in
                guard let known = FoundationBridge.objectSortDescriptor(descriptor) else {
                    if let key = FoundationBridge.comparatorKeys.value(for: descriptor) {
                        preconditionFailure("NSFetchRequest(\(entityName)): the sort descriptor on '\(key)' compares with a block, which a fetch cannot (Core Data's SQLite store raises too); use NSSortDescriptor(key:ascending:selector:)")
                    }
                    preconditionFailure("NSFetchRequest(\(entityName)): \(descriptor) has no key; use NSSortDescriptor(key:ascending:)")
                }
                return known
            }
        }
    }
}
