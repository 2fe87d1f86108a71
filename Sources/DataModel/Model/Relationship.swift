/// A `<relationship>`.
public struct Relationship: Hashable, Sendable, Codable {
    public var name: String
    /// `nil` for an unfinished relationship; validation reports it as an error.
    public var destinationEntity: String?
    public var inverseName: String?
    public var inverseEntity: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    public var isIndexed: Bool
    public var deleteRule: DeleteRule
    public var minCount: Int?
    public var maxCount: Int?
    public var spotlightIndexingEnabled: Bool
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var syncable: Bool
    public var userInfo: [UserInfoEntry]
    public var location: SourceLocation?

    public init(
        name: String,
        destinationEntity: String?,
        inverseName: String? = nil,
        inverseEntity: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = false,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        deleteRule: DeleteRule = .nullify,
        minCount: Int? = nil,
        maxCount: Int? = nil,
        spotlightIndexingEnabled: Bool = false,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        syncable: Bool = false,
        userInfo: [UserInfoEntry] = [],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.spotlightIndexingEnabled = spotlightIndexingEnabled
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.syncable = syncable
        self.userInfo = userInfo
        self.location = location
    }
}
