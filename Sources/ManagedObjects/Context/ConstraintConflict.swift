import Foundation
import OrderedCollections

/// Objects that share the values of a uniqueness constraint. Core Data's `NSConstraintConflict`.
public struct ConstraintConflict: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: as for `MergeConflict`.
    /// The constrained property names.
    public let constraint: [String]
    /// The shared values, by property name.
    public let constraintValues: [String: Any]
    /// The stored object that has the values, when one does (`nil` when only objects being
    /// saved share them).
    public let databaseObject: ManagedObject?
    /// The stored object's values.
    public let databaseSnapshot: [String: Any]?
    /// The objects being saved that have the values.
    public let conflictingObjects: [ManagedObject]
    /// Their values as last read from the store (empty for new objects).
    public let conflictingSnapshots: [[String: Any]]

    public var description: String {
        "ConstraintConflict(\(constraint.joined(separator: ", ")) = "
            + constraint.map { "\(constraintValues[$0] ?? "nil")" }.joined(separator: ", ")
            + ": \(conflictingObjects.map(\.objectID))" + (databaseObject.map { " and stored \($0.objectID)" } ?? "") + ")"
    }
}

extension ManagedObjectError {
    /// The 133021 error of a constraint conflict found before any store refused the save,
    /// worded as the stores word a unique index's refusal.
    init(_ conflict: ConstraintConflict) {
        let object = conflict.conflictingObjects.first
        let entityName = object?.entity.name ?? "?"
        let holders = conflict.databaseObject != nil
            ? "another stored object has the same values" : "\(conflict.conflictingObjects.count) saved objects have the same values"
        self.init(
            .constraintConflict, "\(entityName).(\(conflict.constraint.joined(separator: ", "))) must be unique; \(holders)",
            entityName: entityName, objectID: object?.objectID, key: conflict.constraint.joined(separator: ","))
    }
}
