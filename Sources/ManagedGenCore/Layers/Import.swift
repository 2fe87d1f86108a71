/// `import Module`, or `@_spi(Group) import Module` to see the module's API for generated code only.
public struct Import: Hashable, Sendable, ExpressibleByStringLiteral {
    public var module: String
    public var spiGroup: String?

    public init(_ module: String, spiGroup: String? = nil) {
        self.module = module
        self.spiGroup = spiGroup
    }

    public init(stringLiteral module: String) {
        self.init(module)
    }
}
