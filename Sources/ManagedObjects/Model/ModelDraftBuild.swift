import DataModel

/// The `Model` a model built in code describes (``ManagedObjectModel/init()``), and what is
/// wrong with it: what the objects say that a `Model` cannot (an entity or property in two
/// places, a destination outside the model, a default value a model cannot keep), then every
/// error `ModelValidator` finds, as for a model file. Names only: the `Model` names entities
/// and properties, and the runtime resolves them from it as for any model.
struct ModelDraftBuild {
    let model: Model
    /// Each problem, naming the entity and property it concerns; empty when the model is usable.
    let problems: [String]

    init(entities descriptions: [EntityDescription], configurations: [(name: String, entities: [EntityDescription])]) {
        var problems: [String] = []
        let members = Set(descriptions.map(ObjectIdentifier.init))
        func isMember(_ entity: EntityDescription) -> Bool { members.contains(ObjectIdentifier(entity)) }
        var seen: Set<ObjectIdentifier> = []
        var entities: [Entity] = []
        for (position, description) in descriptions.enumerated() {
            let label = description.name.isEmpty ? "entity #\(position + 1)" : "entity '\(description.name)'"
            guard seen.insert(ObjectIdentifier(description)).inserted else {
                problems.append("\(label) is in the model twice")
                continue
            }
            guard let draft = description.draft else {
                problems.append("\(label) belongs to another model, which is in use")
                continue
            }
            if description.name.isEmpty { problems.append("\(label) has no name") }
            var entity = description.entity
            entity.parentEntity = draft.superentity?.name
            if let parent = draft.superentity, !isMember(parent) {
                problems.append("\(label): its superentity '\(parent.name)' is not in the model")
            }
            entity.attributes = []
            entity.relationships = []
            entity.fetchedProperties = []
            for property in draft.properties {
                let propertyLabel = "property '\(property.name)' of \(label)"
                if property.name.isEmpty { problems.append("\(label) has a property with no name") }
                if property.entity !== description {
                    problems.append("\(propertyLabel) is a property of entity '\(property.entity?.name ?? "?")' too")
                }
                switch property.kind {
                case .attribute(let attribute):
                    entity.attributes.append(attribute.attribute)
                    if let type = attribute.unrepresentableDefaultType {
                        problems.append("\(propertyLabel): a model cannot keep a default value of type \(type) "
                            + "(numbers, strings, Booleans, dates, UUIDs and URLs)")
                    }
                case .relationship(let relationship):
                    var value = relationship.relationship
                    value.destinationEntity = relationship.destinationEntity?.name
                    if let destination = relationship.destinationEntity {
                        if !isMember(destination) {
                            problems.append("\(propertyLabel): its destination entity '\(destination.name)' is not in the model")
                        }
                    } else {
                        problems.append("\(propertyLabel) has no destination entity")
                    }
                    value.inverseName = relationship.inverseRelationship?.name
                    value.inverseEntity = relationship.inverseRelationship?.entity?.name
                    if let inverse = relationship.inverseRelationship, inverse.entity == nil {
                        problems.append("\(propertyLabel): its inverse relationship '\(inverse.name)' is in no entity")
                    }
                    entity.relationships.append(value)
                case .fetchedProperty(let fetched):
                    entity.fetchedProperties.append(fetched.fetchedProperty)
                }
            }
            entity.uniquenessConstraints = draft.uniquenessConstraints.compactMap { constraint in
                let names = constraint.compactMap { element -> String? in
                    switch element {
                    case let name as String: return name
                    case let property as PropertyDescription: return property.name
                    default:
                        problems.append("\(label): a uniqueness constraint holds a \(type(of: element)), not a property or its name")
                        return nil
                    }
                }
                // Core Data code writes `[[]]` for no constraint.
                return names.isEmpty ? nil : names
            }
            entity.fetchIndexes = draft.indexes.map { FetchIndex(name: $0.name, elements: $0.elements.map(\.modelElement)) }
            entities.append(entity)
        }
        model = Model(
            entities: entities,
            configurations: configurations.map { Configuration(name: $0.name, memberEntities: $0.entities.map(\.name)) })
        self.problems = problems + ModelValidator().validate(model).filter { $0.severity == .error }.map(\.message)
    }
}
