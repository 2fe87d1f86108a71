import Foundation

// Relationships by property index, as generated accessors use them. Every change goes through
// `link` and `unlink`, which keep the inverse relationship in step: setting `tweet.tweeter`
// puts the tweet in the user's `tweets`, a one-to-one "steals" the destination from its
// previous owner, and an object moved to a new owner leaves the old one.
extension ManagedObject {
    // MARK: Reading

    /// The to-one at `index`, reading it from the store on first use.
    func resolvedToOne(at index: Int) -> ManagedObject? {
        switch values[index] {
        case let object as ManagedObject:
            return object
        case let pending as PendingRelationship:
            let object = pending.ids.first.flatMap { managedObjectContext?.registeredOrStoredObject(with: $0) }
            values[index] = object
            return object
        default:
            return nil
        }
    }

    /// The to-many at `index` in its stored order, reading it from the store on first use.
    func resolvedToMany(at index: Int) -> OrderedSet<ManagedObject> {
        let value = values[index]
        // The resolved set, the common case, by a metadata comparison (`ManagedObject.cast`):
        // a pattern cast from `Any` to a generic struct is a dynamic cast on every use.
        if let value, let objects: OrderedSet<ManagedObject> = Self.cast(value) { return objects }
        switch value {
        case let objects as OrderedSet<ManagedObject>:
            return objects
        case let pending as PendingRelationship:
            let ids = pending.isFault
                ? managedObjectContext?.relatedObjectIDs(of: self, relationship: relationshipDescription(at: index)) ?? []
                : pending.ids
            let objects = OrderedSet(ids.compactMap { managedObjectContext?.registeredOrStoredObject(with: $0) })
            values[index] = objects
            return objects
        default:
            return []
        }
    }

    /// The objects a relationship holds, whatever its kind.
    func relatedObjects(_ relationship: RelationshipDescription) -> [ManagedObject] {
        if relationship.isToMany { return Array(resolvedToMany(at: relationship.index)) }
        return resolvedToOne(at: relationship.index).map { [$0] } ?? []
    }

    /// The to-one at `index`, typed.
    public func toOneRelationship<Destination: ManagedObject>(at index: Int) -> Destination? {
        resolvedToOne(at: index).map { Self.cast($0, at: index, of: self) }
    }

    /// The unordered to-many at `index`, typed.
    public func relationship<Destination: ManagedObject>(at index: Int) -> Set<Destination> {
        Set(resolvedToMany(at: index).map { object -> Destination in Self.cast(object, at: index, of: self) })
    }

    /// The ordered to-many at `index`, typed.
    public func orderedRelationship<Destination: ManagedObject>(at index: Int) -> OrderedSet<Destination> {
        OrderedSet(resolvedToMany(at: index).map { object -> Destination in Self.cast(object, at: index, of: self) })
    }

    private static func cast<Destination: ManagedObject>(
        _ object: ManagedObject, at index: Int, of owner: ManagedObject
    ) -> Destination {
        guard let typed = object as? Destination else {
            preconditionFailure("""
                \(owner.entity.name).\(owner.property(at: index).name) holds a \(type(of: object)), \
                not a \(Destination.self); is the entity's class registered in the ManagedObjectModel?
                """)
        }
        return typed
    }

    // MARK: Writing

    /// Sets the to-one at `index`; the inverse follows.
    public func setToOneRelationship(_ object: ManagedObject?, at index: Int) {
        let relationship = relationshipDescription(at: index)
        if let object {
            link(object, via: relationship)
        } else if let current = resolvedToOne(at: index) {
            unlink(current, via: relationship)
        }
    }

    /// Replaces the unordered to-many at `index`; inverses follow.
    public func setRelationship<Destination: ManagedObject>(_ objects: Set<Destination>, at index: Int) {
        let relationship = relationshipDescription(at: index)
        // Keep the current order of objects that stay, then the new ones: saves stay stable.
        let current = resolvedToMany(at: index)
        var ordered = OrderedSet(current.filter { ($0 as? Destination).map(objects.contains) ?? false })
        for object in objects { ordered.append(object) }
        setRelatedObjects(ordered, relationship)
    }

