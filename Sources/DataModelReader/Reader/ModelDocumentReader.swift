/// Turns the `<model>` element of a `contents` file into a `Model`, element by element.
///
/// Each element is read in one pass over its attributes. Values the reader cannot make sense
/// of are warnings (the model is still usable); a missing name or an unknown enumeration value
/// is an error. Unknown attributes and elements are warnings naming file and line, so files
/// written by newer Xcode versions or third-party editors still read. The `<elements>` diagram
/// layout is skipped.
struct ModelDocumentReader {
    private(set) var diagnostics: [Diagnostic] = []

    mutating func readModel(_ element: XMLTree.Element) -> Model {
        var model = Model(location: element.location)
        for (name, value) in element.attributes {
            switch name {
            case "name": model.metadata.name = value
            case "userDefinedModelVersionIdentifier": model.metadata.userDefinedModelVersionIdentifier = value
            case "type": model.metadata.type = value
            case "documentVersion": model.metadata.documentVersion = value
            case "lastSavedToolsVersion": model.metadata.lastSavedToolsVersion = value
            case "systemVersion": model.metadata.systemVersion = value
            case "minimumToolsVersion": model.metadata.minimumToolsVersion = value
            case "sourceLanguage": model.metadata.sourceLanguage = value
            case "macOSVersion": model.metadata.macOSVersion = value
            case "iOSVersion": model.metadata.iOSVersion = value
            case "usedWithCloudKit": model.metadata.usedWithCloudKit = bool(value, name, element)
            case "usedWithSwiftData": model.metadata.usedWithSwiftData = bool(value, name, element)
            default: unknownAttribute(name, element)
            }
        }
        for child in element.children {
            switch child.name {
            case "entity": if let entity = readEntity(child) { model.entities.append(entity) }
            case "composite": if let composite = readComposite(child) { model.composites.append(composite) }
            case "fetchRequest": if let request = readFetchRequest(child) { model.fetchRequests.append(request) }
            case "configuration":
                if let configuration = readConfiguration(child) { model.configurations.append(configuration) }
            case "userInfo": model.userInfo += readUserInfo(child)
            case "elements": break  // diagram layout, not part of the model
            default: unknownElement(child, in: element)
            }
        }
        return model
    }

    // MARK: - Entities

    private mutating func readEntity(_ element: XMLTree.Element) -> Entity? {
        var entity = Entity(name: "", location: element.location)
        var nonStandardRenamingIdentifier: String?
        for (name, value) in element.attributes {
            switch name {
            case "name": entity.name = value
            case "representedClassName": entity.representedClassName = value
            case "parentEntity": entity.parentEntity = value
            case "isAbstract": entity.isAbstract = bool(value, name, element)
            case "codeGenerationType":
                if let mode = Entity.CodeGeneration(rawValue: value) {
                    entity.codeGeneration = mode
                } else {
                    warning("unknown codeGenerationType '\(value)'; expected 'class' or 'category'", element)
                }
            case "syncable": entity.syncable = bool(value, name, element)
            case "elementID": entity.renamingIdentifier = value
            case "renamingIdentifier": nonStandardRenamingIdentifier = value
            case "versionHashModifier": entity.versionHashModifier = value
            default: unknownAttribute(name, element)
            }
        }
        if entity.renamingIdentifier == nil { entity.renamingIdentifier = nonStandardRenamingIdentifier }
        guard requireName(entity.name, element) else { return nil }

        for child in element.children {
            switch child.name {
            case "attribute": if let attribute = readAttribute(child) { entity.attributes.append(attribute) }
            case "relationship":
                if let relationship = readRelationship(child) { entity.relationships.append(relationship) }
            case "fetchedProperty":
                if let property = readFetchedProperty(child) { entity.fetchedProperties.append(property) }
            case "fetchIndex": if let index = readFetchIndex(child) { entity.fetchIndexes.append(index) }
            case "compoundIndexes":
                entity.compoundIndexes += readValueLists(child, list: "compoundIndex", item: "index")
            case "uniquenessConstraints":
                entity.uniquenessConstraints += readValueLists(
                    child, list: "uniquenessConstraint", item: "constraint")
            case "userInfo": entity.userInfo += readUserInfo(child)
            default: unknownElement(child, in: element)
            }
        }
        return entity
    }

    // MARK: - Properties

