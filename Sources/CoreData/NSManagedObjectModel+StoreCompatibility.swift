import DataModel
import Foundation
import ManagedObjects

extension ManagedObjectModel {
    /// Core Data's `isConfiguration(withName:compatibleWithStoreMetadata:)`: whether a store with
    /// `metadata` (``PersistentStoreCoordinator/metadataForPersistentStore(ofType:at:options:)``)
    /// was written with this model: its `NSStoreModelVersionHashes` hold the entity version hash
    /// of every entity of the configuration (`nil`: of the model, and no other entity).
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return false }
        let hashes = entityVersionHashesByName
        let names: Set<String>
        if let configuration, configuration != "Default" {
            guard let members = model.configurations.first(where: { $0.name == configuration })?.memberEntities else { return false }
            names = Set(members)
        } else {
            guard Set(stored.keys) == Set(hashes.keys) else { return false }
            names = Set(hashes.keys)
        }
        return names.allSatisfy { name in hashes[name] != nil && (stored[name] as? Data) == hashes[name] }
    }

    /// Core Data's `mergedModel(from:)`: on Linux there are no model files in bundles, so the
    /// models generated code registered (`GeneratedModels`), merged into one; `bundles` is not
    /// read. `nil` when there is none, or two have an entity of one name.
    public class func mergedModel(from bundles: [Bundle]?) -> ManagedObjectModel? {
        merged(GeneratedModels.all())
    }

    /// Core Data's `mergedModel(from:forStoreMetadata:)`: of the generated models (as
    /// ``mergedModel(from:)``), the one compatible with `metadata`
    /// (``isConfiguration(withName:compatibleWithStoreMetadata:)``), else `nil`: every version a
    /// generated model carries, so a store of an older version finds the version that wrote it,
    /// as Core Data finds it among the `.momd`'s.
    public class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> ManagedObjectModel? {
        GeneratedModels.allVersions().first { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
    }

    private static func merged(_ models: [ManagedObjectModel]) -> ManagedObjectModel? {
        guard models.count > 1 else { return models.first }
        let entities = models.flatMap(\.model.entities)
        guard Set(entities.map(\.name)).count == entities.count else { return nil }
        let classes = models.reduce(into: [String: ManagedObject.Type]()) { classes, model in
            classes.merge(model.entitiesByName.mapValues(\.managedObjectClass)) { first, _ in first }
        }
        return ManagedObjectModel(
            Model(entities: entities, configurations: models.flatMap(\.model.configurations)), classes: classes)
    }
}
