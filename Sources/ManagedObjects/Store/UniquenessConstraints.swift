import Foundation

/// Checks a change set against the model's uniqueness constraints, as a store does before
/// writing it. A constraint declared on an entity holds across the entity and its sub-entities;
/// an object with `nil` in a constrained attribute is not compared (as with SQL `NULL`).
enum UniquenessConstraints {
    /// The conflicts `changes` would cause in a store that holds `stored`: one error per group
    /// of objects sharing constrained values, naming the first changed object among them.
    static func conflicts(
        of changes: StoreChangeSet, with stored: some Collection<StoredObject>
    ) -> [ManagedObjectError] {
        let changed = changes.inserted + changes.updated
        let constraints = Set(changed.flatMap { applicableConstraints(of: $0.objectID.entity) })
        guard !constraints.isEmpty else { return [] }
        let replaced = Set(changes.updated.map(\.objectID) + changes.deleted.map(\.objectID))
        let proposed = stored.filter { !replaced.contains($0.objectID) } + changed
        let changedIDs = Set(changed.map(\.objectID))

        var errors: [ManagedObjectError] = []
        for constraint in constraints.sorted(by: { $0.description < $1.description }) {
            var groups: [[AnyHashable]: [ManagedObjectID]] = [:]
            for object in proposed where constraint.scope.contains(object.objectID.entity.name) {
                guard let key = constraint.key(of: object) else { continue }
                groups[key, default: []].append(object.objectID)
            }
            for (key, ids) in groups where ids.count > 1 {
                guard let culprit = ids.first(where: changedIDs.contains) else { continue }
                errors.append(ManagedObjectError(
                    .constraintConflict,
                    "\(constraint.description) must be unique; \(ids.count) objects have "
                        + key.map { "\($0.base)" }.joined(separator: ", "),
                    entityName: culprit.entity.name, objectID: culprit,
                    key: constraint.names.joined(separator: ",")))
            }
        }
        return errors
    }

    /// One uniqueness constraint with the entities it spans and the property indexes it reads.
    private struct Constraint: Hashable {
        var declaringEntity: String
        var names: [String]
        var indexes: [Int]
        var scope: Set<String>

        var description: String { "\(declaringEntity).(\(names.joined(separator: ", ")))" }

        func key(of object: StoredObject) -> [AnyHashable]? {
            var key: [AnyHashable] = []
            for index in indexes {
                guard case .attribute(let value?) = object.values[index], let hashable = value as? AnyHashable
                else { return nil }
                key.append(hashable)
            }
            return key
        }
    }

    /// The constraints declared on an entity and its ancestors.
    private static func applicableConstraints(of entity: EntityDescription) -> [Constraint] {
        var constraints: [Constraint] = []
        var current: EntityDescription? = entity
        while let declaring = current {
            for names in declaring.entity.uniquenessConstraints {
                let indexes = names.compactMap { declaring.attribute(named: $0)?.index }
                guard !indexes.isEmpty, indexes.count == names.count else { continue }
                constraints.append(Constraint(
                    declaringEntity: declaring.name, names: names, indexes: indexes,
                    scope: Set(declaring.selfAndDescendants.map(\.name))))
            }
            current = declaring.superentity
        }
        return constraints
    }
}
