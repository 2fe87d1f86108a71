import Foundation

/// How the objects of one model version become those of the next, when inference is not enough.
/// Core Data's `NSMappingModel`, written in Swift: entity mappings with property mappings whose
/// values are key paths of the source object (`$source.name`) or the destination objects another
/// mapping made of related source objects, and custom policies (``EntityMigrationPolicy``)
/// registered by name. Written in Swift, or read from a `.xcmappingmodel` file Xcode wrote
/// (`init(contentsOf:versions:)`, in `ModelFileLoading`, which reads model files; here
/// ``init(_:versions:file:)`` makes one from the parsed document).
public struct MappingModel: Sendable {
    /// The version names (as in ``ManagedObjectModelVersions``) this model maps between.
    public var sourceVersionName: String
    public var destinationVersionName: String
    public var entityMappings: [EntityMapping]
    /// The entity version hashes (``ManagedObjectModel/entityVersionHashesByName``) of the two
    /// versions, by which a migration picks this mapping model, as Core Data does; `nil`: it is
    /// picked by the version name instead. A mapping file read from disk has them.
    public var sourceEntityVersionHashes: [String: Data]?
    public var destinationEntityVersionHashes: [String: Data]?
    /// Made by ``inferred(from:to:)``: a migration through it is the lightweight one the runtime
    /// infers (its entity mappings only describe it).
    var isInferred = false

    public init(
        from sourceVersionName: String, to destinationVersionName: String, entityMappings: [EntityMapping],
        sourceEntityVersionHashes: [String: Data]? = nil, destinationEntityVersionHashes: [String: Data]? = nil
    ) {
        self.sourceVersionName = sourceVersionName
        self.destinationVersionName = destinationVersionName
        self.entityMappings = entityMappings
        self.sourceEntityVersionHashes = sourceEntityVersionHashes
        self.destinationEntityVersionHashes = destinationEntityVersionHashes
    }

    /// Whether this mapping takes a store of `source` to `destination`: by entity hashes where
    /// it has them (a mapping file's version names may be stale), else by version names.
    package func maps(from source: ManagedObjectModelVersions.Version, to destination: ManagedObjectModelVersions.Version) -> Bool {
        (sourceEntityVersionHashes.map { $0 == source.entityVersionHashes } ?? (sourceVersionName == source.name))
            && (destinationEntityVersionHashes.map { $0 == destination.entityVersionHashes } ?? (destinationVersionName == destination.name))
    }
}

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

/// The value of one destination property. Core Data's `NSPropertyMapping`.
public struct PropertyMapping: Sendable {
    /// The value expressions this runtime evaluates (Core Data's are `NSExpression`s).
    public enum Value: Sendable {
        /// `$source.<keyPath>`: for a relationship, the destination objects made of the related source objects.
        case sourceKeyPath(String)
        /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", $source.<keyPath>)`.
        case destinationInstances(entityMappingName: String, sourceKeyPath: String)
        /// A constant: the same value for every object (`nil` empties a relationship).
        case constant(MappingExpression.Constant)
        /// An attribute's value computed from the source object, as Core Data evaluates a value
        /// expression: `$source` is the source object (`ObjectExpression(parsing: "$source.rating + 10")`).
        /// It may read no other variable (a migration throws 134110 naming it).
        case expression(ObjectExpression)
    }

    public var name: String
    public var value: Value?

    /// `value` `nil`: no value (the destination property keeps its default).
    public init(name: String, value: Value?) {
        self.name = name
        self.value = value
    }
}

/// A custom step of an entity mapping: Core Data's `NSEntityMigrationPolicy`, subclassed the
/// same way, so that an app's subclass ports line for line (`override`, `super`). The
/// implementations here do what Core Data's do; an entity mapping without a policy uses them.
/// A migration makes one instance per entity mapping and uses it on the migration's thread only.
open class EntityMigrationPolicy {
    public required init() {}

    /// Makes the destination objects of one source object: one object of the mapping's
    /// destination entity in `manager.destinationContext`, with its attribute mappings applied,
    /// associated with the source (``MigrationManager/associate(sourceInstance:withDestinationInstance:for:)``).
    open func createDestinationInstances(forSource sInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        try manager.createDefaultDestinationInstance(forSource: sInstance, in: mapping)
    }

    /// Sets the relationships of one destination object: the mapping's relationship mappings.
    open func createRelationships(forDestination dInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        try manager.createDefaultRelationships(forDestination: dInstance, in: mapping)
    }
}

/// Custom policies by the name entity mappings give (`entityMigrationPolicyClassName`), as Core
/// Data finds `NSEntityMigrationPolicy` subclasses by class name.
public enum EntityMigrationPolicies {
    private static let registered = LockedValue<[String: EntityMigrationPolicy.Type]>([:])

    public static func register(_ type: EntityMigrationPolicy.Type, named name: String) {
        registered.withLock { $0[name] = type }
    }

    /// The policy registered under `name`; for a module-qualified name as Xcode writes Swift
    /// classes (`App.CarPolicy`, `REPLACE_AT_RUNTIME.CarPolicy`) not registered as such, the one
    /// registered under the class name alone (`CarPolicy`).
    static func policy(named name: String) -> (EntityMigrationPolicy.Type)? {
        registered.withLock { registered in
            registered[name] ?? name.split(separator: ".").last.flatMap { registered[String($0)] }
        }
    }
}
