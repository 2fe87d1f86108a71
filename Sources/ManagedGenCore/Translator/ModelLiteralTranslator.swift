import DataModelReader

/// Writes a `Model` as a Swift expression that rebuilds it: every value that differs from its
/// initializer's default, nothing else, and no source locations (so the text does not depend on
/// where the model file was).
struct ModelLiteralTranslator {
    let types: TypeNames
    let mapper: TypeMapper

    /// The model; with `entityReferences`, the entities are those expressions (calls of functions
    /// returning `literal(entity)`), which keeps each expression small for the type checker.
    func literal(_ model: Model, entityReferences: [String]? = nil) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = []
        if let entityReferences, !entityReferences.isEmpty {
            arguments.append(("entities", .array(entityReferences.map(SwiftLiteral.atom))))
        } else if !model.entities.isEmpty {
            arguments.append(("entities", .array(model.entities.map(literal))))
        }
        if !model.composites.isEmpty { arguments.append(("composites", .array(model.composites.map(literal)))) }
        if !model.fetchRequests.isEmpty { arguments.append(("fetchRequests", .array(model.fetchRequests.map(literal)))) }
        if !model.configurations.isEmpty { arguments.append(("configurations", .array(model.configurations.map(literal)))) }
        add(&arguments, "userInfo", model.userInfo)
        let metadata = literal(model.metadata)
        if case .call(_, let metadataArguments) = metadata, !metadataArguments.isEmpty {
            arguments.append(("metadata", metadata))
        }
        return call("Model", arguments)
    }

    private func call(_ type: String, _ arguments: [(String?, SwiftLiteral)]) -> SwiftLiteral {
        .call(types.dataModel(type), arguments.map { LiteralArgument(label: $0.0, value: $0.1) })
    }

    private func add(_ arguments: inout [(String?, SwiftLiteral)], _ label: String, _ value: String?) {
        if let value { arguments.append((label, .string(value))) }
    }

    private func add(_ arguments: inout [(String?, SwiftLiteral)], _ label: String, _ value: Bool, default defaultValue: Bool = false) {
        if value != defaultValue { arguments.append((label, .atom(value ? "true" : "false"))) }
    }

    private func add(_ arguments: inout [(String?, SwiftLiteral)], _ label: String, _ value: Bool?) {
        if let value { arguments.append((label, .atom(value ? "true" : "false"))) }
    }

    private func add(_ arguments: inout [(String?, SwiftLiteral)], _ label: String, _ value: Int?) {
        if let value { arguments.append((label, .atom(String(value)))) }
    }

    private func add(_ arguments: inout [(String?, SwiftLiteral)], _ label: String, _ value: Double?) {
        if let value { arguments.append((label, .atom(mapper.numberLiteral(value)))) }
    }

    private func add(_ arguments: inout [(String?, SwiftLiteral)], _ label: String, _ userInfo: [UserInfoEntry]) {
        guard !userInfo.isEmpty else { return }
        arguments.append((label, .array(userInfo.map {
            call("UserInfoEntry", [("key", .string($0.key)), ("value", .string($0.value))])
        })))
    }

    private func add(_ arguments: inout [(String?, SwiftLiteral)], _ label: String, _ lists: [[String]]) {
        guard !lists.isEmpty else { return }
        arguments.append((label, .array(lists.map { .array($0.map(SwiftLiteral.string)) })))
    }

    func literal(_ entity: Entity) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [("name", .string(entity.name))]
        add(&arguments, "representedClassName", entity.representedClassName)
        add(&arguments, "parentEntity", entity.parentEntity)
        add(&arguments, "isAbstract", entity.isAbstract)
        if entity.codeGeneration != .manual { arguments.append(("codeGeneration", .atom("." + SwiftNames.escaped(entity.codeGeneration.rawValue)))) }
        add(&arguments, "renamingIdentifier", entity.renamingIdentifier)
        add(&arguments, "versionHashModifier", entity.versionHashModifier)
        add(&arguments, "syncable", entity.syncable)
        // One line per property when it fits: a compact literal, easy to scan.
        if !entity.attributes.isEmpty { arguments.append(("attributes", .array(entity.attributes.map { .unbroken(literal($0)) }))) }
        if !entity.relationships.isEmpty {
            arguments.append(("relationships", .array(entity.relationships.map { .unbroken(literal($0)) })))
        }
        if !entity.fetchedProperties.isEmpty {
            arguments.append(("fetchedProperties", .array(entity.fetchedProperties.map { .unbroken(literal($0)) })))
        }
        add(&arguments, "uniquenessConstraints", entity.uniquenessConstraints)
        if !entity.fetchIndexes.isEmpty { arguments.append(("fetchIndexes", .array(entity.fetchIndexes.map(literal)))) }
        add(&arguments, "compoundIndexes", entity.compoundIndexes)
        add(&arguments, "userInfo", entity.userInfo)
        return call("Entity", arguments)
    }

    /// `.caseName` of an attribute type, as `".\(type)"` writes it; spelled out because that
    /// interpolation goes through reflection (about 9,000 instructions a property, and a
    /// million the first time). `TranslatorTests` checks every case against the interpolation.
    static func spelling(_ type: AttributeType) -> String {
        switch type {
        case .undefined: ".undefined"
        case .integer16: ".integer16"
        case .integer32: ".integer32"
        case .integer64: ".integer64"
        case .decimal: ".decimal"
        case .double: ".double"
        case .float: ".float"
        case .string: ".string"
        case .boolean: ".boolean"
        case .date: ".date"
        case .binary: ".binary"
        case .uuid: ".uuid"
        case .uri: ".uri"
        case .transformable: ".transformable"
        case .objectID: ".objectID"
        case .composite: ".composite"
        }
    }

    /// `.caseName` of a delete rule (see `spelling(_: AttributeType)`).
    static func spelling(_ rule: DeleteRule) -> String {
        switch rule {
        case .nullify: ".nullify"
        case .cascade: ".cascade"
        case .deny: ".deny"
        case .noAction: ".noAction"
        }
    }

    /// The fields `Attribute.compact` (runtime, for generated code) takes, in its order.
    private static let compactAttributeLabels: Set<String> = [
        "name", "type", "isOptional", "isTransient", "usesScalarValueType", "defaultValueString", "syncable",
    ]

    /// The fields `Relationship.compact` takes besides the name, destination and inverse.
    private static let compactRelationshipLabels: Set<String> = [
        "isToMany", "isOrdered", "isOptional", "deleteRule", "minCount", "maxCount",
    ]

    /// `<Type>.compact(…)`: the runtime's short form for generated code (`CompactModelLiteral`),
    /// its first arguments unlabelled or relabelled.
    private func compactCall(_ type: String, _ arguments: [(String?, SwiftLiteral)]) -> SwiftLiteral {
        .call(types.dataModel(type) + "." + RuntimeContract.ModelLiteral.compact, arguments.map { LiteralArgument(label: $0.0, value: $0.1) })
    }

    private func literal(_ attribute: Attribute) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [
            ("name", .string(attribute.name)), ("type", .atom(Self.spelling(attribute.type))),
        ]
        add(&arguments, "isOptional", attribute.isOptional)
        add(&arguments, "isTransient", attribute.isTransient)
        add(&arguments, "isIndexed", attribute.isIndexed)
        add(&arguments, "usesScalarValueType", attribute.usesScalarValueType)
        add(&arguments, "defaultValueString", attribute.defaultValueString)
        add(&arguments, "defaultDateTimeInterval", attribute.defaultDateTimeInterval)
        add(&arguments, "minValueString", attribute.minValueString)
        add(&arguments, "maxValueString", attribute.maxValueString)
        add(&arguments, "minDateTimeInterval", attribute.minDateTimeInterval)
        add(&arguments, "maxDateTimeInterval", attribute.maxDateTimeInterval)
        add(&arguments, "regularExpressionString", attribute.regularExpressionString)
        add(&arguments, "customClassName", attribute.customClassName)
        add(&arguments, "valueTransformerName", attribute.valueTransformerName)
        add(&arguments, "allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
        add(&arguments, "allowsCloudEncryption", attribute.allowsCloudEncryption)
        add(&arguments, "isDerived", attribute.isDerived)
        add(&arguments, "derivationExpression", attribute.derivationExpression)
        add(&arguments, "preserveAfterDeletion", attribute.preserveAfterDeletion)
        add(&arguments, "spotlightIndexingEnabled", attribute.spotlightIndexingEnabled)
        add(&arguments, "storedInTruthFile", attribute.storedInTruthFile)
        add(&arguments, "composite", attribute.composite)
        add(&arguments, "renamingIdentifier", attribute.renamingIdentifier)
        add(&arguments, "versionHashModifier", attribute.versionHashModifier)
        add(&arguments, "syncable", attribute.syncable)
        add(&arguments, "userInfo", attribute.userInfo)
        if arguments.allSatisfy({ $0.0.map(Self.compactAttributeLabels.contains) ?? false }) {
            // `compact("name", .string, …)`: name and type are the first two, unlabelled.
            return compactCall("Attribute", [(nil, arguments[0].1), (nil, arguments[1].1)] + arguments.dropFirst(2))
        }
        return call("Attribute", arguments)
    }

    private func literal(_ relationship: Relationship) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [
            ("name", .string(relationship.name)),
            ("destinationEntity", relationship.destinationEntity.map(SwiftLiteral.string) ?? .atom("nil")),
        ]
        add(&arguments, "inverseName", relationship.inverseName)
        add(&arguments, "inverseEntity", relationship.inverseEntity)
        add(&arguments, "isToMany", relationship.isToMany)
        add(&arguments, "isOrdered", relationship.isOrdered)
        add(&arguments, "isOptional", relationship.isOptional)
        add(&arguments, "isTransient", relationship.isTransient)
        add(&arguments, "isIndexed", relationship.isIndexed)
        if relationship.deleteRule != .nullify { arguments.append(("deleteRule", .atom(Self.spelling(relationship.deleteRule)))) }
        add(&arguments, "minCount", relationship.minCount)
        add(&arguments, "maxCount", relationship.maxCount)
        add(&arguments, "spotlightIndexingEnabled", relationship.spotlightIndexingEnabled)
        add(&arguments, "renamingIdentifier", relationship.renamingIdentifier)
        add(&arguments, "versionHashModifier", relationship.versionHashModifier)
        add(&arguments, "syncable", relationship.syncable)
        add(&arguments, "userInfo", relationship.userInfo)
        // `compact("walks", to: "Walk", inverse: "dog", …)` when the inverse (if any) is the
        // destination's, as Core Data has it, and the other fields are ones it takes.
        if let destination = relationship.destinationEntity,
           relationship.inverseEntity == (relationship.inverseName == nil ? nil : destination),
           arguments.dropFirst(2).allSatisfy({ ["inverseName", "inverseEntity"].contains($0.0) || Self.compactRelationshipLabels.contains($0.0 ?? "") }) {
            var compact: [(String?, SwiftLiteral)] = [(nil, arguments[0].1), ("to", .string(destination))]
            if let inverseName = relationship.inverseName { compact.append(("inverse", .string(inverseName))) }
            compact += arguments.dropFirst(2).filter { Self.compactRelationshipLabels.contains($0.0 ?? "") }
            return compactCall("Relationship", compact)
        }
        return call("Relationship", arguments)
    }

    private func literal(_ property: FetchedProperty) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [("name", .string(property.name))]
        add(&arguments, "isOptional", property.isOptional, default: true)
        arguments.append(("fetchRequest", literal(property.fetchRequest)))
        add(&arguments, "syncable", property.syncable)
        add(&arguments, "userInfo", property.userInfo)
        return call("FetchedProperty", arguments)
    }

    private func literal(_ request: FetchRequestTemplate) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [("name", .string(request.name)), ("entity", .string(request.entity))]
        add(&arguments, "predicateString", request.predicateString)
        add(&arguments, "fetchLimit", request.fetchLimit)
        add(&arguments, "fetchBatchSize", request.fetchBatchSize)
        if request.resultType != .managedObject { arguments.append(("resultType", .atom(".\(request.resultType)"))) }
        add(&arguments, "includesSubentities", request.includesSubentities)
        add(&arguments, "includesPropertyValues", request.includesPropertyValues)
        add(&arguments, "includesPendingChanges", request.includesPendingChanges)
        add(&arguments, "returnsObjectsAsFaults", request.returnsObjectsAsFaults)
        add(&arguments, "returnsDistinctResults", request.returnsDistinctResults)
        return call("FetchRequestTemplate", arguments)
    }

    private func literal(_ configuration: Configuration) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [("name", .string(configuration.name))]
        add(&arguments, "usedWithCloudKit", configuration.usedWithCloudKit)
        if !configuration.memberEntities.isEmpty {
            arguments.append(("memberEntities", .array(configuration.memberEntities.map(SwiftLiteral.string))))
        }
        return call("Configuration", arguments)
    }

    private func literal(_ composite: Composite) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [("name", .string(composite.name))]
        if !composite.attributes.isEmpty { arguments.append(("attributes", .array(composite.attributes.map(literal)))) }
        return call("Composite", arguments)
    }

    private func literal(_ fetchIndex: FetchIndex) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = [("name", .string(fetchIndex.name))]
        if !fetchIndex.elements.isEmpty {
            arguments.append(("elements", .array(fetchIndex.elements.map { element in
                var elementArguments: [(String?, SwiftLiteral)] = []
                add(&elementArguments, "property", element.property)
                add(&elementArguments, "expression", element.expression)
                add(&elementArguments, "expressionType", element.expressionType)
                if element.type != "Binary" { elementArguments.append(("type", .string(element.type))) }
                add(&elementArguments, "ascending", element.ascending, default: true)
                return .call(types.dataModel("FetchIndex") + ".Element", elementArguments.map { LiteralArgument(label: $0.0, value: $0.1) })
            })))
        }
        return call("FetchIndex", arguments)
    }

    private func literal(_ metadata: ModelMetadata) -> SwiftLiteral {
        var arguments: [(String?, SwiftLiteral)] = []
        add(&arguments, "name", metadata.name)
        add(&arguments, "userDefinedModelVersionIdentifier", metadata.userDefinedModelVersionIdentifier)
        add(&arguments, "type", metadata.type)
        add(&arguments, "documentVersion", metadata.documentVersion)
        add(&arguments, "lastSavedToolsVersion", metadata.lastSavedToolsVersion)
        add(&arguments, "systemVersion", metadata.systemVersion)
        add(&arguments, "minimumToolsVersion", metadata.minimumToolsVersion)
        add(&arguments, "sourceLanguage", metadata.sourceLanguage)
        add(&arguments, "macOSVersion", metadata.macOSVersion)
        add(&arguments, "iOSVersion", metadata.iOSVersion)
        add(&arguments, "usedWithCloudKit", metadata.usedWithCloudKit)
        add(&arguments, "usedWithSwiftData", metadata.usedWithSwiftData)
        return call("ModelMetadata", arguments)
    }
}
