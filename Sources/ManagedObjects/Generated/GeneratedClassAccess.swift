import Foundation

/// Generated code's one door into the runtime for what a generated class does as a class
/// (`Dog._managedGen`): find-or-insert, the key-path table of typed queries, snapshot reads.
/// The instance side is ``GeneratedObjectAccess``; both are named `_managedGen`, the one name
/// the runtime reserves for them.
@_spi(Generated) public struct GeneratedClassAccess<Object: FetchableManagedObject> {
    @inlinable init() {}

    /// Find-or-insert by a single-attribute uniqueness constraint (generated `with<Name>(_:in:)`):
    /// the object of `Object`'s entity whose attribute `key` (at `propertyIndex`) is `value`,
    /// else a new object of that entity with that value.
    public func findOrInsert<Value>(
        _ key: String, _ value: Value, at propertyIndex: Int, in context: ManagedObjectContext
    ) throws -> Object {
        try Object.findOrInsert(key, value, at: propertyIndex, in: context)
    }

    /// The table generated `propertyNamesByKeyPath` builds (see `FetchableManagedObject.propertyNames`).
    public func propertyNames(
        _ own: [PartialKeyPath<Object>: String], subclasses: [AnyKeyPath: String]?...
    ) -> [AnyKeyPath: String] {
        Object.propertyNames(own, subclasses: subclasses)
    }

    /// The saved rows of `Object`'s entity matching `predicate`, sorted, each made into a
    /// snapshot by `snapshot` as the store reads it (see `FetchableManagedObject.readSnapshots`).
    public func readSnapshots<Snapshot>(
        _ predicate: ObjectPredicate?, sortedBy sortDescriptors: [ObjectSortDescriptor], includingSubentities: Bool = true,
        in context: ManagedObjectContext, _ snapshot: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot] {
        try Object.readSnapshots(predicate, sortedBy: sortDescriptors, includingSubentities: includingSubentities, in: context, snapshot)
    }

    /// ``readSnapshots(_:sortedBy:includingSubentities:in:_:)`` with a typed predicate and sorts.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public func readSnapshots<Snapshot>(
        _ predicate: Predicate<Object>, sortedBy sortDescriptors: [SortDescriptor<Object>], includingSubentities: Bool = true,
        in context: ManagedObjectContext, _ snapshot: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot] {
        try Object.readSnapshots(predicate, sortedBy: sortDescriptors, includingSubentities: includingSubentities, in: context, snapshot)
    }
}

extension FetchableManagedObject {
    /// The door generated code reaches the runtime through for the class (``GeneratedClassAccess``).
    @_spi(Generated) @inlinable public static var _managedGen: GeneratedClassAccess<Self> { GeneratedClassAccess() }
}