    private mutating func readAttribute(_ element: XMLTree.Element) -> Attribute? {
        var attribute = Attribute(name: "", type: .undefined, location: element.location)
        var nonStandardRenamingIdentifier: String?
        for (name, value) in element.attributes {
            switch name {
            case "name": attribute.name = value
            case "attributeType":
                if let type = AttributeType(rawValue: value) {
                    attribute.type = type
                } else {
                    error("unknown attributeType '\(value)'", element)
                }
            case "optional": attribute.isOptional = bool(value, name, element)
            case "transient": attribute.isTransient = bool(value, name, element)
            case "indexed": attribute.isIndexed = bool(value, name, element)
            case "usesScalarValueType": attribute.usesScalarValueType = bool(value, name, element)
            case "defaultValueString": attribute.defaultValueString = value
            case "defaultDateTimeInterval": attribute.defaultDateTimeInterval = double(value, name, element)
            case "minValueString": attribute.minValueString = value
            case "maxValueString": attribute.maxValueString = value
            case "minDateTimeInterval": attribute.minDateTimeInterval = double(value, name, element)
            case "maxDateTimeInterval": attribute.maxDateTimeInterval = double(value, name, element)
            case "regularExpressionString": attribute.regularExpressionString = value
            case "customClassName": attribute.customClassName = value
            case "valueTransformerName": attribute.valueTransformerName = value
            case "allowsExternalBinaryDataStorage":
                attribute.allowsExternalBinaryDataStorage = bool(value, name, element)
            case "allowsCloudEncryption": attribute.allowsCloudEncryption = bool(value, name, element)
            case "derived": attribute.isDerived = bool(value, name, element)
            case "derivationExpression": attribute.derivationExpression = value
            case "preserveAfterDeletion": attribute.preserveAfterDeletion = bool(value, name, element)
            case "spotlightIndexingEnabled": attribute.spotlightIndexingEnabled = bool(value, name, element)
            case "storedInTruthFile": attribute.storedInTruthFile = bool(value, name, element)
            case "composite": attribute.composite = value
            case "elementID": attribute.renamingIdentifier = value
            case "renamingIdentifier": nonStandardRenamingIdentifier = value
            case "versionHashModifier": attribute.versionHashModifier = value
            case "syncable": attribute.syncable = bool(value, name, element)
            default: unknownAttribute(name, element)
            }
        }
        // Xcode writes the Renaming ID as `elementID`; a hand-written `renamingIdentifier` is
        // taken only when there is no `elementID`.
        if attribute.renamingIdentifier == nil { attribute.renamingIdentifier = nonStandardRenamingIdentifier }
        guard requireName(attribute.name, element) else { return nil }
        attribute.userInfo = readPropertyChildren(element)
        return attribute
    }

    private mutating func readRelationship(_ element: XMLTree.Element) -> Relationship? {
        var relationship = Relationship(name: "", destinationEntity: nil, location: element.location)
        var nonStandardRenamingIdentifier: String?
        for (name, value) in element.attributes {
            switch name {
            case "name": relationship.name = value
            case "destinationEntity": relationship.destinationEntity = value
            case "inverseName": relationship.inverseName = value
            case "inverseEntity": relationship.inverseEntity = value
            case "toMany": relationship.isToMany = bool(value, name, element)
            case "ordered": relationship.isOrdered = bool(value, name, element)
            case "optional": relationship.isOptional = bool(value, name, element)
            case "transient": relationship.isTransient = bool(value, name, element)
            case "indexed": relationship.isIndexed = bool(value, name, element)
            case "deletionRule":
                if let rule = DeleteRule(rawValue: value) {
                    relationship.deleteRule = rule
                } else {
                    error("unknown deletionRule '\(value)'; expected Nullify, Cascade, Deny or No Action", element)
                }
            case "minCount": relationship.minCount = integer(value, name, element)
            case "maxCount": relationship.maxCount = integer(value, name, element)
            case "spotlightIndexingEnabled": relationship.spotlightIndexingEnabled = bool(value, name, element)
            case "elementID": relationship.renamingIdentifier = value
            case "renamingIdentifier": nonStandardRenamingIdentifier = value
            case "versionHashModifier": relationship.versionHashModifier = value
            case "syncable": relationship.syncable = bool(value, name, element)
            default: unknownAttribute(name, element)
            }
        }
        if relationship.renamingIdentifier == nil {
            relationship.renamingIdentifier = nonStandardRenamingIdentifier
        }
        guard requireName(relationship.name, element) else { return nil }
        relationship.userInfo = readPropertyChildren(element)
        return relationship
    }

    /// The children of an attribute or relationship: only `<userInfo>` is defined.
    private mutating func readPropertyChildren(_ element: XMLTree.Element) -> [UserInfoEntry] {
        var userInfo: [UserInfoEntry] = []
        for child in element.children {
            if child.name == "userInfo" {
                userInfo += readUserInfo(child)
            } else {
                unknownElement(child, in: element)
            }
        }
        return userInfo
    }