    /// Replaces the ordered to-many at `index`, in the given order; inverses follow.
    public func setOrderedRelationship<Destination: ManagedObject>(_ objects: OrderedSet<Destination>, at index: Int) {
        setRelatedObjects(OrderedSet(objects.lazy.map { $0 as ManagedObject }), relationshipDescription(at: index))
    }

    /// Adds objects to the to-many at `index` (appending, when ordered).
    public func addToRelationship<Objects: Sequence>(_ objects: Objects, at index: Int)
    where Objects.Element: ManagedObject {
        let relationship = relationshipDescription(at: index)
        for object in objects { link(object, via: relationship) }
    }

    /// Removes objects from the to-many at `index`.
    public func removeFromRelationship<Objects: Sequence>(_ objects: Objects, at index: Int)
    where Objects.Element: ManagedObject {
        let relationship = relationshipDescription(at: index)
        for object in objects { unlink(object, via: relationship) }
    }

    /// Inserts objects into the ordered to-many at `propertyIndex` so that they end up at
    /// `indexes` (Core Data's `insertObjects(_:at:)`). An object already there moves.
    public func insertIntoRelationship<Destination: ManagedObject>(
        _ objects: [Destination], at indexes: IndexSet, propertyIndex: Int
    ) {
        let relationship = relationshipDescription(at: propertyIndex)
        precondition(objects.count == indexes.count,
                     "\(entity.name).\(relationship.name): \(objects.count) objects for \(indexes.count) indexes")
        var ordered = Array(resolvedToMany(at: propertyIndex))
        ordered.removeAll { object in objects.contains { $0 === object } }
        for (position, object) in zip(indexes, objects) {
            precondition(position <= ordered.count,
                         "\(entity.name).\(relationship.name): index \(position) beyond \(ordered.count)")
            ordered.insert(object, at: position)
        }
        setRelatedObjects(OrderedSet(ordered), relationship)
    }

    /// Removes the objects at `indexes` of the ordered to-many at `propertyIndex`.
    public func removeFromRelationship(at indexes: IndexSet, propertyIndex: Int) {
        let relationship = relationshipDescription(at: propertyIndex)
        var ordered = Array(resolvedToMany(at: propertyIndex))
        for position in indexes.reversed() {
            precondition(ordered.indices.contains(position),
                         "\(entity.name).\(relationship.name): no object at index \(position)")
            ordered.remove(at: position)
        }
        setRelatedObjects(OrderedSet(ordered), relationship)
    }

    /// Replaces the objects at `indexes` of the ordered to-many at `propertyIndex`.
    public func replaceInRelationship<Destination: ManagedObject>(
        at indexes: IndexSet, with objects: [Destination], propertyIndex: Int
    ) {
        let relationship = relationshipDescription(at: propertyIndex)
        precondition(objects.count == indexes.count,
                     "\(entity.name).\(relationship.name): \(objects.count) objects for \(indexes.count) indexes")
        let current = resolvedToMany(at: propertyIndex)
        for position in indexes {
            precondition(current.indices.contains(position),
                         "\(entity.name).\(relationship.name): no object at index \(position)")
        }
        let replacements = Dictionary(zip(indexes, objects.map { $0 as ManagedObject }),
                                      uniquingKeysWith: { first, _ in first })
        // An incoming object that was already elsewhere in the set moves to its new position.
        let incoming = Set(objects.map(ObjectIdentifier.init))
        var ordered: [ManagedObject] = []
        for (position, object) in current.enumerated() {
            if let replacement = replacements[position] {
                ordered.append(replacement)
            } else if !incoming.contains(ObjectIdentifier(object)) {
                ordered.append(object)
            }
        }
        setRelatedObjects(OrderedSet(ordered), relationship)
    }

