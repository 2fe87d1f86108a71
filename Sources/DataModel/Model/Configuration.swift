/// A `<configuration>`: a named subset of the entities.
public struct Configuration: Hashable, Sendable, Codable {
    public var name: String
    public var usedWithCloudKit: Bool
    public var memberEntities: [String]
    public var location: SourceLocation?

    public init(
        name: String,
        usedWithCloudKit: Bool = false,
        memberEntities: [String] = [],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.usedWithCloudKit = usedWithCloudKit
        self.memberEntities = memberEntities
        self.location = location
    }
}