    private mutating func readFetchedProperty(_ element: XMLTree.Element) -> FetchedProperty? {
        var name = ""
        var isOptional = false
        var syncable = false
        for (attributeName, value) in element.attributes {
            switch attributeName {
            case "name": name = value
            case "optional": isOptional = bool(value, attributeName, element)
            case "syncable": syncable = bool(value, attributeName, element)
            default: unknownAttribute(attributeName, element)
            }
        }
        guard requireName(name, element) else { return nil }
        var request: FetchRequestTemplate?
        var userInfo: [UserInfoEntry] = []
        for child in element.children {
            switch child.name {
            case "fetchRequest":
                if request != nil {
                    warning("fetched property '\(name)' has more than one <fetchRequest>; using the first", child)
                } else {
                    request = readFetchRequest(child)
                }
            case "userInfo": userInfo += readUserInfo(child)
            default: unknownElement(child, in: element)
            }
        }
        guard let request else {
            error("fetched property '\(name)' has no <fetchRequest>", element)
            return nil
        }
        return FetchedProperty(
            name: name, isOptional: isOptional, fetchRequest: request, syncable: syncable,
            userInfo: userInfo, location: element.location)
    }

    // MARK: - Fetch requests, configurations, composites

    private mutating func readFetchRequest(_ element: XMLTree.Element) -> FetchRequestTemplate? {
        var request = FetchRequestTemplate(name: "", entity: "", location: element.location)
        var hasEntity = false
        for (name, value) in element.attributes {
            switch name {
            case "name": request.name = value
            case "entity": request.entity = value; hasEntity = true
            case "predicateString": request.predicateString = value
            case "fetchLimit": request.fetchLimit = integer(value, name, element)
            case "fetchBatchSize": request.fetchBatchSize = integer(value, name, element)
            case "resultType":
                if let raw = integer(value, name, element) {
                    if let type = FetchRequestTemplate.ResultType(rawValue: raw) {
                        request.resultType = type
                    } else {
                        warning("unknown resultType '\(value)'; reading it as managed objects", element)
                    }
                }
            case "includeSubentities": request.includesSubentities = bool(value, name, element)
            case "includePropertyValues": request.includesPropertyValues = bool(value, name, element)
            case "includesPendingChanges": request.includesPendingChanges = bool(value, name, element)
            case "returnObjectsAsFaults": request.returnsObjectsAsFaults = bool(value, name, element)
            case "returnDistinctResults": request.returnsDistinctResults = bool(value, name, element)
            default: unknownAttribute(name, element)
            }
        }
        guard requireName(request.name, element) else { return nil }
        if !hasEntity || request.entity.isEmpty {
            error("<fetchRequest> '\(request.name)' has no 'entity'", element)
            return nil
        }
        for child in element.children { unknownElement(child, in: element) }
        return request
    }

    private mutating func readConfiguration(_ element: XMLTree.Element) -> Configuration? {
        var configuration = Configuration(name: "", location: element.location)
        for (name, value) in element.attributes {
            switch name {
            case "name": configuration.name = value
            case "usedWithCloudKit": configuration.usedWithCloudKit = bool(value, name, element)
            default: unknownAttribute(name, element)
            }
        }
        guard requireName(configuration.name, element) else { return nil }
        for child in element.children {
            if child.name == "memberEntity" {
                if let member = readSingleValue(child, attribute: "name") {
                    configuration.memberEntities.append(member)
                }
            } else {
                unknownElement(child, in: element)
            }
        }
        return configuration
    }

    private mutating func readComposite(_ element: XMLTree.Element) -> Composite? {
        var composite = Composite(name: "", location: element.location)
        for (name, value) in element.attributes {
            if name == "name" {
                composite.name = value
            } else {
                unknownAttribute(name, element)
            }
        }
        guard requireName(composite.name, element) else { return nil }
        for child in element.children {
            if child.name == "attribute" {
                if let attribute = readAttribute(child) { composite.attributes.append(attribute) }
            } else {
                unknownElement(child, in: element)
            }
        }
        return composite
    }

    // MARK: - Indexes, constraints, user info

    private mutating func readFetchIndex(_ element: XMLTree.Element) -> FetchIndex? {
        var index = FetchIndex(name: "", location: element.location)
        for (name, value) in element.attributes {
            if name == "name" {
                index.name = value
            } else {
                unknownAttribute(name, element)
            }
        }
        guard requireName(index.name, element) else { return nil }
        for child in element.children {
            guard child.name == "fetchIndexElement" else {
                unknownElement(child, in: element)
                continue
            }
            var indexElement = FetchIndex.Element()
            for (name, value) in child.attributes {
                switch name {
                case "property": indexElement.property = value
                case "expression": indexElement.expression = value
                case "expressionType": indexElement.expressionType = value
                case "type": indexElement.type = value
                case "order":
                    switch value.lowercased() {
                    case "ascending": indexElement.ascending = true
                    case "descending": indexElement.ascending = false
                    default: warning("unknown order '\(value)'; expected ascending or descending", child)
                    }
                default: unknownAttribute(name, child)
                }
            }
            if indexElement.property == nil && indexElement.expression == nil {
                error("<fetchIndexElement> of fetch index '\(index.name)' names neither a property nor an expression", child)
                continue
            }
            index.elements.append(indexElement)
        }
        return index
    }

