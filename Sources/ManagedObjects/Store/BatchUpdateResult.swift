import Foundation

/// Core Data's `NSBatchUpdateResult`.
public final class BatchUpdateResult: PersistentStoreResult {
    public let resultType: BatchUpdateRequestResultType
    /// As Core Data gives it: `true` (status), `[ManagedObjectID]` or `Int` (count).
    public let result: Any?

    init(resultType: BatchUpdateRequestResultType, outcome: StoreBatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .statusOnlyResultType: result = true
        case .updatedObjectIDsResultType: result = outcome.objectIDs ?? []
        case .updatedObjectsCountResultType: result = outcome.count
        }
    }

    /// The updated objects' IDs, for the `updatedObjectIDsResultType` result type.
    public var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// How many objects were updated, for the `updatedObjectsCountResultType` result type.
    public var count: Int? { result as? Int }
}
