import Foundation

/// A store's answer to a ``StoreRequest``, of the kind its `resultType` asked for.
public enum StoreResult: @unchecked Sendable {
    // Unchecked: dictionaries hold attribute values, which are Sendable value types (or
    // Transformable values, which a store copies and never mutates; see `StoredValue`).
    case objectIDs([ManagedObjectID])
    case snapshots([StoredObject])
    case count(Int)
    case dictionaries([[String: Any]])

    /// The object IDs of an `objectIDs` or `snapshots` answer.
    var objectIDs: [ManagedObjectID] {
        switch self {
        case .objectIDs(let ids): ids
        case .snapshots(let snapshots): snapshots.map(\.objectID)
        case .count, .dictionaries: []
        }
    }
}
