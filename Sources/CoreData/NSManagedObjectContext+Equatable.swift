import ManagedObjects

/// Core Data's contexts are `NSObject`s, which Swift compares with `==` (QueryKit's query sets
/// compare their contexts): by identity, as `NSObject.isEqual(_:)` does.
extension ManagedObjectContext: Equatable {
    public static func == (lhs: ManagedObjectContext, rhs: ManagedObjectContext) -> Bool { lhs === rhs }
}
