/// The attribute types Xcode writes as `attributeType`.
public enum AttributeType: String, Hashable, Sendable, Codable, CaseIterable {
    /// No `attributeType` in the file (Xcode's "Undefined"); legal only on transient attributes.
    case undefined = "Undefined"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "Object ID"
    case composite = "Composite"

    /// The integer, floating-point, decimal and Boolean types: the ones Xcode can store as scalars.
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: true
        default: false
        }
    }
}

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

/// What happens to the destination objects when the source object is deleted.
public enum DeleteRule: String, Hashable, Sendable, Codable, CaseIterable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

/// A `<relationship>`.
public struct Relationship: Hashable, Sendable, Codable {
    public var name: String
    /// `nil` for an unfinished relationship; validation reports it as an error.
    public var destinationEntity: String?
    public var inverseName: String?
    public var inverseEntity: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    public var isIndexed: Bool
    public var deleteRule: DeleteRule
    public var minCount: Int?
    public var maxCount: Int?
    public var spotlightIndexingEnabled: Bool
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var syncable: Bool
    public var userInfo: [UserInfoEntry]
    public var location: SourceLocation?

    public init(
        name: String,
        destinationEntity: String?,
        inverseName: String? = nil,
        inverseEntity: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = false,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        deleteRule: DeleteRule = .nullify,
        minCount: Int? = nil,
        maxCount: Int? = nil,
        spotlightIndexingEnabled: Bool = false,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        syncable: Bool = false,
        userInfo: [UserInfoEntry] = [],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.spotlightIndexingEnabled = spotlightIndexingEnabled
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.syncable = syncable
        self.userInfo = userInfo
        self.location = location
    }
}

/// A `<fetchedProperty>`: a computed, fetched to-many of another entity.
public struct FetchedProperty: Hashable, Sendable, Codable {
    public var name: String
    public var isOptional: Bool
    public var fetchRequest: FetchRequestTemplate
    public var syncable: Bool
    public var userInfo: [UserInfoEntry]
    public var location: SourceLocation?

    public init(
        name: String,
        isOptional: Bool = true,
        fetchRequest: FetchRequestTemplate,
        syncable: Bool = false,
        userInfo: [UserInfoEntry] = [],
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.isOptional = isOptional
        self.fetchRequest = fetchRequest
        self.syncable = syncable
        self.userInfo = userInfo
        self.location = location
    }
}

/// A `<fetchRequest>`: a model-level template, or the request inside a fetched property.
public struct FetchRequestTemplate: Hashable, Sendable, Codable {
    /// `resultType`: absent means managed objects.
    public enum ResultType: Int, Hashable, Sendable, Codable {
        case managedObject = 0
        case managedObjectID = 1
        case dictionary = 2
        case count = 4
    }

    public var name: String
    public var entity: String
    /// The predicate format string, if any (`$VARIABLE`s allowed).
    public var predicateString: String?
    public var fetchLimit: Int?
    public var fetchBatchSize: Int?
    public var resultType: ResultType
    public var includesSubentities: Bool?
    public var includesPropertyValues: Bool?
    public var includesPendingChanges: Bool?
    public var returnsObjectsAsFaults: Bool?
    public var returnsDistinctResults: Bool?
    public var location: SourceLocation?

    public init(
        name: String,
        entity: String,
        predicateString: String? = nil,
        fetchLimit: Int? = nil,
        fetchBatchSize: Int? = nil,
        resultType: ResultType = .managedObject,
        includesSubentities: Bool? = nil,
        includesPropertyValues: Bool? = nil,
        includesPendingChanges: Bool? = nil,
        returnsObjectsAsFaults: Bool? = nil,
        returnsDistinctResults: Bool? = nil,
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.entity = entity
        self.predicateString = predicateString
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.resultType = resultType
        self.includesSubentities = includesSubentities
        self.includesPropertyValues = includesPropertyValues
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.returnsDistinctResults = returnsDistinctResults
        self.location = location
    }
}
