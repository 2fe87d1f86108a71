/// A `<fetchedProperty>`: a computed, fetched to-many of another entity.
public struct FetchedProperty: Hashable, Sendable, Codable {
    public var name: String
    public var isOptional: Bool
    public var fetchRequest: FetchRequestTemplate
    public var syncable: Bool
    public var userInfo: [UserInfoEntry]
    public var location: SourceLocation?

    public init(
        name: String,
        isOptional: Bool = true,
        fetchRequest: FetchRequestTemplate,
        syncable: Bool = false,
        userInfo: [UserInfoEntry] = [],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.isOptional = isOptional
        self.fetchRequest = fetchRequest
        self.syncable = syncable
        self.userInfo = userInfo
        self.location = location
    }
}
