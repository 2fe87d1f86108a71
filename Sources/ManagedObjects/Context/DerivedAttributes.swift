import Foundation

/// Derived attributes (`NSDerivedAttributeDescription`) computed as Core Data computes them: at
/// each save to the store, for each inserted and updated object, from the derivation (a key
/// path, a to-one key path, an aggregate of a to-many such as `pages.@count`, `now()`,
/// `lowercase:`/`uppercase:`/`canonical:` of a string). A value app code sets is replaced by
/// the computed one, so what is stored is always the derivation's.
enum DerivedAttributes {
    /// Computes the derived attributes of the saved objects, and of the objects whose
    /// derivation reads a saved one through a relationship (an Item's `owner.name` when its
    /// Owner is renamed; an Owner's `items.@sum.price` when an item's price changes, as Core
    /// Data's triggers recompute them), setting the results on them.
    /// - Throws: `ManagedObjectError` (1550) naming the entity, the attribute and the derivation
    ///   when a derivation does not parse, or its value cannot be stored as the attribute's type.
    static func compute(for saved: [ManagedObject]) throws {
        var objects = saved
        var seen = Set(saved.map(ObjectIdentifier.init))
        for object in saved {
            for relationship in object.entity.relationships {
                guard let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity,
                      derives(from: inverse.name, inTreeOf: destination) else { continue }
                for related in object.relatedObjects(relationship) where seen.insert(ObjectIdentifier(related)).inserted {
                    objects.append(related)
                }
            }
        }
        var errors: [ManagedObjectError] = []
        for object in objects where !object.entity.derivedAttributes.isEmpty && !object.isDeleted {
            for attribute in object.entity.derivedAttributes {
                do {
                    try object.setAttributeValue(value(of: attribute, for: object), at: attribute.index)
                } catch {
                    errors.append(error)
                }
            }
        }
        if let error = ManagedObjectError.combining(errors) { throw error }
    }

    /// Whether `entity` or one of its sub-entities has a derivation reading the key `key`.
    private static func derives(from key: String, inTreeOf entity: EntityDescription) -> Bool {
        entity.derivedAttributes.contains { $0.derivationKeys.contains(key) }
            || entity.subentities.contains { derives(from: key, inTreeOf: $0) }
    }

    /// The derivation's value for `object`, in the attribute's storage type (`nil` when the
    /// key path reaches nothing, as Core Data stores NULL then).
    private static func value(of attribute: AttributeDescription, for object: ManagedObject) throws(ManagedObjectError) -> Any? {
        let format = attribute.attribute.derivationExpression ?? ""
        func failure(_ message: String) -> ManagedObjectError {
            ManagedObjectError(
                .validation, "\(object.entity.name).\(attribute.name): derivation '\(format)' \(message)",
                entityName: object.entity.name, objectID: object.objectID, key: attribute.name)
        }
        switch attribute.derivation {
        case nil:
            return nil
        case .failure(let error):
            throw failure("does not parse: \(error.message)")
        case .success(let expression):
            guard let value = expression.value(with: object) else { return nil }
            guard let stored = AttributeValues.coerce(value, to: attribute.type) else {
                throw failure("gives \(type(of: value)) \(value), which a \(attribute.type.rawValue) attribute cannot hold")
            }
            return stored
        }
    }
}
