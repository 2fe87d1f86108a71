/// The structured Swift the translator produces and the renderer prints: a deliberately small
/// declaration model (only what generated managed-object code needs). Bodies are lines of code,
/// not expression trees: the generator writes a handful of fixed statement shapes, and keeping
/// them as text keeps the model small while the layout (indentation, order, blank lines) stays
/// the renderer's job.

/// An access level a declaration is written with.
public enum AccessModifier: String, Hashable, Sendable, Codable, CaseIterable {
    case open, `public`, package, `internal`, `fileprivate`, `private`
}

/// One generated source file.
public struct SwiftFile: Hashable, Sendable {
    /// The file name, e.g. `Dog.swift`.
    public var name: String
    /// Line comments at the top (without `//`).
    public var headerComments: [String]
    /// Modules to import, in order.
    public var imports: [Import]
    public var declarations: [Declaration]

    public init(name: String, headerComments: [String] = [], imports: [Import] = [], declarations: [Declaration] = []) {
        self.name = name
        self.headerComments = headerComments
        self.imports = imports
        self.declarations = declarations
    }
}

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

/// Modifiers between the access level and the introducer, in the order written.
public enum MemberModifier: String, Hashable, Sendable {
    case `static`, `class`, `override`, `final`
}

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

/// One parameter: `label name: Type = default`.
public struct Parameter: Hashable, Sendable {
    /// The argument label; `nil` means the same as the name, `"_"` means none.
    public var label: String?
    public var name: String
    public var type: String
    public var defaultValue: String?

    public init(label: String? = nil, name: String, type: String, defaultValue: String? = nil) {
        self.label = label
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

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
