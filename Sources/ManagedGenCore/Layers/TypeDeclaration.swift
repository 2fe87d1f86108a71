/// A class, struct or enum.
public struct TypeDeclaration: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case `class`, `struct`, `enum`, `protocol`
    }

    public var kind: Kind
    public var access: AccessModifier?
    public var isFinal: Bool
    /// The (already escaped) type name.
    public var name: String
    /// Superclass and protocols.
    public var inheritance: [String]
    public var members: [Declaration]

    public init(
        _ kind: Kind, access: AccessModifier?, isFinal: Bool = false, name: String,
        inheritance: [String] = [], members: [Declaration] = []
    ) {
        self.kind = kind
        self.access = access
        self.isFinal = isFinal
        self.name = name
        self.inheritance = inheritance
        self.members = members
    }
}
