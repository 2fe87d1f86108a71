/// An `<attribute>` of an entity or a composite.
public struct Attribute: Hashable, Sendable, Codable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    public var isIndexed: Bool
    /// `usesScalarValueType`: `nil` when the file does not say (files from before Xcode 8).
    public var usesScalarValueType: Bool?
    public var defaultValueString: String?
    /// Seconds since 2001-01-01 00:00:00 UTC.
    public var defaultDateTimeInterval: Double?
    public var minValueString: String?
    public var maxValueString: String?
    public var minDateTimeInterval: Double?
    public var maxDateTimeInterval: Double?
    public var regularExpressionString: String?
    public var customClassName: String?
    public var valueTransformerName: String?
    public var allowsExternalBinaryDataStorage: Bool
    public var allowsCloudEncryption: Bool
    public var isDerived: Bool
    public var derivationExpression: String?
    public var preserveAfterDeletion: Bool
    public var spotlightIndexingEnabled: Bool
    public var storedInTruthFile: Bool
    /// The `<composite>` this attribute holds, for `attributeType="Composite"`.
    public var composite: String?
    /// The Renaming ID (`elementID`, or the non-standard `renamingIdentifier`).
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var syncable: Bool
    public var userInfo: [UserInfoEntry]
    public var location: SourceLocation?

    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = false,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        usesScalarValueType: Bool? = nil,
        defaultValueString: String? = nil,
        defaultDateTimeInterval: Double? = nil,
        minValueString: String? = nil,
        maxValueString: String? = nil,
        minDateTimeInterval: Double? = nil,
        maxDateTimeInterval: Double? = nil,
        regularExpressionString: String? = nil,
        customClassName: String? = nil,
        valueTransformerName: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        allowsCloudEncryption: Bool = false,
        isDerived: Bool = false,
        derivationExpression: String? = nil,
        preserveAfterDeletion: Bool = false,
        spotlightIndexingEnabled: Bool = false,
        storedInTruthFile: Bool = false,
        composite: String? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        syncable: Bool = false,
        userInfo: [UserInfoEntry] = [],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.usesScalarValueType = usesScalarValueType
        self.defaultValueString = defaultValueString
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.regularExpressionString = regularExpressionString
        self.customClassName = customClassName
        self.valueTransformerName = valueTransformerName
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.allowsCloudEncryption = allowsCloudEncryption
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.preserveAfterDeletion = preserveAfterDeletion
        self.spotlightIndexingEnabled = spotlightIndexingEnabled
        self.storedInTruthFile = storedInTruthFile
        self.composite = composite
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.syncable = syncable
        self.userInfo = userInfo
        self.location = location
    }
}