    /// Makes the to-many hold exactly `objects`, in that order: unlinks the ones that left,
    /// links the ones that came, then stores the order.
    func setRelatedObjects(_ objects: OrderedSet<ManagedObject>, _ relationship: RelationshipDescription) {
        precondition(relationship.isToMany, "\(entity.name).\(relationship.name) is a to-one")
        let current = resolvedToMany(at: relationship.index)
        for object in current where !objects.contains(object) {
            unlink(object, via: relationship)
        }
        for object in objects where !current.contains(object) {
            link(object, via: relationship)
        }
        if resolvedToMany(at: relationship.index).elements != objects.elements {
            willChangeValue(at: relationship.index)
            values[relationship.index] = objects
        }
    }

    // MARK: Inverse maintenance

    /// Relates `object` to this one through `relationship`, and this one to `object` through
    /// the inverse: a to-one on either side first leaves its previous object.
    func link(_ object: ManagedObject, via relationship: RelationshipDescription) {
        if contextIdentity != object.contextIdentity,
           let mine = managedObjectContext, let theirs = object.managedObjectContext, mine !== theirs {
            preconditionFailure("""
                Illegal attempt to relate objects in different contexts: \
                \(entity.name).\(relationship.name) = \(object.objectID)
                """)
        }
        attach(object, via: relationship)
        if let inverse = relationship.inverseRelationship {
            object.attach(self, via: inverse)
        }
    }

    /// Relates `object` on this side only, first detaching a previous to-one (both sides).
    private func attach(_ object: ManagedObject, via relationship: RelationshipDescription) {
        let index = relationship.index
        if relationship.isToMany {
            recordToManyForUndo()
            if deferAppend(object, toManyAt: index) { return }
            // One look-up: the append tells whether the object was there. The change is
            // recorded after it, which nothing between the two can observe.
            var added = false
            modifyToMany(at: index) { added = $0.append(object).inserted }
            if added { willChangeValue(at: index) }
        } else {
            let current = resolvedToOne(at: index)
            guard current !== object else { return }
            if let current { unlink(current, via: relationship) }
            willChangeValue(at: index)
            values[index] = object
        }
    }

    /// Removes `object` from `relationship`, and this object from the inverse.
    func unlink(_ object: ManagedObject, via relationship: RelationshipDescription) {
        detach(object, via: relationship)
        if let inverse = relationship.inverseRelationship {
            object.detach(self, via: inverse)
        }
    }

    private func detach(_ object: ManagedObject, via relationship: RelationshipDescription) {
        let index = relationship.index
        if relationship.isToMany {
            recordToManyForUndo()
            var removed = false
            modifyToMany(at: index) { removed = $0.remove(object) != nil }
            if removed { willChangeValue(at: index) }
        } else {
            guard resolvedToOne(at: index) === object else { return }
            willChangeValue(at: index)
            values[index] = nil
        }
    }

    /// A to-many's change is recorded after it (above), too late for an undo, which needs the
    /// values before it: with an undo manager, they are recorded first.
    private func recordToManyForUndo() {
        if let context = managedObjectContext, context.undoManager != nil { context.recordForUndo(self) }
    }

    /// Changes a resolved to-many in place. Otherwise the set is taken out of `values` first so
    /// that it is uniquely referenced: adding one object to a large set does not copy it.
    func modifyToMany(at index: Int, _ change: (inout OrderedSet<ManagedObject>) -> Void) {
        if modifyInPlace(at: index, as: OrderedSet<ManagedObject>.self, change) { return }
        var objects = resolvedToMany(at: index)
        values[index] = nil
        change(&objects)
        values[index] = objects
    }
}

extension ManagedObject {
    /// Whether using the relationship would read the store: its members are not objects yet,
    /// or one of them is a fault (Core Data's `hasFault(forRelationshipNamed:)`). `false` for a
    /// name that is not a relationship.
    public func hasFaultForRelationship(named name: String) -> Bool {
        guard let relationship = entity.relationship(named: name) else { return false }
        if isFault { return true }
        switch values[relationship.index] {
        case is PendingRelationship: return true
        case let object as ManagedObject: return object.isFault
        case let objects as OrderedSet<ManagedObject>: return objects.contains(where: \.isFault)
        default: return false
        }
    }
}
