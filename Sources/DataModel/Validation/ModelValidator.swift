/// Checks a model the way Xcode's model compiler does, reporting what would make the model
/// unusable as errors and what is legal but suspicious as warnings, each at the element it
/// concerns.
///
/// Errors: a required attribute without a type that is not transient; a relationship without
/// a destination that requires an object (a required to-one, or a to-many with a minimum
/// count); a missing parent entity or an inheritance cycle; duplicate entity, property,
/// composite, fetch request or configuration names; a property that redeclares an inherited
/// one; an inverse that is not a relationship of the destination, or does not lead back to
/// the source entity (or one related to it by inheritance); a composite attribute naming no
/// or an unknown composite, or composites that contain themselves; a fetch request or
/// configuration naming an unknown entity; a uniqueness constraint or index naming an unknown
/// property.
///
/// Warnings: a relationship without an inverse (as in Xcode); an inverse whose own inverse is
/// another relationship (an inverse mismatch: Xcode builds it, and each side keeps the inverse
/// it names); an optional attribute without a type that is not transient (it can only be nil)
/// and a relationship without a destination that requires no object (it can only be empty),
/// which Xcode rejects but real models keep; a destination entity that is not in the model
/// (such a relationship cannot be resolved); `ordered` on a to-one; `minCount` above
/// `maxCount`; a configuration listing an entity twice. (The test fixtures under
/// Tests/DataModelTests/Fixtures/XcodeWarnings hold a model for each.)
public struct ModelValidator: Sendable {
    public init() {}

    public func validate(_ model: Model) -> [Diagnostic] {
        var check = ValidationPass(model: model)
        check.run()
        return check.diagnostics
    }
}

private struct ValidationPass {
    let model: Model
    var diagnostics: [Diagnostic] = []
    /// The first entity of each name: later duplicates are reported, not used.
    private let entitiesByName: [String: Entity]

    init(model: Model) {
        self.model = model
        var entitiesByName: [String: Entity] = [:]
        for entity in model.entities where entitiesByName[entity.name] == nil {
            entitiesByName[entity.name] = entity
        }
        self.entitiesByName = entitiesByName
    }

