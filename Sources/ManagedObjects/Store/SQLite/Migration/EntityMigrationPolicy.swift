import Foundation

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
