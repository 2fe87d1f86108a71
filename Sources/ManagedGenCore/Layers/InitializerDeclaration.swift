/// An `init`.
public struct InitializerDeclaration: Hashable, Sendable {
    public var access: AccessModifier?
    public var parameters: [Parameter]
    public var body: [String]

    public init(access: AccessModifier?, parameters: [Parameter], body: [String]) {
        self.access = access
        self.parameters = parameters
        self.body = body
    }
}
