import Foundation

/// One stored property value, in the form stores keep: attributes as values of their storage
/// type, relationships as object IDs.
public enum StoredValue: @unchecked Sendable {
    // Unchecked: attribute values are of the attribute storage types (all Sendable value
    // types) or Transformable values, which Core Data stores archived; a store copies them and
    // never mutates them, and contexts hand them out only on their own queue.
    case attribute(Any?)
    case toOne(ManagedObjectID?)
    /// In relationship order (meaningful for ordered to-many relationships).
    case toMany([ManagedObjectID])
    /// A to-many the store did not load with the object: ask it with
    /// `relatedObjectIDs(of:relationship:)` when the relationship is used.
    case toManyFault

    /// Whether two stored values hold the same thing (unordered to-many: the same members).
    func isSame(as other: StoredValue, ordered: Bool) -> Bool {
        switch (self, other) {
        case let (.attribute(left), .attribute(right)): ValueComparison.equal(left, right)
        case let (.toOne(left), .toOne(right)): left == right
        case let (.toMany(left), .toMany(right)): ordered ? left == right : Set(left) == Set(right)
        case (.toManyFault, .toManyFault): true
        default: false
        }
    }
}