    /// `<uniquenessConstraints>` and `<compoundIndexes>` share a shape: a list of lists of
    /// `<item value="…"/>`.
    private mutating func readValueLists(_ element: XMLTree.Element, list: String, item: String) -> [[String]] {
        for (name, _) in element.attributes { unknownAttribute(name, element) }
        var lists: [[String]] = []
        for listElement in element.children {
            guard listElement.name == list else {
                unknownElement(listElement, in: element)
                continue
            }
            for (name, _) in listElement.attributes { unknownAttribute(name, listElement) }
            var values: [String] = []
            for itemElement in listElement.children {
                guard itemElement.name == item else {
                    unknownElement(itemElement, in: listElement)
                    continue
                }
                if let value = readSingleValue(itemElement, attribute: "value") { values.append(value) }
            }
            if values.isEmpty {
                warning("empty <\(list)> ignored", listElement)
            } else {
                lists.append(values)
            }
        }
        return lists
    }

    private mutating func readUserInfo(_ element: XMLTree.Element) -> [UserInfoEntry] {
        for (name, _) in element.attributes { unknownAttribute(name, element) }
        var entries: [UserInfoEntry] = []
        for child in element.children {
            guard child.name == "entry" else {
                unknownElement(child, in: element)
                continue
            }
            var key: String?
            var value: String?
            for (name, text) in child.attributes {
                switch name {
                case "key": key = text
                case "value": value = text
                default: unknownAttribute(name, child)
                }
            }
            guard let key else {
                warning("user info <entry> without a 'key' ignored", child)
                continue
            }
            if value == nil { warning("user info entry '\(key)' has no 'value'; reading it as empty", child) }
            entries.append(UserInfoEntry(key: key, value: value ?? ""))
        }
        return entries
    }

    /// An element such as `<memberEntity name="…"/>` or `<constraint value="…"/>`.
    private mutating func readSingleValue(_ element: XMLTree.Element, attribute: String) -> String? {
        var result: String?
        for (name, value) in element.attributes {
            if name == attribute { result = value } else { unknownAttribute(name, element) }
        }
        for child in element.children { unknownElement(child, in: element) }
        if result == nil { error("<\(element.name)> has no '\(attribute)'", element) }
        return result
    }

    // MARK: - Values and diagnostics

    /// Every element read with a name starts from "": an empty name is a missing one.
    private mutating func requireName(_ name: String, _ element: XMLTree.Element) -> Bool {
        if name.isEmpty {
            error("<\(element.name)> has no name", element)
            return false
        }
        return true
    }

    /// Xcode writes `YES`; `NO`, `true`, `false`, `1` and `0` occur in hand-written files.
    private mutating func bool(_ value: String, _ name: String, _ element: XMLTree.Element) -> Bool {
        // What Xcode writes, before folding case (which makes a new string).
        if value == "YES" { return true }
        if value == "NO" { return false }
        switch value.lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0", "": return false
        default:
            warning("'\(name)' should be YES or NO, not '\(value)'; reading it as NO", element)
            return false
        }
    }

    private mutating func integer(_ value: String, _ name: String, _ element: XMLTree.Element) -> Int? {
        if let number = Int(value.trimmingSpaces) { return number }
        warning("'\(name)' should be an integer, not '\(value)'; ignored", element)
        return nil
    }

    private mutating func double(_ value: String, _ name: String, _ element: XMLTree.Element) -> Double? {
        if let number = Double(value.trimmingSpaces), number.isFinite { return number }
        warning("'\(name)' should be a number, not '\(value)'; ignored", element)
        return nil
    }

    private mutating func unknownAttribute(_ name: String, _ element: XMLTree.Element) {
        warning("unknown attribute '\(name)' on <\(element.name)> ignored", element)
    }

    private mutating func unknownElement(_ element: XMLTree.Element, in parent: XMLTree.Element) {
        warning("unknown element <\(element.name)> in <\(parent.name)> ignored", element)
    }

    private mutating func warning(_ message: String, _ element: XMLTree.Element) {
        diagnostics.append(.warning(message, at: element.location))
    }

    private mutating func error(_ message: String, _ element: XMLTree.Element) {
        diagnostics.append(.error(message, at: element.location))
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? start
        return self[start..<end]
    }
}
