import Foundation

/// A description of objects to fetch: an entity (and by default its sub-entities), a
/// predicate, an order, a window. Core Data's `NSFetchRequest<Result>`, which is a
/// ``PersistentStoreRequest`` as there: a store an app writes receives fetches as one
/// (``IncrementalStore/execute(_:with:)``).
public final class FetchRequest<Result>: PersistentStoreRequest, CustomStringConvertible {
    public var entityName: String
    /// The entity fetched: set by the runtime on the requests it gives a store
    /// (``IncrementalStore``); setting it names the entity, as setting ``entityName`` does.
    public var entity: EntityDescription? {
        didSet { if let entity { entityName = entity.name } }
    }
    /// Objects the predicate rejects are left out; `nil` keeps every object.
    public var predicate: ObjectPredicate? { didSet { typedPredicateError = nil } }
    /// Applied in turn: the first that tells two objects apart orders them. Objects they do
    /// not tell apart keep the store's order (insertion order).
    public var sortDescriptors: [ObjectSortDescriptor] { didSet { typedSortError = nil } }
    /// Why a typed predicate (`#Predicate`) or sort (`SortDescriptor`) given to the request
    /// has no format-string equivalent: the fetch throws it.
    var typedPredicateError: (any Error)?
    var typedSortError: (any Error)?
    /// The most objects to return; 0 means no limit.
    public var fetchLimit: Int = 0
    /// How many matching objects to skip first.
    public var fetchOffset: Int = 0
    /// Whether objects of sub-entities match too.
    public var includesSubentities = true
    /// Whether unsaved changes count: objects inserted since the last save are included,
    /// deleted ones are left out, and changed ones are matched and sorted by their current
    /// values. When `false`, the store's answer is returned as it is: saved objects by their
    /// saved values, deleted ones included.
    public var includesPendingChanges = true
    public var resultType: FetchRequestResultType = .managedObject
    /// When more than 0, the objects come back as faults that fire this many at a time: the
    /// first one used reads the rows of its whole batch.
    public var fetchBatchSize: Int = 0
    /// Whether fetched objects come back as faults (their values wait in the coordinator's row
    /// cache until a property is used). `false` loads them at once.
    public var returnsObjectsAsFaults = true
    /// Whether the store sends the objects' values with the fetch (into the row cache). When
    /// `false`, only IDs are fetched and each fault reads its row from the store when it fires.
    public var includesPropertyValues = true
    /// Whether objects the context already has loaded take the values the fetch reads, their
    /// unsaved changes kept on top. `false` (Core Data's default): they keep their current
    /// values, even when the store's have changed, until they are refreshed; faults fire with
    /// the values read.
    public var shouldRefreshRefetchedObjects = false
    /// The columns of a `.dictionary` fetch: property names and key paths (a to-one gives the
    /// related object's ID) or aggregates (``ExpressionDescription``); `nil` means every
    /// attribute and to-one.
    public var propertiesToFetch: [PropertyToFetch]?
    /// The columns a `.dictionary` fetch groups by; each other column must be an aggregate.
    public var propertiesToGroupBy: [String]?
    /// Whether a `.dictionary` fetch leaves out rows equal to an earlier one.
    public var returnsDistinctResults = false
    /// Relationship key paths (`"tweeter"`, `"tweets.tweeter"`) whose destination objects are
    /// read with the fetch, so using them does not read the store object by object.
    public var relationshipKeyPathsForPrefetching: [String] = []

    public init(entityName: String, predicate: ObjectPredicate? = nil, sortDescriptors: [ObjectSortDescriptor] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        super.init()
    }

    public var description: String {
        var parts = ["FetchRequest<\(Result.self)>(\(entityName)"]
        if !sortDescriptors.isEmpty { parts.append("sorted by \(sortDescriptors.map(\.description).joined(separator: ", "))") }
        if fetchOffset > 0 { parts.append("offset \(fetchOffset)") }
        if fetchLimit > 0 { parts.append("limit \(fetchLimit)") }
        return parts.joined(separator: ", ") + ")"
    }
}
