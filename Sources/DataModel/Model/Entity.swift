/// An `<entity>`.
public struct Entity: Hashable, Sendable, Codable {
    /// How Xcode generates code for the entity (`codeGenerationType`).
    public enum CodeGeneration: String, Hashable, Sendable, Codable {
        /// "Class Definition": the class and its properties.
        case `class`
        /// "Category/Extension": the properties only; the user writes the class.
        case category
        /// "Manual/None": no source; the attribute is absent in the file.
        case manual
    }

    public var name: String
    /// `Foo`, `.Foo` (the current module) or `Module.Foo`; `nil` means a plain managed object.
    public var representedClassName: String?
    public var parentEntity: String?
    public var isAbstract: Bool
    public var codeGeneration: CodeGeneration
    /// The Renaming ID. Xcode writes it as `elementID`.
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var syncable: Bool
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    public var fetchedProperties: [FetchedProperty]
    /// Each constraint lists one or more property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    /// `<fetchIndex>` elements (Xcode 9+).
    public var fetchIndexes: [FetchIndex]
    /// `<compoundIndexes>` (Xcode 7–8): each lists property names.
    public var compoundIndexes: [[String]]
    public var userInfo: [UserInfoEntry]
    public var location: SourceLocation?

    public init(
        name: String,
        representedClassName: String? = nil,
        parentEntity: String? = nil,
        isAbstract: Bool = false,
        codeGeneration: CodeGeneration = .manual,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        syncable: Bool = false,
        attributes: [Attribute] = [],
        relationships: [Relationship] = [],
        fetchedProperties: [FetchedProperty] = [],
        uniquenessConstraints: [[String]] = [],
        fetchIndexes: [FetchIndex] = [],
        compoundIndexes: [[String]] = [],
        userInfo: [UserInfoEntry] = [],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.representedClassName = representedClassName
        self.parentEntity = parentEntity
        self.isAbstract = isAbstract
        self.codeGeneration = codeGeneration
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.syncable = syncable
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.compoundIndexes = compoundIndexes
        self.userInfo = userInfo
        self.location = location
    }

    /// The names of this entity's own properties, in declaration order.
    public var propertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }
}
