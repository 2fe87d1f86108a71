import Foundation

/// Which source entity's objects become which destination entity's. Core Data's `NSEntityMapping`.
public struct EntityMapping: Sendable {
    /// Named as Xcode names them (`CarToCar`), for `destinationInstances(forEntityMappingName:…)`.
    public var name: String
    public var sourceEntityName: String
    public var destinationEntityName: String
    /// Attribute values; `nil`: each destination attribute takes the source attribute of its name
    /// (Xcode's generated `$source.<name>`).
    public var attributeMappings: [PropertyMapping]?
    /// Relationship values; `nil`: each destination relationship takes the destination objects
    /// made of the source relationship of its name.
    public var relationshipMappings: [PropertyMapping]?
    /// The name an ``EntityMigrationPolicy`` type is registered under
    /// (``EntityMigrationPolicies/register(_:named:)``); `nil`: the default behaviour.
    public var entityMigrationPolicyClassName: String?
    /// For policies to read (Core Data's `userInfo`; Xcode's editor writes strings).
    public var userInfo: [String: String]
    /// Which objects of the source entity (itself, not its sub-entities) the mapping migrates:
    /// Core Data's `sourceExpression` when it fetches with a predicate
    /// (`FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "<entity>", "<predicate>"), $manager.sourceContext, NO)`),
    /// so that two mappings can split one entity's objects. `nil`: all of them.
    public var sourcePredicate: ObjectPredicate?

    public init(
        name: String, sourceEntityName: String, destinationEntityName: String,
        attributeMappings: [PropertyMapping]? = nil, relationshipMappings: [PropertyMapping]? = nil,
        entityMigrationPolicyClassName: String? = nil, userInfo: [String: String] = [:], sourcePredicate: ObjectPredicate? = nil
    ) {
        self.name = name
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.entityMigrationPolicyClassName = entityMigrationPolicyClassName
        self.userInfo = userInfo
        self.sourcePredicate = sourcePredicate
    }
}
