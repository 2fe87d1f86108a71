import Foundation

/// A state of the store a context reads. Core Data's `NSQueryGenerationToken`.
public final class QueryGenerationToken: Sendable, Equatable {
    /// The store's state when the token is given to `setQueryGenerationFrom(_:)`.
    public static let current = QueryGenerationToken(storeView: nil)

    /// The store as it was when pinned (`nil` for `.current`).
    let storeView: (any PersistentStore)?

    init(storeView: (any PersistentStore)?) {
        self.storeView = storeView
    }

    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool { lhs === rhs }
}
