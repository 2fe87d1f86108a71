/// A `<composite>` definition (Xcode 15+): a named group of attributes, possibly nested.
public struct Composite: Hashable, Sendable, Codable {
    public var name: String
    public var attributes: [Attribute]
    public var location: SourceLocation?

    public init(name: String, attributes: [Attribute] = [], location: SourceLocation? = nil) {
        self.name = name
        self.attributes = attributes
        self.location = location
    }
}
