import DataModel
import Foundation

/// What one migration step does, entity by entity and property by property, in words a person
/// reads before migrating (`managedgen migrate --dry-run`, `managedgen diff`). Made from the
/// same inference the migration runs (``InferredMigrationPlan``), or from the mapping model a
/// step uses, so the outline never says something the migration would not do.
package struct MigrationPlanOutline: Sendable {
    /// What becomes of an entity of the destination (or of a source entity it lacks).
    package enum EntityChange: Sendable, Equatable {
        /// From the source entity of the same name.
        case copied
        /// From the source entity its renaming identifier names.
        case renamed(from: String)
        /// No source entity: it starts empty.
        case added
        /// A source entity no destination entity takes: its objects are left behind.
        case removed
        /// By an entity mapping of a mapping model (its name, the source entity, its policy).
        case mapped(mapping: String, from: String, policy: String?)
    }

    /// What becomes of a property of a destination entity (or of a source property it lacks).
    package enum PropertyChange: Sendable, Equatable {
        case copied
        case renamed(from: String)
        /// No source property: the model's default (`nil`: none, so empty or NULL).
        case added(defaultValue: String?)
        /// Copied, with the model's default where the source had none (made required).
        case defaulted(defaultValue: String)
        /// Copied and converted (`from` and `to` describe the two kinds).
        case converted(from: String, to: String)
        /// A source property the destination lacks: its values are left behind.
        case dropped
        /// By a property mapping of a mapping model: its value expression, `nil` for none.
        case mapped(expression: String?)
    }

    package struct Property: Sendable {
        package var name: String
        package var isRelationship: Bool
        package var change: PropertyChange
    }

    package struct Entity: Sendable {
        package var name: String
        package var change: EntityChange
        /// The properties the entity declares (inherited ones are its parent's).
        package var properties: [Property]
    }

    /// Why the step cannot run as planned, with Core Data's code (134140: no mapping can be
    /// inferred; 134110: the data would not fit the new version).
    package struct Blocker: Sendable {
        package var code: Int
        package var entity: String?
        package var property: String?
        package var reason: String

        package init(code: Int, entity: String?, property: String?, reason: String) {
            self.code = code
            self.entity = entity
            self.property = property
            self.reason = reason
        }
    }

    package var sourceVersion: String
    package var destinationVersion: String
    /// The mapping model's name when the step uses one; `nil`: inferred.
    package var mappingModel: String?
    package var entities: [Entity]
    package var blockers: [Blocker]

    package init(sourceVersion: String, destinationVersion: String, mappingModel: String?, entities: [Entity], blockers: [Blocker]) {
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.mappingModel = mappingModel
        self.entities = entities
        self.blockers = blockers
    }
}

extension InferredMigrationPlan {
    /// The plan in words, for the step from `sourceVersion` to `destinationVersion`.
    /// `blockers` holds what throws when the plan's statements are made (a type change that is
    /// not inferred), and each required property added without a default (134110 once the
    /// entity has objects: `rowsByEntity` tells, by source entity name, when a store is known).
    package func outline(sourceVersion: String, destinationVersion: String, rowsByEntity: [String: Int]? = nil) -> MigrationPlanOutline {
        var entities: [MigrationPlanOutline.Entity] = []
        var blockers: [MigrationPlanOutline.Blocker] = []
        var takenSourceEntities: Set<String> = []
        for entity in destination.entities {
            let origin = sourceEntity(for: entity)
            if let origin { takenSourceEntities.insert(origin.name) }
            let change: MigrationPlanOutline.EntityChange = switch origin?.name {
            case nil: .added
            case entity.name?: .copied
            case let name?: .renamed(from: name)
            }
            let inheritedCount = entity.superentity?.properties.count ?? 0
            var properties: [MigrationPlanOutline.Property] = []
            var takenSourceProperties: Set<String> = []
            for property in entity.properties[inheritedCount...] {
                let source = sourceProperty(for: property, of: entity)
                if let source { takenSourceProperties.insert(source.name) }
                let propertyChange = self.change(of: property, from: source, entity: entity, origin: origin, blockers: &blockers)
                // The migration checks required attributes and to-ones (a to-many has no column).
                if case .added(nil) = propertyChange, !property.isOptional, !property.isToManyRelationship, let origin,
                   rowsByEntity.map({ ($0[origin.name] ?? 0) > 0 }) ?? true {
                    blockers.append(MigrationPlanOutline.Blocker(
                        code: ManagedObjectError.Code.migration.rawValue, entity: entity.name, property: property.name,
                        reason: "\(entity.name).\(property.name) is required, new and has no default value: "
                            + (rowsByEntity == nil ? "a store with \(origin.name) objects cannot migrate" : "the store's \(origin.name) objects would have none")))
                }
                properties.append(MigrationPlanOutline.Property(
                    name: property.name, isRelationship: property.isRelationship, change: propertyChange))
            }
            if let origin {
                let originInherited = origin.superentity?.properties.count ?? 0
                for dropped in origin.properties[originInherited...] where !takenSourceProperties.contains(dropped.name)
                    && !entity.properties.contains(where: { sourceProperty(for: $0, of: entity)?.name == dropped.name }) {
                    properties.append(MigrationPlanOutline.Property(name: dropped.name, isRelationship: dropped.isRelationship, change: .dropped))
                }
            }
            entities.append(MigrationPlanOutline.Entity(name: entity.name, change: change, properties: properties))
        }
        for removed in source.entities where !takenSourceEntities.contains(removed.name) {
            entities.append(MigrationPlanOutline.Entity(name: removed.name, change: .removed, properties: []))
        }
        return MigrationPlanOutline(
            sourceVersion: sourceVersion, destinationVersion: destinationVersion, mappingModel: nil, entities: entities, blockers: blockers)
    }

