import Foundation

/// The model's uniqueness constraints as a store checks them: for each constraint, which object
/// holds each key. A save is checked against it touching only the changed objects. A constraint
/// declared on an entity holds across the entity and its sub-entities; an object with `nil` in a
/// constrained attribute is not compared (as with SQL `NULL`).
package struct UniquenessIndex {
    private var owners: [Constraint: [[AnyHashable]: ManagedObjectID]] = [:]

    /// The conflicts `changes` would cause, given the stored objects they update or delete
    /// (`replaced`, as stored): one error per group of objects sharing constrained values,
    /// naming the first changed object among them.
    func conflicts(of changes: StoreChangeSet, replacing replaced: [StoredObject]) -> [ManagedObjectError] {
        let changed = changes.inserted + changes.updated
        let leaving = Set(replaced.map(\.objectID))
        var groups: [Constraint: [[AnyHashable]: [ManagedObjectID]]] = [:]
        for object in changed {
            for constraint in Constraint.applicable(to: object.objectID.entity) {
                guard let key = constraint.key(of: object) else { continue }
                if groups[constraint]?[key] == nil, let owner = owners[constraint]?[key], !leaving.contains(owner) {
                    groups[constraint, default: [:]][key] = [owner]
                }
                groups[constraint, default: [:]][key, default: []].append(object.objectID)
            }
        }
        let changedIDs = Set(changed.map(\.objectID))
        var errors: [ManagedObjectError] = []
        for constraint in groups.keys.sorted(by: { $0.description < $1.description }) {
            for (key, ids) in groups[constraint] ?? [:] where ids.count > 1 {
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

    /// The object holding `key` under `constraint`, if any.
    func owner(of key: [AnyHashable], under constraint: Constraint) -> ManagedObjectID? {
        owners[constraint]?[key]
    }

    /// The stored object that already has `object`'s values of one of its constraints (a
    /// batch insert's upsert updates it), if any.
    func owner(sharingConstrainedValuesWith object: StoredObject) -> ManagedObjectID? {
        for constraint in Constraint.applicable(to: object.objectID.entity) {
            if let key = constraint.key(of: object), let owner = owners[constraint]?[key] { return owner }
        }
        return nil
    }

    /// Records the keys of saved objects.
    mutating func add(_ objects: [StoredObject]) {
        for object in objects {
            for constraint in Constraint.applicable(to: object.objectID.entity) {
                guard let key = constraint.key(of: object) else { continue }
                owners[constraint, default: [:]][key] = object.objectID
            }
        }
    }

    /// Forgets the keys of objects as they were stored before an update or delete.
    mutating func remove(_ objects: [StoredObject]) {
        for object in objects {
            for constraint in Constraint.applicable(to: object.objectID.entity) {
                guard let key = constraint.key(of: object), owners[constraint]?[key] == object.objectID else { continue }
                owners[constraint]?[key] = nil
            }
        }
    }

    /// One uniqueness constraint with the entity that declares it and the property indexes it reads.
    package struct Constraint: Hashable {
        package var declaringEntity: String
        package var names: [String]
        package var indexes: [Int]

        var description: String { "\(declaringEntity).(\(names.joined(separator: ", ")))" }

        package func key(of object: StoredObject) -> [AnyHashable]? {
            var key: [AnyHashable] = []
            for index in indexes {
                guard case .attribute(let value?) = object.values[index], let hashable = value as? AnyHashable
                else { return nil }
                key.append(hashable)
            }
            return key
        }

        /// The constraints declared on an entity and its ancestors.
        package static func applicable(to entity: EntityDescription) -> [Constraint] {
            var constraints: [Constraint] = []
            var current: EntityDescription? = entity
            while let declaring = current {
                for names in declaring.entity.uniquenessConstraints {
                    let indexes = names.compactMap { declaring.attribute(named: $0)?.index }
                    guard !indexes.isEmpty, indexes.count == names.count else { continue }
                    constraints.append(Constraint(declaringEntity: declaring.name, names: names, indexes: indexes))
                }
                current = declaring.superentity
            }
            return constraints
        }
    }
}
