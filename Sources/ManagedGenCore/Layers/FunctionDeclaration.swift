/// A function.
public struct FunctionDeclaration: Hashable, Sendable {
    /// Attributes written before the access level, such as `@_optimize(none)`.
    public var attributes: [String]
    public var access: AccessModifier?
    public var modifiers: [MemberModifier]
    public var name: String
    public var parameters: [Parameter]
    public var isThrowing: Bool
    public var returnType: String?
    public var body: [String]

    public init(
        attributes: [String] = [], access: AccessModifier?, modifiers: [MemberModifier] = [], name: String,
        parameters: [Parameter] = [], isThrowing: Bool = false, returnType: String? = nil, body: [String]
    ) {
        self.attributes = attributes
        self.access = access
        self.modifiers = modifiers
        self.name = name
        self.parameters = parameters
        self.isThrowing = isThrowing
        self.returnType = returnType
        self.body = body
    }
}
