import Foundation

/// A batch update as a store receives it: new attribute values for every object of the entity
/// the predicate matches (Core Data's `NSBatchUpdateRequest`). Updated rows' versions increase.
public struct StoreBatchUpdate: Sendable {
    public var entity: EntityDescription
    public var includesSubentities = true
    public var predicate: ObjectPredicate?
    public var values: [(attribute: AttributeDescription, value: StoreBatchValue)]
    public var returnsObjectIDs = false
    /// The running context's `transactionAuthor` and `name`, which persistent history records.
    public var transactionAuthor: String?
    public var contextName: String?

    public init(entity: EntityDescription, predicate: ObjectPredicate?, values: [(attribute: AttributeDescription, value: StoreBatchValue)]) {
        self.entity = entity
        self.predicate = predicate
        self.values = values
    }

    /// The objects it updates, as a fetch request describes them.
    var matching: StoreRequest {
        StoreRequest(entity: entity, includesSubentities: includesSubentities, predicate: predicate)
    }
}