    /// The entity and its ancestors, the entity first; stops at a missing parent or a cycle.
    /// (`Model.inheritanceChain(of:)` answers the same, root first, by linear lookups; this
    /// pass looks entities up by name because it asks for every entity.)
    private func lineage(of entity: Entity) -> [Entity] {
        var chain = [entity]
        var current = entity
        while let parentName = current.parentEntity, let parent = entitiesByName[parentName],
              !chain.contains(where: { $0.name == parentName }) {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// The attribute or relationship named `name` of the entity or its nearest ancestor.
    private func storedProperty(named name: String, of entity: Entity) -> PropertyDeclaration? {
        for ancestor in lineage(of: entity) {
            if let relationship = ancestor.relationships.first(where: { $0.name == name }) {
                return .relationship(relationship)
            }
            if let attribute = ancestor.attributes.first(where: { $0.name == name }) {
                return .attribute(attribute)
            }
        }
        return nil
    }

    mutating func run() {
        checkUniqueNames(model.entities.map { ($0.name, $0.location) }, kind: "entity")
        checkUniqueNames(model.composites.map { ($0.name, $0.location) }, kind: "composite")
        checkUniqueNames(model.fetchRequests.map { ($0.name, $0.location) }, kind: "fetch request")
        checkUniqueNames(model.configurations.map { ($0.name, $0.location) }, kind: "configuration")
        checkInheritance()
        for entity in model.entities {
            checkProperties(of: entity)
            for attribute in entity.attributes {
                checkAttribute(attribute, owner: "\(entity.name).\(attribute.name)")
            }
            for relationship in entity.relationships {
                checkRelationship(relationship, of: entity)
            }
            for property in entity.fetchedProperties {
                checkEntityReference(
                    property.fetchRequest.entity,
                    what: "the fetch request of fetched property '\(entity.name).\(property.name)'",
                    at: property.fetchRequest.location ?? property.location ?? entity.location)
            }
            checkConstraintsAndIndexes(of: entity)
        }
        checkComposites()
        for request in model.fetchRequests {
            checkEntityReference(request.entity, what: "fetch request '\(request.name)'", at: request.location)
        }
        for configuration in model.configurations {
            checkConfiguration(configuration)
        }
    }

    // MARK: - Names and inheritance

    private mutating func checkUniqueNames(_ names: [(String, SourceLocation?)], kind: String) {
        var first: [String: SourceLocation?] = [:]
        for (name, location) in names {
            if let earlier = first[name] {
                error("duplicate \(kind) '\(name)'\(Self.firstDeclared(earlier))", at: location)
            } else {
                first[name] = location
            }
        }
    }

    private mutating func checkInheritance() {
        var reportedCycles: Set<String> = []
        for entity in model.entities {
            guard let parentName = entity.parentEntity else { continue }
            guard entitiesByName[parentName] != nil else {
                error("parent entity '\(parentName)' of entity '\(entity.name)' is not in the model", at: entity.location)
                continue
            }
            // Walk up; coming back to this entity is a cycle.
            var path = [entity.name]
            var current = parentName
            while let ancestor = entitiesByName[current] {
                if current == entity.name {
                    let cycle = Set(path)
                    if reportedCycles.isDisjoint(with: cycle) {
                        reportedCycles.formUnion(cycle)
                        error(
                            "entity '\(entity.name)' inherits from itself: \((path + [current]).joined(separator: " → "))",
                            at: entity.location)
                    }
                    break
                }
                if path.contains(current) { break }  // a cycle above this entity, reported there
                path.append(current)
                guard let next = ancestor.parentEntity else { break }
                current = next
            }
        }
    }

    private mutating func checkProperties(of entity: Entity) {
        var declared: [String: SourceLocation?] = [:]
        let properties: [(String, String, SourceLocation?)] =
            entity.attributes.map { ("attribute", $0.name, $0.location) }
            + entity.relationships.map { ("relationship", $0.name, $0.location) }
            + entity.fetchedProperties.map { ("fetched property", $0.name, $0.location) }
        var inherited: [String: String] = [:]
        for ancestor in lineage(of: entity).dropFirst().reversed() {
            for name in ancestor.propertyNames where inherited[name] == nil {
                inherited[name] = ancestor.name
            }
        }
        for (kind, name, location) in properties {
            if let earlier = declared[name] {
                error("duplicate property '\(name)' in entity '\(entity.name)'\(Self.firstDeclared(earlier))", at: location)
                continue
            }
            declared[name] = location
            if let ancestor = inherited[name] {
                error(
                    "\(kind) '\(entity.name).\(name)' redeclares the property '\(name)' inherited from '\(ancestor)'",
                    at: location)
            }
        }
    }

    // MARK: - Attributes and composites

    private mutating func checkAttribute(_ attribute: Attribute, owner: String) {
        switch attribute.type {
        case .undefined where !attribute.isTransient:
            if attribute.isOptional {
                warning(
                    "attribute '\(owner)' has no type and is not transient; it can only ever be nil",
                    at: attribute.location)
            } else {
                error(
                    "attribute '\(owner)' has no type and is not transient; a required attribute needs a type",
                    at: attribute.location)
            }
        case .composite:
            if let compositeName = attribute.composite {
                if model.composite(named: compositeName) == nil {
                    error(
                        "attribute '\(owner)' uses composite '\(compositeName)', which is not in the model",
                        at: attribute.location)
                }
            } else {
                error("composite attribute '\(owner)' names no composite", at: attribute.location)
            }
        default:
            if let compositeName = attribute.composite {
                warning(
                    "attribute '\(owner)' names composite '\(compositeName)' but its type is \(attribute.type.rawValue); the composite is ignored",
                    at: attribute.location)
            }
        }
    }

    private mutating func checkComposites() {
        for composite in model.composites {
            checkUniqueNames(composite.attributes.map { ($0.name, $0.location) }, kind: "attribute in composite '\(composite.name)'")
            for attribute in composite.attributes {
                checkAttribute(attribute, owner: "\(composite.name).\(attribute.name)")
            }
        }
        // A composite that contains itself, directly or through others, has no finite layout.
        var reported: Set<String> = []
        for composite in model.composites where !reported.contains(composite.name) {
            var stack = [(composite.name, [composite.name])]
            var visited: Set<String> = []
            while let (name, path) = stack.popLast() {
                guard visited.insert(name).inserted, let current = model.composite(named: name) else { continue }
                for attribute in current.attributes where attribute.type == .composite {
                    guard let inner = attribute.composite else { continue }
                    if inner == composite.name {
                        reported.formUnion(path)
                        error(
                            "composite '\(composite.name)' contains itself: \((path + [inner]).joined(separator: " → "))",
                            at: composite.location)
                    } else {
                        stack.append((inner, path + [inner]))
                    }
                }
            }
        }
    }

    // MARK: - Relationships

    private mutating func checkRelationship(_ relationship: Relationship, of entity: Entity) {
        let qualifiedName = "\(entity.name).\(relationship.name)"
        let location = relationship.location
        if relationship.isOrdered && !relationship.isToMany {
            warning("relationship '\(qualifiedName)' is ordered but to-one; ordered is ignored", at: location)
        }
        if let minimum = relationship.minCount, let maximum = relationship.maxCount, maximum > 0, minimum > maximum {
            warning("relationship '\(qualifiedName)' has minCount \(minimum) above maxCount \(maximum)", at: location)
        }
        guard let destinationName = relationship.destinationEntity, !destinationName.isEmpty else {
            if relationship.requiresDestinationObject {
                error(
                    "relationship '\(qualifiedName)' has no destination entity, but requires an object",
                    at: location)
            } else {
                warning(
                    "relationship '\(qualifiedName)' has no destination entity; it can only ever be empty",
                    at: location)
            }
            return
        }
        guard let destination = entitiesByName[destinationName] else {
            warning(
                "destination entity '\(destinationName)' of relationship '\(qualifiedName)' is not in the model",
                at: location)
            return
        }
        guard let inverseName = relationship.inverseName, !inverseName.isEmpty else {
            if let inverseEntity = relationship.inverseEntity {
                warning(
                    "relationship '\(qualifiedName)' names inverseEntity '\(inverseEntity)' but no inverseName; it has no inverse",
                    at: location)
            } else {
                warning("relationship '\(qualifiedName)' has no inverse", at: location)
            }
            return
        }
        if let inverseEntity = relationship.inverseEntity, inverseEntity != destinationName {
            error(
                "the inverse of relationship '\(qualifiedName)' is declared on '\(inverseEntity)', but its destination is '\(destinationName)'",
                at: location)
            return
        }
        guard let inverseDeclaration = storedProperty(named: inverseName, of: destination) else {
            error(
                "the inverse '\(inverseName)' of relationship '\(qualifiedName)' is not a relationship of '\(destinationName)'",
                at: location)
            return
        }
        guard case .relationship(let inverse) = inverseDeclaration else {
            error(
                "the inverse '\(destinationName).\(inverseName)' of relationship '\(qualifiedName)' is an attribute, not a relationship",
                at: location)
            return
        }
        // The inverse must lead back to this entity, to an ancestor it inherits the inverse
        // from, or to a sub-entity (an inverse declared on a parent entity and used by a
        // relationship that leads to one of its sub-entities).
        if let back = inverse.destinationEntity, !isRelatedByInheritance(back, to: entity) {
            error(
                "the inverse '\(destinationName).\(inverseName)' of relationship '\(qualifiedName)' leads to '\(back)', not back to '\(entity.name)'",
                at: location)
        } else if let backName = inverse.inverseName, backName != relationship.name {
            // An inverse mismatch: Xcode's model compiler builds it (a real app's bundle has one);
            // each side keeps the inverse it names (Docs/RuntimeDifferences.md, "Models").
            warning(
                "relationship '\(qualifiedName)' names '\(destinationName).\(inverseName)' as its inverse, but that relationship's inverse is '\(backName)'",
                at: location)
        }
    }

    /// Whether `name` is the entity itself, one of its ancestors or one of its descendants.
    private func isRelatedByInheritance(_ name: String, to entity: Entity) -> Bool {
        if lineage(of: entity).contains(where: { $0.name == name }) { return true }
        guard let other = entitiesByName[name] else { return false }
        return lineage(of: other).contains { $0.name == entity.name }
    }

    // MARK: - Constraints, indexes, requests, configurations

    private mutating func checkConstraintsAndIndexes(of entity: Entity) {
        guard !entity.uniquenessConstraints.isEmpty || !entity.compoundIndexes.isEmpty
                || !entity.fetchIndexes.isEmpty else { return }
        let stored = Set(lineage(of: entity).flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
        for constraint in entity.uniquenessConstraints {
            checkStoredNames(constraint, in: entity, stored: stored, what: "a uniqueness constraint", at: entity.location)
        }
        for index in entity.compoundIndexes {
            checkStoredNames(index, in: entity, stored: stored, what: "a compound index", at: entity.location)
        }
        for index in entity.fetchIndexes {
            checkStoredNames(
                index.elements.compactMap(\.property), in: entity, stored: stored,
                what: "fetch index '\(index.name)'", at: index.location ?? entity.location)
        }
    }

    private mutating func checkStoredNames(
        _ names: [String], in entity: Entity, stored: Set<String>, what: String, at location: SourceLocation?
    ) {
        for name in names where !stored.contains(name) {
            error(
                "\(what) of entity '\(entity.name)' names '\(name)', which is not a stored property of the entity",
                at: location)
        }
    }

    private mutating func checkEntityReference(_ name: String, what: String, at location: SourceLocation?) {
        if entitiesByName[name] == nil {
            error("\(what) fetches entity '\(name)', which is not in the model", at: location)
        }
    }

    private mutating func checkConfiguration(_ configuration: Configuration) {
        var seen: Set<String> = []
        for member in configuration.memberEntities {
            if entitiesByName[member] == nil {
                error(
                    "configuration '\(configuration.name)' lists entity '\(member)', which is not in the model",
                    at: configuration.location)
            } else if !seen.insert(member).inserted {
                warning(
                    "configuration '\(configuration.name)' lists entity '\(member)' more than once",
                    at: configuration.location)
            }
        }
    }

    // MARK: - Reporting

    private static func firstDeclared(_ location: SourceLocation?) -> String {
        guard let location, location.line > 0 else { return "" }
        return " (first declared at line \(location.line))"
    }

    mutating func error(_ message: String, at location: SourceLocation?) {
        diagnostics.append(.error(message, at: location ?? model.location))
    }

    mutating func warning(_ message: String, at location: SourceLocation?) {
        diagnostics.append(.warning(message, at: location ?? model.location))
    }
}

extension Relationship {
    /// Whether every valid object must hold at least one destination object: a required to-one,
    /// or a to-many with a minimum count.
    fileprivate var requiresDestinationObject: Bool {
        isToMany ? (minCount ?? 0) > 0 : !isOptional
    }
}
