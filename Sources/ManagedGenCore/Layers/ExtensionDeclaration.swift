/// `extension Name { … }`.
public struct ExtensionDeclaration: Hashable, Sendable {
    public var access: AccessModifier?
    public var extendedType: String
    /// Protocols the extension adds.
    public var conformances: [String]
    public var members: [Declaration]

    public init(access: AccessModifier? = nil, extendedType: String, conformances: [String] = [], members: [Declaration]) {
        self.access = access
        self.extendedType = extendedType
        self.conformances = conformances
        self.members = members
    }
}
