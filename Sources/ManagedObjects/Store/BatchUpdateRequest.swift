import Foundation

/// New attribute values for every object of an entity a predicate matches, written straight to
/// the store: Core Data's `NSBatchUpdateRequest`.
///
/// `propertiesToUpdate` maps attribute names to a constant (converted to the attribute's type
/// as `setValue(_:forKey:)` converts it; `NSNull()` clears it) or an ``ObjectExpression``
/// evaluated for each object (`ObjectExpression(parsing: "count + 1")`). Updated objects'
/// versions increase. As in Core Data, validation rules are not checked and relationships
/// cannot be set; an unknown key, a relationship, or a constant of the wrong type throws before
/// anything is written.
public final class BatchUpdateRequest: PersistentStoreRequest {
    public let entityName: String
    public var predicate: ObjectPredicate?
    public var propertiesToUpdate: [String: Any]?
    public var includesSubentities = true
    public var resultType: BatchUpdateRequestResultType = .statusOnlyResultType

    public init(entityName: String) {
        self.entityName = entityName
    }

    public convenience init(entity: EntityDescription) {
        self.init(entityName: entity.name)
    }
}
