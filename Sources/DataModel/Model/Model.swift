/// One version of a Core Data model: what a `.xcdatamodel/contents` file holds.
///
/// Every type here is a plain value that mirrors Xcode's XML one to one, so a model can be read,
/// validated, dumped, emitted as Swift source and rebuilt at run time without loss. Booleans that
/// Xcode leaves out when false are `false` here; values Xcode may leave out are optionals.
public struct Model: Hashable, Sendable, Codable {
    public var entities: [Entity]
    /// Composite attribute definitions (Xcode 15+).
    public var composites: [Composite]
    /// Fetch-request templates defined at the top level of the model.
    public var fetchRequests: [FetchRequestTemplate]
    /// Named configurations. The implicit `Default` configuration is never written.
    public var configurations: [Configuration]
    public var userInfo: [UserInfoEntry]
    public var metadata: ModelMetadata
    /// Where the `<model>` element was read from, if it was read from a file.
    public var location: SourceLocation?

    public init(
        entities: [Entity] = [],
        composites: [Composite] = [],
        fetchRequests: [FetchRequestTemplate] = [],
        configurations: [Configuration] = [],
        userInfo: [UserInfoEntry] = [],
        metadata: ModelMetadata = ModelMetadata(),
        location: SourceLocation? = nil
    ) {
        self.entities = entities
        self.composites = composites
        self.fetchRequests = fetchRequests
        self.configurations = configurations
        self.userInfo = userInfo
        self.metadata = metadata
        self.location = location
    }

    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    public func composite(named name: String) -> Composite? {
        composites.first { $0.name == name }
    }
}

/// The attributes of the `<model>` element: tool versions and flags, kept for round trips.
public struct ModelMetadata: Hashable, Sendable, Codable {
    public var name: String?
    public var userDefinedModelVersionIdentifier: String?
    public var type: String?
    public var documentVersion: String?
    public var lastSavedToolsVersion: String?
    public var systemVersion: String?
    public var minimumToolsVersion: String?
    public var sourceLanguage: String?
    public var macOSVersion: String?
    public var iOSVersion: String?
    public var usedWithCloudKit: Bool
    public var usedWithSwiftData: Bool

    public init(
        name: String? = nil,
        userDefinedModelVersionIdentifier: String? = nil,
        type: String? = nil,
        documentVersion: String? = nil,
        lastSavedToolsVersion: String? = nil,
        systemVersion: String? = nil,
        minimumToolsVersion: String? = nil,
        sourceLanguage: String? = nil,
        macOSVersion: String? = nil,
        iOSVersion: String? = nil,
        usedWithCloudKit: Bool = false,
        usedWithSwiftData: Bool = false
    ) {
        self.name = name
        self.userDefinedModelVersionIdentifier = userDefinedModelVersionIdentifier
        self.type = type
        self.documentVersion = documentVersion
        self.lastSavedToolsVersion = lastSavedToolsVersion
        self.systemVersion = systemVersion
        self.minimumToolsVersion = minimumToolsVersion
        self.sourceLanguage = sourceLanguage
        self.macOSVersion = macOSVersion
        self.iOSVersion = iOSVersion
        self.usedWithCloudKit = usedWithCloudKit
        self.usedWithSwiftData = usedWithSwiftData
    }
}

/// One `<entry key="…" value="…"/>` of a `<userInfo>` block. Order is kept as written.
public struct UserInfoEntry: Hashable, Sendable, Codable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == UserInfoEntry {
    /// The value of the first entry with this key.
    public subscript(key: String) -> String? {
        first { $0.key == key }?.value
    }
}
