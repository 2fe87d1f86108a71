import ManagedObjects

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
