import ManagedObjects

/// Core Data's models are `NSObject`s, which Swift compares with `==` (SugarRecord compares the
/// models of two configurations). A model here is compared as `NSObject.isEqual(_:)` compares:
/// by identity, as entities are (NSEntityDescription+Name.swift).
extension ManagedObjectModel: Equatable {
    public static func == (lhs: ManagedObjectModel, rhs: ManagedObjectModel) -> Bool { lhs === rhs }
}
