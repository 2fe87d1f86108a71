import ManagedObjects
import PostgresNIO

/// The order a save writes rows in, the same in every process: two saves touching the same rows
/// then wait on each other in one order, never in a circle (which PostgreSQL ends as a deadlock,
/// 40P01). Rows of existing objects go by entity and key; new objects, whose keys are their own
/// process's, go by the values of their entity's first uniqueness constraint, where the unique
/// index makes one save wait for another's uncommitted row.
extension PostgreSQLStore {
    static func lockOrder(_ first: StoredObject, _ second: StoredObject) -> Bool {
        keyPrecedes(first.objectID, second.objectID)
    }

    static func lockOrder(
        _ first: (objectID: ManagedObjectID, version: Int), _ second: (objectID: ManagedObjectID, version: Int)
    ) -> Bool {
        keyPrecedes(first.objectID, second.objectID)
    }

    /// `inserted` in lock order. Objects of an entity with no uniqueness constraint keep their
    /// place among themselves and come first: their keys are this process's own, so no other
    /// save waits on them; a save with no constrained object is returned as it is.
    static func inLockOrder(_ inserted: [StoredObject]) -> [StoredObject] {
        var constrainedIndexes: [ObjectIdentifier: [Int]] = [:]
        func constraint(of entity: EntityDescription) -> [Int] {
            if let known = constrainedIndexes[ObjectIdentifier(entity)] { return known }
            let indexes = firstUniquenessConstraint(of: entity)
            constrainedIndexes[ObjectIdentifier(entity)] = indexes
            return indexes
        }
        var free: [StoredObject] = []
        var constrained: [(entity: String, values: String, position: Int)] = []
        for (position, object) in inserted.enumerated() {
            let entity = object.objectID.entity
            let indexes = constraint(of: entity)
            guard !indexes.isEmpty else {
                free.append(object)
                continue
            }
            // Any rendering does, as long as every process renders the same values the same way.
            let values = indexes.map { index -> String in
                guard case .attribute(let value?) = object.values[index] else { return "" }
                return String(describing: value)
            }.joined(separator: "\u{1}")
            constrained.append((entity.rootEntity.name, values, position))
        }
        guard !constrained.isEmpty else { return inserted }
        constrained.sort { first, second in
            (first.entity, first.values, first.position) < (second.entity, second.values, second.position)
        }
        return free + constrained.map { inserted[$0.position] }
    }

    /// The transaction of the save under way on this thread and the store it writes: reads that
    /// the save's conflict resolution makes go through it (``read(_:)``).
    @TaskLocal static var savingConnection: (store: ObjectIdentifier, connection: PostgresConnection)?

    /// Takes a transaction-level advisory lock for each set of uniqueness-constrained values the
    /// changed objects hold (not among `held`), and returns them with `held`. Every save of the
    /// store takes them before anything else, in ascending order, so a save holding values
    /// never waits for another's lock it would deadlock with, and no other save stores the same
    /// values until this one ends. Values are named by a 64-bit hash of the constraint and the
    /// values: two that share one only wait for each other.
    func lockConstrainedValues(of changes: StoreChangeSet, holding held: Set<Int64>, connection: PostgresConnection) throws -> Set<Int64> {
        var constraints: [ObjectIdentifier: [UniquenessIndex.Constraint]] = [:]
        var keys = held
        for object in changes.inserted + changes.updated {
            let entity = object.objectID.entity
            let applicable = constraints[ObjectIdentifier(entity)] ?? UniquenessIndex.Constraint.applicable(to: entity)
            constraints[ObjectIdentifier(entity)] = applicable
            for constraint in applicable {
                guard let values = constraint.key(of: object) else { continue }
                keys.insert(Self.lockKey(store: identifier, constraint, values))
            }
        }
        let added = keys.subtracting(held).sorted()
        guard !added.isEmpty else { return keys }
        // The numbers are the store's own hashes, written into the statement; `unnest` gives
        // them in the array's order, and each lock is taken as its row is produced.
        _ = try pool.query(
            "SELECT pg_advisory_xact_lock(k) FROM unnest(ARRAY[\(added.map(String.init).joined(separator: ","))]::int8[]) AS k",
            [], on: connection)
        return keys
    }

    /// A constraint's values as one advisory-lock number, the same in every process (FNV-1a
    /// over the store's UUID, which every process opening the tables reads, the declaring
    /// entity, the constraint's names and the values as text).
    static func lockKey(store: String, _ constraint: UniquenessIndex.Constraint, _ values: [AnyHashable]) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let text = ([store, constraint.declaringEntity, constraint.names.joined(separator: ",")] + values.map { "\($0.base)" })
            .joined(separator: "\u{1}")
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    private static func keyPrecedes(_ first: ManagedObjectID, _ second: ManagedObjectID) -> Bool {
        (first.entity.rootEntity.name, first.storeNumber ?? 0) < (second.entity.rootEntity.name, second.storeNumber ?? 0)
    }

    /// The property indexes of the first uniqueness constraint `entity` has or inherits.
    private static func firstUniquenessConstraint(of entity: EntityDescription) -> [Int] {
        var current: EntityDescription? = entity
        while let declaring = current {
            if let names = declaring.entity.uniquenessConstraints.first {
                return names.compactMap { entity.property(named: $0)?.index }
            }
            current = declaring.superentity
        }
        return []
    }
}
