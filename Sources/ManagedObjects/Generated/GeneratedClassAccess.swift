import Foundation

/// Generated code's one door into the runtime for what a generated class does as a class
/// (`Dog._managedGen`): find-or-insert, the key-path table of typed queries, snapshot reads.
/// The instance side is ``GeneratedObjectAccess``; both are named `_managedGen`, the one name
/// the runtime reserves for them.
@_spi(Generated) public struct GeneratedClassAccess<Object: FetchableManagedObject> {
    /// The class the door was asked of: a subclass's when called on one (`Car._managedGen` from
    /// a static method `Vehicle` declares), so that its entity is the one read.
    @usableFromInline let type: Object.Type

    @inlinable init(_ type: Object.Type) {
        self.type = type
    }

    /// Find-or-insert by a single-attribute uniqueness constraint (generated `with<Name>(_:in:)`):
    /// the object of `Object`'s entity whose attribute `key` (at `propertyIndex`) is `value`,
    /// else a new object of that entity with that value.
    public func findOrInsert<Value>(
        _ key: String, _ value: Value, at propertyIndex: Int, in context: ManagedObjectContext
    ) throws -> Object {
        try type.findOrInsert(key, value, at: propertyIndex, in: context)
    }

    /// The table generated `propertyNamesByKeyPath` builds (see `FetchableManagedObject.propertyNames`).
    public func propertyNames(
        _ own: [PartialKeyPath<Object>: String], subclasses: [AnyKeyPath: String]?...
    ) -> [AnyKeyPath: String] {
        type.propertyNames(own, subclasses: subclasses)
    }

    /// The saved rows of `Object`'s entity (and its sub-entities, `includingSubentities`)
    /// matching `predicate`, sorted, each made into a snapshot by `snapshot` as the store reads
    /// it, no object made (``forEachSnapshotValues(_:in:_:)``).
    @inlinable public func readSnapshots<Snapshot>(
        _ predicate: ObjectPredicate?, sortedBy sortDescriptors: [ObjectSortDescriptor], includingSubentities: Bool = true,
        in context: ManagedObjectContext, _ snapshot: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot] {
        let request = FetchRequest<Object>(entityName: type.entityName, predicate: predicate, sortDescriptors: sortDescriptors)
        request.includesSubentities = includingSubentities
        var snapshots: [Snapshot] = []
        try forEachSnapshotValues(request, in: context) { snapshots.append(try snapshot($0)) }
        return snapshots
    }

    /// ``readSnapshots(_:sortedBy:includingSubentities:in:_:)`` with a typed predicate and sorts
    /// (`#Predicate`); one that does not translate throws, naming it, as a typed fetch does.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @inlinable public func readSnapshots<Snapshot>(
        _ predicate: Predicate<Object>, sortedBy sortDescriptors: [SortDescriptor<Object>], includingSubentities: Bool = true,
        in context: ManagedObjectContext, _ snapshot: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot] {
        // The entity `type` names (a subclass's, called on one), as the format-string form.
        let request = FetchRequest<Object>(entityName: type.entityName)
        request.filter(predicate)
        request.sort(by: sortDescriptors)
        request.includesSubentities = includingSubentities
        var snapshots: [Snapshot] = []
        try forEachSnapshotValues(request, in: context) { snapshots.append(try snapshot($0)) }
        return snapshots
    }

    // The two above are inlinable so that they collect in the generated code's module,
    // specialized for its `Snapshot`: collected in the runtime's generic code, each snapshot was
    // copied and destroyed through its value witnesses. What they call is not generic over it.

    /// Hands the values of each saved object `request` fetches to `body`, in the request's order.
    public func forEachSnapshotValues(
        _ request: FetchRequest<Object>, in context: ManagedObjectContext, _ body: (SnapshotValues) throws -> Void
    ) throws {
        try type.forEachSnapshotValues(request, in: context, body)
    }
}

extension FetchableManagedObject {
    /// The door generated code reaches the runtime through for the class (``GeneratedClassAccess``).
    @_spi(Generated) @inlinable public static var _managedGen: GeneratedClassAccess<Self> { GeneratedClassAccess(self) }
}
