import Foundation

/// What a generated snapshot (`Tweet.Snapshot`) is made from: an object's current values
/// (`tweet.snapshot()`) or a stored row (`Tweet.fetchSnapshots(…)`, no object made), read by
/// property index in the storage types, related objects as typed IDs. Lives only while the
/// snapshot's initializer runs, on the context's queue (a row read from an SQL statement only
/// while the statement is on that row).
@_spi(Generated) public struct SnapshotValues {
    private enum Source {
        case object(ManagedObject)
        /// Boxed: every case then holds one reference, and a copy of the values (one per read
        /// of a statement's row) is a retain, not an outlined copy of a stored object.
        indirect case row(StoredObject, ManagedObjectContext)
        /// An SQL store's statement on the row (``SQLSnapshotRow``, which knows the row's layout).
        case statement(SQLSnapshotRow)
    }

    private let source: Source

    init(object: ManagedObject) {
        source = .object(object)
    }

    init(row: StoredObject, in context: ManagedObjectContext) {
        source = .row(row, context)
    }

    /// The values of the row `row`'s statement is on.
    init(row: SQLSnapshotRow) {
        source = .statement(row)
    }

    /// The object's ID. Not stored: a statement's row keeps it, and a value of one reference
    /// is what each row's values cost to make, copy and drop.
    @usableFromInline var id: ManagedObjectID {
        switch source {
        case .object(let object): object.objectID
        case .row(let row, _): row.objectID
        case .statement(let row): row.objectID
        }
    }

    /// The object's ID, typed with the class the snapshot is of. Inlinable, as the typed-ID
    /// reads below: an `ObjectID<Tweet>` made in the runtime's generic code would look up its
    /// metadata on each call.
    @inlinable public func objectID<Object>() -> ObjectID<Object> { ObjectID(unchecked: id) }

    /// The name of the object's entity (a sub-entity's for an object of one), which a snapshot
    /// over several entities (`AnySnapshot`) picks its case by.
    public var entityName: String { id.entity.name }

    private func storedValue(at index: Int) -> StoredValue? {
        switch source {
        case .object: nil
        case .row(let row, _): row.values[index]
        case .statement(let row): row.storedValue(at: index)
        }
    }

    private func storedAttribute(at index: Int) -> Any? {
        if case .object(let object) = source { return object.attributeStorageValue(at: index) }
        guard case .attribute(let value)? = storedValue(at: index) else { return nil }
        return value
    }

    public func attribute<Value>(at index: Int) -> Value? {
        if case .statement(let row) = source, let value = row.directAttribute(at: index, as: Value.self) {
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

    @inlinable public func toOne<Destination>(at index: Int) -> ObjectID<Destination>? {
        toOneObjectID(at: index).map(ObjectID.init(unchecked:))
    }

    @usableFromInline func toOneObjectID(at index: Int) -> ManagedObjectID? {
        switch source {
        case .object(let object): return object.resolvedToOne(at: index)?.objectID
        case .statement(let row): if let id = row.toOneObjectID(at: index) { return id }
        case .row: break
        }
        guard case .toOne(let related?)? = storedValue(at: index) else { return nil }
        return related
    }

    /// The members of a to-many: in relationship order when it is ordered, else in an order of
    /// their IDs, so equal relationships give equal snapshots wherever they were read.
    @inlinable public func toMany<Destination>(at index: Int) -> [ObjectID<Destination>] {
        toManyObjectIDs(at: index).map(ObjectID.init(unchecked:))
    }

    @usableFromInline func toManyObjectIDs(at index: Int) -> [ManagedObjectID] {
        let ids: [ManagedObjectID]
        switch source {
        case .object(let object):
            ids = object.resolvedToMany(at: index).map(\.objectID)
        case .row(let row, let context):
            ids = storedToMany(row.values[index], at: index) { try context.sourceRelatedObjectIDs(of: id, relationship: $0) }
        case .statement(let row):
            ids = storedToMany(row.storedValue(at: index), at: index) {
                row.relatedObjectIDs(of: id, relationship: $0)
            }
        }
        return id.entity[index].relationshipIsOrdered
            ? ids : ids.sorted { ($0.entity.name, $0.key.number) < ($1.entity.name, $1.key.number) }
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
    /// Hands the values of each saved object `request` fetches to `body`, in the request's order,
    /// as the store reads them: an SQL store hands over the statement's row (``SQLSnapshotRow``);
    /// no managed object is made and nothing is kept in the row cache. Unsaved changes of
    /// `context` are not seen, as with dictionary results; a parent context's are. When the
    /// store cannot evaluate the predicate or sorts, the objects are fetched and read instead.
    static func forEachSnapshotValues(
        _ request: FetchRequest<Self>, in context: ManagedObjectContext, _ body: (SnapshotValues) throws -> Void
    ) throws {
        request.includesPendingChanges = false
        let plan = try FetchPlan(request, in: context, includingPendingChanges: false)
        if plan.evaluatesInContext {
            for object in try context.fetch(request) { try body(SnapshotValues(object: object)) }
            return
        }
        if try plan.readStoreRows(body) { return }
        guard case .snapshots(let rows) = try plan.storeAnswer(.snapshots) else { return }
        for row in rows { try body(SnapshotValues(row: row, in: context)) }
    }
}
