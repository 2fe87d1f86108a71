import Foundation

/// A store that keeps objects in memory, shared by all contexts of its coordinator.
/// Core Data's `NSInMemoryStoreType`.
///
/// Laid out like Core Data's SQLite store: one table per root entity (an entity and its
/// sub-entities share it and one sequence of numbers), a row per object at its number, so an
/// object is found by ID in O(1) and a table is read in the order objects were first saved.
/// Counts per entity and a key → object index per uniqueness constraint keep a count and a
/// save O(changes), not O(store).
public final class InMemoryStore: PersistentStore, @unchecked Sendable {
    // Unchecked: every mutable field is read and written only while holding `lock`.
    let lock = NSLock()
    var tables: [ObjectIdentifier: Table] = [:]
    var uniqueness = UniquenessIndex()

    public let identifier: String
    public var type: PersistentStoreType { .inMemory }
    public var url: URL? { nil }

    private let metadataState: StoreMetadataState

    public init(identifier: String = UUID().uuidString) {
        self.identifier = identifier
        metadataState = StoreMetadataState(saved: StoreMetadata.initial(type: .inMemory, identifier: identifier))
    }

    /// Kept in memory with the objects: a save has nowhere else to write it.
    public var metadata: [String: Any] {
        get { metadataState.current }
        set { metadataState.set(newValue, type: type, identifier: identifier) }
    }

    /// A copy of the tables as they are now: the arrays are copied on write, so pinning costs
    /// nothing until the next save changes a table.
    public func pinnedForReading() throws -> (any PersistentStore)? {
        lock.withLock {
            let view = InMemoryStore(identifier: identifier)
            view.tables = tables
            view.uniqueness = uniqueness
            return view
        }
    }

    /// The objects of one root entity and its sub-entities, by number.
    struct Table {
        /// `rows[n - 1]` is the object numbered `n`; `nil` when deleted or never saved.
        var rows: [StoredObject?] = []
        /// The last number given out.
        var lastNumber: Int64 = 0
        /// How many stored objects each entity (by identity) has.
        var counts: [ObjectIdentifier: Int] = [:]

        func row(_ number: Int64) -> StoredObject? {
            number >= 1 && number <= rows.count ? rows[Int(number - 1)] : nil
        }

        mutating func put(_ object: StoredObject, number: Int64) {
            let index = Int(number - 1)
            if index >= rows.count { rows.append(contentsOf: repeatElement(nil, count: index - rows.count + 1)) }
            if rows[index] == nil { counts[ObjectIdentifier(object.objectID.entity), default: 0] += 1 }
            rows[index] = object
        }

        mutating func remove(_ objectID: ManagedObjectID, number: Int64) {
            guard row(number) != nil else { return }
            rows[Int(number - 1)] = nil
            counts[ObjectIdentifier(objectID.entity), default: 0] -= 1
        }
    }

    // MARK: Reading

    public func execute(_ request: StoreRequest) throws -> StoreResult {
        try lock.withLock {
            let entities = Set(request.entities.map(ObjectIdentifier.init))
            let table = tables[ObjectIdentifier(request.entity.rootEntity)] ?? Table()
            if request.resultType == .count, request.predicate == nil {
                let total = entities.reduce(0) { $0 + (table.counts[$1] ?? 0) }
                return .count(request.window(0..<total).count)
            }
            let onlyEntity = entities.count == 1 ? ObjectIdentifier(request.entity) : nil
            var probe: SnapshotSubject?
            // Without sorts the window is the first rows that match: skip the offset without
            // keeping those rows, and stop at the limit.
            let unsorted = request.sortDescriptors.isEmpty && !request.resultType.isDictionaries
            var skip = unsorted ? max(0, request.fetchOffset) : 0
            let limit = unsorted && request.fetchLimit > 0 ? request.fetchLimit : Int.max
            // Every row of a table without gaps is wanted: the window is a range of rows.
            let total = table.counts.values.reduce(0, +)
            if unsorted, request.predicate == nil, total == table.rows.count,
               table.counts.allSatisfy({ $0.value == 0 || entities.contains($0.key) }) {
                let window = table.rows[min(skip, total)..<(limit == .max ? total : min(total, skip + limit))]
                var rest = request
                rest.fetchOffset = 0
                rest.fetchLimit = 0
                return try rest.finish(window.compactMap { $0 }, graph: graph)
            }
            var matching: [StoredObject] = []
            if request.predicate == nil, limit == .max {
                matching.reserveCapacity(entities.reduce(0) { $0 + (table.counts[$1] ?? 0) })
            }
            for case let row? in table.rows {
                let entity = ObjectIdentifier(row.objectID.entity)
                guard onlyEntity.map({ $0 == entity }) ?? entities.contains(entity) else { continue }
                if let predicate = request.predicate {
                    guard try predicate.evaluateChecked(with: SnapshotSubject.point(&probe, at: row, graph: graph))
                    else { continue }
                }
                if skip > 0 {
                    skip -= 1
                    continue
                }
                matching.append(row)
                if matching.count == limit { break }
            }
            var rest = request
            if unsorted {
                rest.fetchOffset = 0
                rest.fetchLimit = 0
            }
            return try rest.finish(matching, graph: graph)
        }
    }

