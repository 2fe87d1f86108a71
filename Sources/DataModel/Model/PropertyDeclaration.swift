/// One property of an entity as seen through inheritance: what it is and which entity declares it.
public enum PropertyDeclaration: Hashable, Sendable {
    case attribute(Attribute)
    case relationship(Relationship)

    public var name: String {
        switch self {
        case .attribute(let attribute): attribute.name
        case .relationship(let relationship): relationship.name
        }
    }
}
