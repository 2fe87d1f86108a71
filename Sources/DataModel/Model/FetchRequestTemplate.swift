/// A `<fetchRequest>`: a model-level template, or the request inside a fetched property.
public struct FetchRequestTemplate: Hashable, Sendable, Codable {
    /// `resultType`: absent means managed objects.
    public enum ResultType: Int, Hashable, Sendable, Codable {
        case managedObject = 0
        case managedObjectID = 1
        case dictionary = 2
        case count = 4
    }

    public var name: String
    public var entity: String
    /// The predicate format string, if any (`$VARIABLE`s allowed).
    public var predicateString: String?
    public var fetchLimit: Int?
    public var fetchBatchSize: Int?
    public var resultType: ResultType
    public var includesSubentities: Bool?
    public var includesPropertyValues: Bool?
    public var includesPendingChanges: Bool?
    public var returnsObjectsAsFaults: Bool?
    public var returnsDistinctResults: Bool?
    public var location: SourceLocation?

    public init(
        name: String,
        entity: String,
        predicateString: String? = nil,
        fetchLimit: Int? = nil,
        fetchBatchSize: Int? = nil,
        resultType: ResultType = .managedObject,
        includesSubentities: Bool? = nil,
        includesPropertyValues: Bool? = nil,
        includesPendingChanges: Bool? = nil,
        returnsObjectsAsFaults: Bool? = nil,
        returnsDistinctResults: Bool? = nil,
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.entity = entity
        self.predicateString = predicateString
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.resultType = resultType
        self.includesSubentities = includesSubentities
        self.includesPropertyValues = includesPropertyValues
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.returnsDistinctResults = returnsDistinctResults
        self.location = location
    }
}
