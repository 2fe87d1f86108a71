import Foundation

// The `CoreData` module (Linux) gives `NSFetchRequest` Core Data's `predicate: NSPredicate?` and
// `sortDescriptors: [NSSortDescriptor]?`, Foundation's classes, which hide this module's members
// of the same names from its clients and from itself. These are its way to the runtime's own.
extension FetchRequest {
    /// ``predicate``, under a name the `CoreData` module's `predicate` does not hide.
    @_spi(CoreData)
    public var objectPredicate: ObjectPredicate? {
        get { predicate }
        set { predicate = newValue }
    }

    /// ``sortDescriptors``, under a name the `CoreData` module's `sortDescriptors` does not hide.
    @_spi(CoreData)
    public var objectSortDescriptors: [ObjectSortDescriptor] {
        get { sortDescriptors }
        set { sortDescriptors = newValue }
    }
}

extension NSPredicate {
    /// Foundation's own `predicateFormat` (`TRUEPREDICATE` for `NSPredicate(value: true)`),
    /// which the `CoreData` module's `predicateFormat` hides from it. Read through a protocol,
    /// since Foundation on Linux deprecates it (its text is not Apple's format language).
    @_spi(CoreData)
    public var foundationPredicateFormat: String { (self as any FoundationPredicateFormat).predicateFormat }
}

protocol FoundationPredicateFormat {
    var predicateFormat: String { get }
}

extension NSPredicate: FoundationPredicateFormat {}
