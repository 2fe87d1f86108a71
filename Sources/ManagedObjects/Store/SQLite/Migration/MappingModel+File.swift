import DataModel
import Foundation

extension MappingModel {
    /// The runtime's form of a mapping model read from a file (`file` names it in errors).
    ///
    /// - Entity mappings without a source entity make no objects (Core Data's, likewise, have no
    ///   source objects to make them of; a policy may), and are left out, as are those without a
    ///   destination (Core Data's remove mappings).
    /// - A property without an expression, in an entity mapping that autogenerates them, takes
    ///   Xcode's default when the source entity has a property of its name (`$source.<name>`; for
    ///   a relationship the destination objects made of the related source objects), else no value.
    /// - Expressions evaluated: `$source.<keyPath>`, constants (for a relationship only `nil`),
    ///   `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", $source.<keyPath>)`
    ///   and `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "<relationship>", $source.<keyPath>)`.
    public init(_ document: MappingDocument, versions: ManagedObjectModelVersions, file: String) throws(ManagedObjectError) {
        func failure(_ message: String, entity: String? = nil, key: String? = nil) -> ManagedObjectError {
            ManagedObjectError(.migration, "mapping model \(file): \(message)", entityName: entity, key: key)
        }
        // The versions are those whose entity hashes the file's archived models have (as Core
        // Data matches them: the names written may be stale); a file without archived models, or
        // whose archived model is that of no version (itself stale), is matched by the names.
        func version(_ role: String, named name: String, archived: Model?) throws(ManagedObjectError) -> (ManagedObjectModelVersions.Version, byHashes: Bool) {
            if let archived {
                let hashes = ManagedObjectModel(archived).entityVersionHashesByName
                if let found = versions.versions.first(where: { $0.entityVersionHashes == hashes }) { return (found, true) }
            }
            guard let found = versions.versions.first(where: { $0.name == name }) else {
                let names = versions.versions.map(\.name).joined(separator: ", ")
                let hashes = archived == nil ? "" : " and the model it keeps has the entity version hashes of none of them"
                throw failure("maps \(role) version \(name), which is not among the model's versions (\(names))\(hashes)")
            }
            return (found, false)
        }
        let (sourceVersion, sourceByHashes) = try version("from", named: document.sourceVersionName, archived: document.sourceModel)
        let (destinationVersion, destinationByHashes) = try version("to", named: document.destinationVersionName, archived: document.destinationModel)
        let source = sourceVersion.model
        let destination = destinationVersion.model
        let mappingNames = Set(document.entityMappings.map(\.name))
        var entityMappings: [EntityMapping] = []
        for mapping in document.entityMappings {
            guard let sourceName = mapping.sourceEntityName, let destinationName = mapping.destinationEntityName else { continue }
            guard let sourceEntity = source[sourceName] else {
                throw failure("entity mapping \(mapping.name) maps from entity \(sourceName), which version \(sourceVersion.name) does not have", entity: sourceName)
            }
            guard let destinationEntity = destination[destinationName] else {
                throw failure("entity mapping \(mapping.name) maps to entity \(destinationName), which version \(destinationVersion.name) does not have", entity: destinationName)
            }
            func value(of property: MappingDocument.PropertyMapping, isRelationship: Bool) throws(ManagedObjectError) -> PropertyMapping.Value? {
                let kind = isRelationship ? "relationship" : "attribute"
                let destinationHasIt = isRelationship ? destinationEntity.relationship(named: property.name) != nil : destinationEntity.attribute(named: property.name) != nil
                guard destinationHasIt else {
                    throw failure("entity mapping \(mapping.name) maps \(kind) \(property.name), which \(destinationName) does not have", entity: destinationName, key: property.name)
                }
                guard let expression = property.valueExpression else {
                    let sourceHasIt = isRelationship ? sourceEntity.relationship(named: property.name) != nil : sourceEntity.attribute(named: property.name) != nil
                    return mapping.autogeneratesExpressions && sourceHasIt ? .sourceKeyPath(property.name) : nil
                }
                // A key path starts at a property of the source entity (else it would read nothing).
                func checked(_ keyPath: String) throws(ManagedObjectError) -> String {
                    let first = String(keyPath.prefix { $0 != "." })
                    guard sourceEntity.property(named: first) != nil else {
                        throw failure("entity mapping \(mapping.name), \(kind) \(property.name): \(expression) reads \(first), which \(sourceName) does not have", entity: destinationName, key: property.name)
                    }
                    return keyPath
                }
                if let keyPath = expression.sourceKeyPath { return .sourceKeyPath(try checked(keyPath)) }
                if case .constant(let constant) = expression, !isRelationship || constant == .null { return .constant(constant) }
                if isRelationship, case .function(.variable("manager"), let selector, let arguments) = expression, arguments.count == 2,
                   case .constant(.string(let name)) = arguments[0], let keyPath = arguments[1].sourceKeyPath {
                    _ = try checked(keyPath)
                    switch selector {
                    case "destinationInstancesForEntityMappingNamed:sourceInstances:":
                        guard mappingNames.contains(name) else {
                            throw failure("entity mapping \(mapping.name), relationship \(property.name): \(expression) names entity mapping \(name), which the mapping model does not have", entity: destinationName, key: property.name)
                        }
                        return .destinationInstances(entityMappingName: name, sourceKeyPath: keyPath)
                    case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
                        // The destination objects made of the related source objects, by whichever mapping made them.
                        return .sourceKeyPath(keyPath)
                    default:
                        break
                    }
                }
                throw failure(
                    "entity mapping \(mapping.name), \(kind) \(property.name): the value expression \(expression) is not one this runtime evaluates"
                        + " ($source.<keyPath>, a constant (for a relationship only nil), or for a relationship FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" or \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", <name>, $source.<keyPath>));"
                        + " a custom EntityMigrationPolicy can set it instead",
                    entity: destinationName, key: property.name)
            }
            var attributes: [PropertyMapping] = []
            for property in mapping.attributeMappings {
                attributes.append(PropertyMapping(name: property.name, value: try value(of: property, isRelationship: false)))
            }
            var relationships: [PropertyMapping] = []
            for property in mapping.relationshipMappings {
                relationships.append(PropertyMapping(name: property.name, value: try value(of: property, isRelationship: true)))
            }
            entityMappings.append(EntityMapping(
                name: mapping.name, sourceEntityName: sourceName, destinationEntityName: destinationName,
                attributeMappings: attributes, relationshipMappings: relationships,
                entityMigrationPolicyClassName: mapping.migrationPolicyClassName, userInfo: mapping.userInfo))
        }
        self.init(
            from: sourceVersion.name, to: destinationVersion.name, entityMappings: entityMappings,
            sourceEntityVersionHashes: sourceByHashes ? sourceVersion.entityVersionHashes : nil,
            destinationEntityVersionHashes: destinationByHashes ? destinationVersion.entityVersionHashes : nil)
    }
}