    /// Everything but a block, which needs managed objects.
    public func canEvaluate(_ predicate: ObjectPredicate) -> Bool {
        !predicate.containsBlock
    }

    /// Related objects as the lock holder reads them.
    var graph: SnapshotSubject.Graph {
        SnapshotSubject.Graph(
            snapshot: { [unowned self] in storedObject($0) },
            relatedObjectIDs: { _, _ in [] })  // this store keeps every to-many loaded
    }

    public func snapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        lock.withLock { storedObject(objectID) }
    }

    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        lock.withLock {
            guard case .toMany(let ids)? = storedObject(objectID)?.values[relationship.index] else { return [] }
            return ids
        }
    }

    /// The object with this ID; the caller holds the lock.
    func storedObject(_ objectID: ManagedObjectID) -> StoredObject? {
        guard objectID.storeIdentifier == identifier, let number = objectID.storeNumber else { return nil }
        return tables[ObjectIdentifier(objectID.entity.rootEntity)]?.row(number)
    }

    // MARK: Writing

    public func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID] {
        lock.withLock {
            let root = ObjectIdentifier(entity.rootEntity)
            let first = (tables[root]?.lastNumber ?? 0) + 1
            tables[root, default: Table()].lastNumber += Int64(count)
            return (first..<first + Int64(count)).map {
                ManagedObjectID(entity: entity, key: .permanent(storeIdentifier: identifier, number: $0))
            }
        }
    }

    public func save(_ changes: StoreChangeSet) throws {
        try lock.withLock {
            let expected = changes.updated.map { ($0.objectID, $0.version) } + changes.deleted.map { ($0.objectID, $0.version) }
            let conflicts = expected.compactMap { objectID, version in
                let stored = storedObject(objectID)?.version
                return stored == version ? nil : (objectID: objectID, read: version, stored: stored)
            }
            if let error = ManagedObjectError.versionConflicts(conflicts) { throw error }
            let replaced = (changes.updated.map(\.objectID) + changes.deleted.map(\.objectID)).compactMap(storedObject)
            if let error = ManagedObjectError.combining(uniqueness.conflicts(of: changes, replacing: replaced)) {
                throw error
            }
            uniqueness.remove(replaced)
            for object in changes.inserted {
                put(object)
            }
            for var object in changes.updated {
                object.version += 1
                // A to-many the context never loaded keeps its stored members.
                if let stored = storedObject(object.objectID) {
                    for index in object.values.indices {
                        if case .toManyFault = object.values[index] { object.values[index] = stored.values[index] }
                    }
                }
                put(object)
            }
            for deleted in changes.deleted {
                guard let number = deleted.objectID.storeNumber else { continue }
                tables[ObjectIdentifier(deleted.objectID.entity.rootEntity)]?.remove(deleted.objectID, number: number)
            }
            uniqueness.add(changes.inserted + changes.updated)
        }
    }

    /// The stored objects holding any of `keys` under `constraint`, found in the uniqueness
    /// index (a context resolving constraint conflicts asks).
    func storedObjects(holding keys: [[AnyHashable]], under constraint: UniquenessIndex.Constraint) -> [StoredObject] {
        lock.withLock {
            keys.compactMap { uniqueness.owner(of: $0, under: constraint).flatMap(storedObject) }
        }
    }

    func put(_ object: StoredObject) {
        guard let number = object.objectID.storeNumber else { return }
        tables[ObjectIdentifier(object.objectID.entity.rootEntity), default: Table()].put(object, number: number)
    }
}
