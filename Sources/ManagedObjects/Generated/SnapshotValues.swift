/// What a generated snapshot (`Tweet.Snapshot`) is made from: an object's current values
/// (`tweet.snapshot()`) or a stored row (`Tweet.fetchSnapshots(…)`, no object made), read by
/// property index in the storage types, related objects as typed IDs. Lives only while the
/// snapshot's initializer runs, on the context's queue.
@_spi(Generated) public struct SnapshotValues {
    private enum Source {
        case object(ManagedObject)
        case row(StoredObject, ManagedObjectContext)
    }

    private let source: Source

    init(object: ManagedObject) { source = .object(object) }
    init(row: StoredObject, in context: ManagedObjectContext) { source = .row(row, context) }

    private var id: ManagedObjectID {
        switch source {
        case .object(let object): object.objectID
        case .row(let row, _): row.objectID
        }
    }

    /// The object's ID, typed with the class the snapshot is of.
    public func objectID<Object>() -> ObjectID<Object> { ObjectID(unchecked: id) }

    private func storedAttribute(at index: Int) -> Any? {
        switch source {
        case .object(let object): return object.attributeStorageValue(at: index)
        case .row(let row, _):
            guard case .attribute(let value) = row.values[index] else { return nil }
            return value
        }
    }

    public func attribute<Value>(at index: Int) -> Value? {
        storedAttribute(at: index).flatMap(ManagedObject.cast)
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
        switch source {
        case .object(let object):
            return object.resolvedToOne(at: index).map { ObjectID(unchecked: $0.objectID) }
        case .row(let row, _):
            guard case .toOne(let related?) = row.values[index] else { return nil }
            return ObjectID(unchecked: related)
        }
    }

    /// The members of a to-many: in relationship order when it is ordered, else in an order of
    /// their IDs, so equal relationships give equal snapshots wherever they were read.
    public func toMany<Destination>(at index: Int) -> [ObjectID<Destination>] {
        let ids: [ManagedObjectID]
        switch source {
        case .object(let object):
            ids = object.resolvedToMany(at: index).map(\.objectID)
        case .row(let row, let context):
            switch row.values[index] {
            case .toMany(let related): ids = related
            case .toManyFault:
                guard case .relationship(let relationship) = id.entity[index].kind else { return [] }
                ids = (try? context.sourceRelatedObjectIDs(of: row.objectID, relationship: relationship)) ?? []
            default: ids = []
            }
        }
        let ordered = id.entity[index].relationshipIsOrdered
            ? ids : ids.sorted { ($0.entity.name, $0.key.number) < ($1.entity.name, $1.key.number) }
        return ordered.map { ObjectID(unchecked: $0) }
    }
}

extension FetchableManagedObject {
    /// The values of `snapshot()`: the object's current ones, unsaved changes included.
    @_spi(Generated) public func snapshotValues() -> SnapshotValues { SnapshotValues(object: self) }

    /// The saved rows of this class's entity matching `predicate`, sorted, as the store reads
    /// them for a fetch (no managed object made, nothing kept in the row cache). Unsaved changes
    /// of `context` are not seen, as with dictionary results; a parent context's are. When the
    /// store cannot evaluate the predicate or sorts, the objects are fetched and read instead.
    @_spi(Generated) public static func fetchSnapshotValues(
        _ predicate: ObjectPredicate?, sortedBy sortDescriptors: [ObjectSortDescriptor], in context: ManagedObjectContext
    ) throws -> [SnapshotValues] {
        let request = FetchRequest<Self>(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
        request.includesPendingChanges = false
        let plan = try FetchPlan(request, in: context, includingPendingChanges: false)
        if plan.evaluatesInContext { return try context.fetch(request).map(SnapshotValues.init(object:)) }
        guard case .snapshots(let rows) = try plan.storeAnswer(.snapshots) else { return [] }
        return rows.map { SnapshotValues(row: $0, in: context) }
    }
}
