import Foundation

/// What a generated snapshot (`Tweet.Snapshot`) is made from: an object's current values
/// (`tweet.snapshot()`) or a stored row (`Tweet.fetchSnapshots(…)`, no object made), read by
/// property index in the storage types, related objects as typed IDs. Lives only while the
/// snapshot's initializer runs, on the context's queue (a row read from an SQL statement only
/// while the statement is on that row).
@_spi(Generated) public struct SnapshotValues {
    private enum Source {
        case object(ManagedObject)
        case row(StoredObject, ManagedObjectContext)
        /// An SQL store's statement on the row (``SQLSnapshotRow``), of this layout.
        case statement(SQLSnapshotRow, SQLRowLayout)
    }

    private let source: Source
    private let id: ManagedObjectID

    init(object: ManagedObject) {
        source = .object(object)
        id = object.objectID
    }

    init(row: StoredObject, in context: ManagedObjectContext) {
        source = .row(row, context)
        id = row.objectID
    }

    init(row: SQLSnapshotRow, layout: SQLRowLayout, objectID: ManagedObjectID) {
        source = .statement(row, layout)
        id = objectID
    }

    /// The object's ID, typed with the class the snapshot is of.
    public func objectID<Object>() -> ObjectID<Object> { ObjectID(unchecked: id) }

    /// The name of the object's entity (a sub-entity's for an object of one), which a snapshot
    /// over several entities (`AnySnapshot`) picks its case by.
    public var entityName: String { id.entity.name }

    private func storedValue(at index: Int) -> StoredValue? {
        switch source {
        case .object: nil
        case .row(let row, _): row.values[index]
        case .statement(let row, let layout): row.storedValue(at: index, of: layout, objectID: id)
        }
    }

    private func storedAttribute(at index: Int) -> Any? {
        if case .object(let object) = source { return object.attributeStorageValue(at: index) }
        guard case .attribute(let value)? = storedValue(at: index) else { return nil }
        return value
    }

    public func attribute<Value>(at index: Int) -> Value? {
        if case .statement(let row, let layout) = source, case .attribute(let position, let type) = layout.readProperties[index],
           let value = row.directAttribute(at: position, type: type, as: Value.self) {
            return value
        }
        return storedAttribute(at: index).flatMap(ManagedObject.cast)
    }

    public func attribute<Value>(at index: Int, default value: Value) -> Value {
        attribute(at: index) ?? value
    }

    public func rawValueAttribute<Value: RawRepresentable>(at index: Int) -> Value? {
        RawValueStorage.value(storedAttribute(at: index), as: Value.self, what: "\(id.entity.name).\(id.entity[index].name)")
    }

    public func rawValueAttribute<Value: RawRepresentable>(at index: Int, ifUnknown value: Value) -> Value? {
        RawValueStorage.value(storedAttribute(at: index), as: Value.self, unknown: value, what: "\(id.entity.name).\(id.entity[index].name)")
    }

    public func rawValueAttribute<Value: RawRepresentable>(at index: Int, default value: Value) -> Value {
        rawValueAttribute(at: index, ifUnknown: value) ?? value
    }

    public func toOne<Destination>(at index: Int) -> ObjectID<Destination>? {
        if case .object(let object) = source {
            return object.resolvedToOne(at: index).map { ObjectID(unchecked: $0.objectID) }
        }
        guard case .toOne(let related?)? = storedValue(at: index) else { return nil }
        return ObjectID(unchecked: related)
    }

    /// The members of a to-many: in relationship order when it is ordered, else in an order of
    /// their IDs, so equal relationships give equal snapshots wherever they were read.
    public func toMany<Destination>(at index: Int) -> [ObjectID<Destination>] {
        let ids: [ManagedObjectID]
        switch source {
        case .object(let object):
            ids = object.resolvedToMany(at: index).map(\.objectID)
        case .row(let row, let context):
            ids = storedToMany(row.values[index], at: index) { try context.sourceRelatedObjectIDs(of: id, relationship: $0) }
        case .statement(let row, let layout):
            ids = storedToMany(row.storedValue(at: index, of: layout, objectID: id), at: index) {
                row.relatedObjectIDs(of: id, relationship: $0)
            }
        }
        let ordered = id.entity[index].relationshipIsOrdered
            ? ids : ids.sorted { ($0.entity.name, $0.key.number) < ($1.entity.name, $1.key.number) }
        return ordered.map { ObjectID(unchecked: $0) }
    }

    /// A stored to-many's members: loaded, or read by `related` when left unloaded.
    private func storedToMany(
        _ value: StoredValue?, at index: Int, related: (RelationshipDescription) throws -> [ManagedObjectID]
    ) -> [ManagedObjectID] {
        switch value {
        case .toMany(let ids)?: return ids
        case .toManyFault?:
            guard case .relationship(let relationship) = id.entity[index].kind else { return [] }
            return (try? related(relationship)) ?? []
        default: return []
        }
    }
}

extension FetchableManagedObject {
    /// The saved rows of this class's entity (and its sub-entities, `includingSubentities`)
    /// matching `predicate`, sorted, each made into a snapshot by `snapshot` as the store reads
    /// it: an SQL store hands over the statement's row (``SQLSnapshotRow``); no managed object
    /// is made and nothing is kept in the row cache. Unsaved changes of `context` are not seen,
    /// as with dictionary results; a parent context's are. When the store cannot evaluate the
    /// predicate or sorts, the objects are fetched and read instead.
    static func readSnapshots<Snapshot>(
        _ predicate: ObjectPredicate?, sortedBy sortDescriptors: [ObjectSortDescriptor], includingSubentities: Bool = true,
        in context: ManagedObjectContext, _ snapshot: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot] {
        let request = FetchRequest<Self>(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
        request.includesSubentities = includingSubentities
        return try readSnapshots(request, in: context, snapshot)
    }

    /// ``readSnapshots(_:sortedBy:includingSubentities:in:_:)`` with a typed predicate and sorts
    /// (`#Predicate`); one that does not translate throws, naming it, as a typed fetch does.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    static func readSnapshots<Snapshot>(
        _ predicate: Predicate<Self>, sortedBy sortDescriptors: [SortDescriptor<Self>], includingSubentities: Bool = true,
        in context: ManagedObjectContext, _ snapshot: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot] {
        // The entity `self` names (a subclass's, called on one), as the format-string form.
        let request = FetchRequest<Self>(entityName: entityName)
        request.filter(predicate)
        request.sort(by: sortDescriptors)
        request.includesSubentities = includingSubentities
        return try readSnapshots(request, in: context, snapshot)
    }

    private static func readSnapshots<Snapshot>(
        _ request: FetchRequest<Self>, in context: ManagedObjectContext, _ snapshot: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot] {
        request.includesPendingChanges = false
        let plan = try FetchPlan(request, in: context, includingPendingChanges: false)
        if plan.evaluatesInContext { return try context.fetch(request).map { try snapshot(SnapshotValues(object: $0)) } }
        if let snapshots = try plan.readStoreRows(snapshot) { return snapshots }
        guard case .snapshots(let rows) = try plan.storeAnswer(.snapshots) else { return [] }
        return try rows.map { try snapshot(SnapshotValues(row: $0, in: context)) }
    }
}
