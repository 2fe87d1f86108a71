import Foundation

/// What kind of request a store is given: Core Data's `NSPersistentStoreRequestType`, as an
/// ``IncrementalStore`` reads it from ``PersistentStoreRequest/requestType`` to tell a fetch
/// from a save. Core Data's case names, which store code switches over.
public enum PersistentStoreRequestType: Int, Sendable, Hashable {
    /// A ``FetchRequest`` (given to a store as `FetchRequest<ManagedObject>`).
    case fetchRequestType = 1
    /// A ``SaveChangesRequest``.
    case saveRequestType = 2
    /// A ``BatchInsertRequest``.
    case batchInsertRequestType = 5
    /// A ``BatchUpdateRequest``.
    case batchUpdateRequestType = 6
    /// A ``BatchDeleteRequest``.
    case batchDeleteRequestType = 7
}

extension PersistentStoreRequest {
    /// The kind of request: Core Data's `requestType`. History requests, which Core Data gives
    /// no type of their own here, read as fetches.
    public var requestType: PersistentStoreRequestType {
        switch self {
        case is SaveChangesRequest: .saveRequestType
        case is BatchInsertRequest: .batchInsertRequestType
        case is BatchUpdateRequest: .batchUpdateRequestType
        case is BatchDeleteRequest: .batchDeleteRequestType
        default: .fetchRequestType
        }
    }
}
