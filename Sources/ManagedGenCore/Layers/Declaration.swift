/// A declaration with the documentation and line comments written above it.
public struct Declaration: Hashable, Sendable {
    /// `///` lines.
    public var documentation: [String]
    /// `//` lines, after the documentation.
    public var comments: [String]
    public var kind: Kind

    public indirect enum Kind: Hashable, Sendable {
        case type(TypeDeclaration)
        case `extension`(ExtensionDeclaration)
        case variable(VariableDeclaration)
        case function(FunctionDeclaration)
        case initializer(InitializerDeclaration)
        case enumCase(name: String)
        /// `<access> typealias <name> = <type>`.
        case typeAlias(name: String, access: AccessModifier, type: String)
        /// `#if <condition>`, the declarations, `#endif`.
        case conditional(condition: String, declarations: [Declaration])
    }

    public init(_ kind: Kind, documentation: [String] = [], comments: [String] = []) {
        self.kind = kind
        self.documentation = documentation
        self.comments = comments
    }

    public static func type(_ declaration: TypeDeclaration, documentation: [String] = [], comments: [String] = []) -> Declaration {
        Declaration(.type(declaration), documentation: documentation, comments: comments)
    }

    public static func `extension`(_ declaration: ExtensionDeclaration, documentation: [String] = [], comments: [String] = []) -> Declaration {
        Declaration(.extension(declaration), documentation: documentation, comments: comments)
    }

    public static func variable(_ declaration: VariableDeclaration, documentation: [String] = [], comments: [String] = []) -> Declaration {
        Declaration(.variable(declaration), documentation: documentation, comments: comments)
    }

    public static func function(_ declaration: FunctionDeclaration, documentation: [String] = [], comments: [String] = []) -> Declaration {
        Declaration(.function(declaration), documentation: documentation, comments: comments)
    }

    public static func initializer(_ declaration: InitializerDeclaration, documentation: [String] = [], comments: [String] = []) -> Declaration {
        Declaration(.initializer(declaration), documentation: documentation, comments: comments)
    }
}
