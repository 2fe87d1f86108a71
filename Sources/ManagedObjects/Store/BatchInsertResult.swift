import Foundation

/// Core Data's `NSBatchInsertResult`.
public final class BatchInsertResult: PersistentStoreResult {
    public let resultType: BatchInsertRequestResultType
    /// As Core Data gives it: `true` (status), `[ManagedObjectID]` or `Int` (count).
    public let result: Any?

    init(resultType: BatchInsertRequestResultType, outcome: StoreBatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .statusOnly: result = true
        case .objectIDs: result = outcome.objectIDs ?? []
        case .count: result = outcome.count
        }
    }

    /// The inserted objects' IDs, for the `objectIDs` result type.
    public var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// How many objects were inserted, for the `count` result type.
    public var count: Int? { result as? Int }
}
