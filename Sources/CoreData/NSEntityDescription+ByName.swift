import ManagedObjects

extension EntityDescription {
    /// Core Data's `attributesByName`: the entity's attributes, inherited ones included.
    public var attributesByName: [String: AttributeDescription] {
        Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Core Data's `relationshipsByName`: the entity's relationships, inherited ones included.
    public var relationshipsByName: [String: RelationshipDescription] {
        Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension AttributeDescription {
    /// Core Data's `userInfo`: the model's user-info entries (an empty dictionary when none).
    public var userInfo: [AnyHashable: Any]? {
        Dictionary(attribute.userInfo.map { ($0.key, $0.value as Any) }, uniquingKeysWith: { first, _ in first })
    }
}

extension RelationshipDescription {
    /// Core Data's `userInfo`: the model's user-info entries (an empty dictionary when none).
    public var userInfo: [AnyHashable: Any]? {
        Dictionary(relationship.userInfo.map { ($0.key, $0.value as Any) }, uniquingKeysWith: { first, _ in first })
    }
}
