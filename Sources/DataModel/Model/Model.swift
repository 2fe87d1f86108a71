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
