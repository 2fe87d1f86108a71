import Foundation

/// Core Data's `NSBatchDeleteResult`.
public final class BatchDeleteResult: PersistentStoreResult {
    public let resultType: BatchDeleteRequestResultType
    /// As Core Data gives it: `true` (status), `[ManagedObjectID]` or `Int` (count).
    public let result: Any?

    init(resultType: BatchDeleteRequestResultType, outcome: StoreBatchOutcome) {
        self.resultType = resultType
        switch resultType {
        case .resultTypeStatusOnly: result = true
        case .resultTypeObjectIDs: result = outcome.objectIDs ?? []
        case .resultTypeCount: result = outcome.count
        }
    }

    /// The deleted objects' IDs, for the `resultTypeObjectIDs` result type.
    public var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// How many objects were deleted, for the `resultTypeCount` result type.
    public var count: Int? { result as? Int }
}
