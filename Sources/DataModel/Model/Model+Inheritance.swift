extension Model {
    /// The entity and its ancestors, root first. Stops at a missing parent or a cycle
    /// (validation reports both), so it always terminates.
    public func inheritanceChain(of entity: Entity) -> [Entity] {
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentEntity, !seen.contains(parentName),
              let parent = self.entity(named: parentName) {
            chain.append(parent)
            seen.insert(parentName)
            current = parent
        }
        return chain.reversed()
    }

    /// The stored properties (attributes, then relationships) of an entity, inherited ones first,
    /// root entity first, each entity's own in declaration order.
    ///
    /// The position of a property in this list is its *property index*: the runtime stores an
    /// object's values in this order and generated accessors reach them by index. Because a
    /// sub-entity's list starts with its parent's list, an index is valid for sub-entities too.
    /// Fetched properties are not stored and are not in this list.
    public func storedProperties(of entity: Entity) -> [PropertyDeclaration] {
        inheritanceChain(of: entity).flatMap { ancestor in
            ancestor.attributes.map(PropertyDeclaration.attribute)
                + ancestor.relationships.map(PropertyDeclaration.relationship)
        }
    }

    /// Entities whose `parentEntity` is the given one, in model order.
    public func subentities(of entity: Entity) -> [Entity] {
        entities.filter { $0.parentEntity == entity.name }
    }
}

extension Model {
    /// A fingerprint of an entity's stored-property layout: each property's index, name, and
    /// what its storage holds (an attribute's type; a relationship's cardinality, order and
    /// destination). Generated classes reach values by property index, so a class carries the
    /// fingerprint of the layout it was generated for, and binding it to an entity whose
    /// layout differs is refused instead of reading the wrong values. FNV-1a, 64 bits: stable
    /// across runs and platforms, which Swift's `Hasher` is not.
    public func storedPropertyLayoutHash(of entity: Entity) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        for property in storedProperties(of: entity) {
            switch property {
            case .attribute(let attribute):
                add("\(attribute.name):\(attribute.type.rawValue);")
            case .relationship(let relationship):
                let cardinality = relationship.isToMany ? (relationship.isOrdered ? "ordered" : "many") : "one"
                add("\(relationship.name):\(cardinality) \(relationship.destinationEntity ?? "");")
            }
        }
        return hash
    }
}
