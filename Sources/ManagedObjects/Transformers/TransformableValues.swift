import Foundation

/// A Transformable attribute's value to the `Data` a store keeps and back, through the value
/// transformer the model names (Core Data's `NSSecureUnarchiveFromData` when it names none).
/// Both SQL stores go through here; the in-memory store, like Core Data's, writes nothing and
/// keeps the value as it was set.
package enum TransformableValues {
    /// The transformer for `attribute`; a clear error naming it and the object when the model
    /// names one that is not registered.
    ///
    /// A model that names no transformer, or Core Data's default, gets the
    /// ``CodableValueTransformer`` registered for its `customClassName` when there is one (Core
    /// Data's default cannot store a Swift value type); a transformer the model names otherwise
    /// is used as named.
    static func transformer(for attribute: AttributeDescription, objectID: ManagedObjectID?, code: ManagedObjectError.Code) throws -> (ValueTransformer, ValueTransformerName) {
        let named = attribute.attribute.valueTransformerName.flatMap { $0.isEmpty ? nil : ValueTransformerName($0) }
        // One look at the registry (a save looks for each object's value).
        let (found, name) = ValueTransformer.withRegistry { registry -> (ValueTransformer?, ValueTransformerName) in
            var name = named ?? .secureUnarchiveFromDataTransformerName
            // The default's class name, as Xcode's editor writes it: Foundation finds a
            // transformer by its class name when none is registered under that name.
            if name == .secureUnarchiveFromDataTransformerClassName && registry[name] == nil {
                name = .secureUnarchiveFromDataTransformerName
            }
            if name == .secureUnarchiveFromDataTransformerName, let codableName = attribute.codableTransformerName,
               let codable = registry[codableName] {
                return (codable, codableName)
            }
            return (registry[name], name)
        }
        guard let found else {
            throw error(code, "no value transformer is registered under the name \(name.rawValue) (register one with ValueTransformer.setValueTransformer(_:forName:))",
                        attribute: attribute, objectID: objectID)
        }
        return (found, name)
    }

    /// The `Data` `value` transforms to.
    package static func storedData(_ value: Any, attribute: AttributeDescription, objectID: ManagedObjectID?) throws -> Data {
        let (transformer, name) = try transformer(for: attribute, objectID: objectID, code: .validation)
        // The class cast first: the protocol cast looks up a conformance (the two are disjoint).
        if let secure = transformer as? SecureUnarchiveFromDataTransformer {
            do {
                return try secure.archive(value)
            } catch let problem as KeyedArchiveError {
                throw error(.validation, "\(name.rawValue) cannot archive the value: \(problem.message)", attribute: attribute, objectID: objectID)
            }
        }
        if let codable = transformer as? any CodableTransforming {
            do {
                return try codable.encode(value)
            } catch {
                throw Self.error(.validation, "\(name.rawValue) cannot encode the value: \(error)", attribute: attribute, objectID: objectID)
            }
        }
        guard let data = transformer.transformedValue(value) as? Data else {
            throw error(.validation, "the value transformer \(name.rawValue) gave no Data for a \(type(of: value))", attribute: attribute, objectID: objectID)
        }
        return data
    }

    /// The value `data` (as a store keeps it) transforms back to.
    package static func value(of data: Data, attribute: AttributeDescription, objectID: ManagedObjectID?) throws -> Any? {
        let (transformer, name) = try transformer(for: attribute, objectID: objectID, code: .persistentStoreOperation)
        if let codable = transformer as? any CodableTransforming {
            do {
                return try codable.decodeValue(data)
            } catch {
                throw Self.error(.persistentStoreOperation, "\(name.rawValue) cannot read the stored value: \(error)",
                                 attribute: attribute, objectID: objectID)
            }
        }
        if let secure = transformer as? SecureUnarchiveFromDataTransformer {
            do {
                return try secure.unarchive(data)
            } catch let problem as KeyedArchiveError {
                throw error(.persistentStoreOperation, "\(name.rawValue) cannot read the stored archive: \(problem.message)",
                            attribute: attribute, objectID: objectID)
            }
        }
        guard type(of: transformer).allowsReverseTransformation() else {
            throw error(.persistentStoreOperation, "the value transformer \(name.rawValue) does not allow reverse transformation",
                        attribute: attribute, objectID: objectID)
        }
        guard let value = transformer.reverseTransformedValue(data) else {
            throw error(.persistentStoreOperation, "the value transformer \(name.rawValue) gave no value for the stored \(data.count) bytes",
                        attribute: attribute, objectID: objectID)
        }
        return value
    }

    private static func error(_ code: ManagedObjectError.Code, _ message: String, attribute: AttributeDescription, objectID: ManagedObjectID?) -> ManagedObjectError {
        let object = objectID.map { " of \($0)" } ?? ""
        return ManagedObjectError(
            code, "Transformable attribute \(attribute.name)\(object): \(message)",
            entityName: objectID?.entity.name, objectID: objectID, key: attribute.name)
    }
}
