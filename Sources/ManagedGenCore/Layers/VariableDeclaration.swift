/// `let`/`var`, stored (with an initializer) or computed (getter, optional setter).
public struct VariableDeclaration: Hashable, Sendable {
    /// `@…` attributes written before the declaration (`@_spi(Generated)`).
    public var attributes: [String]
    public var access: AccessModifier?
    public var modifiers: [MemberModifier]
    public var isLet: Bool
    /// The (already escaped) name.
    public var name: String
    public var type: String?
    /// `= …` for a stored property.
    public var initializer: String?
    /// Lines of the getter; a getter of one line is rendered on one line.
    public var getter: [String]?
    public var setter: [String]?

    public init(
        attributes: [String] = [], access: AccessModifier?, modifiers: [MemberModifier] = [], isLet: Bool = false, name: String,
        type: String?, initializer: String? = nil, getter: [String]? = nil, setter: [String]? = nil
    ) {
        self.attributes = attributes
        self.access = access
        self.modifiers = modifiers
        self.isLet = isLet
        self.name = name
        self.type = type
        self.initializer = initializer
        self.getter = getter
        self.setter = setter
    }
}