    private func change(
        of property: PropertyDescription, from source: PropertyDescription?, entity: EntityDescription, origin: EntityDescription?,
        blockers: inout [MigrationPlanOutline.Blocker]
    ) -> MigrationPlanOutline.PropertyChange {
        switch (property.kind, source?.kind) {
        case (.attribute(let attribute), nil):
            return .added(defaultValue: attribute.defaultValue.map { "\($0)" })
        case (.relationship, nil):
            return .added(defaultValue: nil)
        case (.attribute(let attribute), .attribute(let sourceAttribute)?):
            if sourceAttribute.type != attribute.type {
                do {
                    _ = try conversion(of: "s", from: sourceAttribute.type, to: attribute.type, entity: entity.name, attribute: attribute.name)
                    return .converted(from: sourceAttribute.type.rawValue, to: attribute.type.rawValue)
                } catch let error as ManagedObjectError {
                    blockers.append(MigrationPlanOutline.Blocker(
                        code: error.code.rawValue, entity: entity.name, property: attribute.name, reason: error.message))
                    return .converted(from: sourceAttribute.type.rawValue, to: attribute.type.rawValue)
                } catch {
                    blockers.append(MigrationPlanOutline.Blocker(
                        code: ManagedObjectError.Code.migrationMissingMappingModel.rawValue, entity: entity.name, property: attribute.name,
                        reason: "\(error)"))
                    return .converted(from: sourceAttribute.type.rawValue, to: attribute.type.rawValue)
                }
            }
            if sourceAttribute.isOptional, !attribute.isOptional, let value = attribute.defaultValue {
                return .defaulted(defaultValue: "\(value)")
            }
            return sourceAttribute.name == attribute.name ? .copied : .renamed(from: sourceAttribute.name)
        case (.relationship(let relationship), .relationship(let sourceRelationship)?):
            if relationship.isToMany != sourceRelationship.isToMany || relationship.isOrdered != sourceRelationship.isOrdered {
                return .converted(from: Self.kind(of: sourceRelationship), to: Self.kind(of: relationship))
            }
            return sourceRelationship.name == relationship.name ? .copied : .renamed(from: sourceRelationship.name)
        case (.fetchedProperty, nil):
            return .added(defaultValue: nil)
        case (_, .some):
            let otherName = source?.name ?? "?", otherIsRelationship = source?.isRelationship == true
            blockers.append(MigrationPlanOutline.Blocker(
                code: ManagedObjectError.Code.migrationMissingMappingModel.rawValue, entity: entity.name, property: property.name,
                reason: "\(entity.name).\(property.name) takes the values of \(origin?.name ?? "?").\(otherName), "
                    + "an \(otherIsRelationship ? "relationship" : "attribute") where it is an \(property.isRelationship ? "relationship" : "attribute")"))
            return .dropped
        }
    }

    private static func kind(of relationship: RelationshipDescription) -> String {
        relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    }
}

extension MappingModel {
    /// The mapping model in words, for a step from `sourceVersion` to `destinationVersion`.
    package func outline(sourceVersion: String, destinationVersion: String, name: String) -> MigrationPlanOutline {
        let entities = entityMappings.map { mapping in
            let properties = (mapping.attributeMappings ?? []).map { ($0, false) } + (mapping.relationshipMappings ?? []).map { ($0, true) }
            return MigrationPlanOutline.Entity(
                name: mapping.destinationEntityName,
                change: .mapped(mapping: mapping.name, from: mapping.sourceEntityName, policy: mapping.entityMigrationPolicyClassName),
                properties: properties.map { property, isRelationship in
                    MigrationPlanOutline.Property(
                        name: property.name, isRelationship: isRelationship, change: .mapped(expression: property.value.map(Self.describe)))
                })
        }
        // A policy is a class of the app's: a migration that names one not registered in this
        // process fails at that entity mapping (134110), so the plan says so before it starts.
        let blockers = entityMappings.compactMap { mapping -> MigrationPlanOutline.Blocker? in
            guard let policy = mapping.entityMigrationPolicyClassName, EntityMigrationPolicies.policy(named: policy) == nil else { return nil }
            return MigrationPlanOutline.Blocker(
                code: ManagedObjectError.Code.migration.rawValue, entity: mapping.destinationEntityName, property: nil,
                reason: "entity mapping \(mapping.name) of \(name) names migration policy \(policy), which is not registered here (it is the app's code)")
        }
        return MigrationPlanOutline(
            sourceVersion: sourceVersion, destinationVersion: destinationVersion, mappingModel: name, entities: entities, blockers: blockers)
    }

    private static func describe(_ value: PropertyMapping.Value) -> String {
        switch value {
        case .sourceKeyPath(let keyPath): "$source.\(keyPath)"
        case .destinationInstances(let mapping, let keyPath): "instances of \(mapping) for $source.\(keyPath)"
        case .constant(let constant): "\(constant)"
        case .expression(let expression): "\(expression)"
        }
    }
}

extension PropertyDescription {
    fileprivate var isRelationship: Bool {
        if case .relationship = kind { true } else { false }
    }

    fileprivate var isToManyRelationship: Bool {
        if case .relationship(let relationship) = kind { relationship.isToMany } else { false }
    }
}
