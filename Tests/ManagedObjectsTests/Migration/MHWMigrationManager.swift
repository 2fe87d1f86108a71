import Foundation
@testable import ManagedObjects

// MARK: - hwaxxer/BookMigration, MHWMigrationManager.m (MIT)

/// Swift port of BookMigration's own migration manager (`shared/stores/hwaxxer__BookMigration/policies/`),
/// which migrates a store one version at a time through the mapping models of the app's bundle,
/// and runs several mapping models for one step into one destination store when its delegate
/// names them (Core Data's multiple passes): how the app takes a Model1 store to Model3.
///
/// What stands for what: the main bundle's models are the bundle's ``ManagedObjectModelVersions``
/// (`modelPaths`, `mergedModelFromBundles:forStoreMetadata:`); its compiled mapping models are the
/// ``MappingModel``s read from the app's `.xcmappingmodel` files, in the bundle's order
/// (`mappingModelFromBundles:forSourceModel:destinationModel:` takes the first that maps the two
/// models, by entity hashes); errors are thrown, where the original returns `NO` with an `NSError`
/// (its loop over the passes keeps only the last pass's result; here the first failure stops). The
/// progress observation (`migrationProgress`, logged) is left out: the runtime reports no progress.
final class MHWMigrationManager {
    /// `MHWMigrationManagerDelegate`'s `migrationManager:mappingModelsForSourceModel:`.
    typealias MappingModelsForSourceModel = (MHWMigrationManager, ManagedObjectModelVersions.Version) -> [MappingModel]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The app bundle's models and mapping models.
    let versions: ManagedObjectModelVersions
    let bundleMappingModels: [MappingModel]
    var mappingModelsForSourceModel: MappingModelsForSourceModel?

    init(versions: ManagedObjectModelVersions, bundleMappingModels: [MappingModel], mappingModelsForSourceModel: MappingModelsForSourceModel? = nil) {
        self.versions = versions
        self.bundleMappingModels = bundleMappingModels
        self.mappingModelsForSourceModel = mappingModelsForSourceModel
    }

    func progressivelyMigrate(url sourceStoreURL: URL, toModel finalModel: ManagedObjectModel) throws {
        if try !versions.isMigrationNecessary(forStoreAt: sourceStoreURL, to: finalModel) {
            return
        }
        guard let sourceModel = try sourceModel(forStoreAt: sourceStoreURL) else {
            throw Failure(description: "no model of the bundle wrote \(sourceStoreURL.path)")
        }
        let (destinationModel, mappingModel, modelName) = try getDestinationModel(forSourceModel: sourceModel)

        var mappingModels = [mappingModel]
        if let explicitMappingModels = mappingModelsForSourceModel?(self, sourceModel), !explicitMappingModels.isEmpty {
            mappingModels = explicitMappingModels
        }
        let destinationStoreURL = destinationStoreURL(withSourceStoreURL: sourceStoreURL, modelName: modelName)
        let manager = MigrationManager(sourceModel: sourceModel.model, destinationModel: destinationModel)
        for mappingModel in mappingModels {
            try manager.migrateStore(from: sourceStoreURL, to: destinationStoreURL, mappingModel: mappingModel)
        }
        // Migration was successful, move the files around to preserve the source in case things go bad
        try backupSourceStore(at: sourceStoreURL, movingDestinationStoreAt: destinationStoreURL)
        // We may not be at the "current" model yet, so recurse
        try progressivelyMigrate(url: sourceStoreURL, toModel: finalModel)
    }

    private func sourceModel(forStoreAt url: URL) throws -> ManagedObjectModelVersions.Version? {
        try versions.sourceVersion(ofStoreAt: url)
    }

    private func getDestinationModel(forSourceModel sourceModel: ManagedObjectModelVersions.Version) throws -> (ManagedObjectModel, MappingModel, String) {
        if versions.versions.isEmpty {
            throw Failure(description: "No models found!")
        }
        // See if we can find a matching destination model
        for model in versions.versions {
            if let mapping = bundleMappingModels.first(where: { $0.maps(from: sourceModel, to: model) }) {
                // If we found a mapping model then proceed
                return (model.model, mapping, model.name)
            }
        }
        // We have tested every model, if nil here we failed
        throw Failure(description: "No mapping model found in bundle")
    }

    private func destinationStoreURL(withSourceStoreURL sourceStoreURL: URL, modelName: String) -> URL {
        // We have a mapping model, time to migrate
        let storeExtension = sourceStoreURL.pathExtension
        let storePath = sourceStoreURL.deletingPathExtension().path
        // Build a path to write the new store
        return URL(fileURLWithPath: "\(storePath).\(modelName).\(storeExtension)")
    }

    private func backupSourceStore(at sourceStoreURL: URL, movingDestinationStoreAt destinationStoreURL: URL) throws {
        // Beside the store, where the original uses NSTemporaryDirectory(): the test's folder goes with the test.
        let backupPath = sourceStoreURL.deletingLastPathComponent().appendingPathComponent(UUID().uuidString).path
        let fileManager = FileManager.default
        try fileManager.moveItem(atPath: sourceStoreURL.path, toPath: backupPath)
        // Move the destination to the source path
        do {
            try fileManager.moveItem(atPath: destinationStoreURL.path, toPath: sourceStoreURL.path)
        } catch {
            // Try to back out the source move first, no point in checking it for errors
            try? fileManager.moveItem(atPath: backupPath, toPath: sourceStoreURL.path)
            throw error
        }
    }
}

// MARK: - The app's delegate: objc.io issue 4, "Custom Core Data Migrations" (by BookMigration's author)

extension MHWMigrationManager {
    /// BookMigration's manager with the delegate its author's article gives
    /// (`migrationManager:mappingModelsForSourceModel:`): from Model2, every `Model2_to_Model…`
    /// mapping model of the bundle, the User one first (MHWBookToBookPolicy fetches the
    /// destination's users to give each File its user, so they must be there already).
    /// `mappingModels` are the bundle's, by file name.
    static func bookMigration(versions: ManagedObjectModelVersions, mappingModels: [(fileName: String, model: MappingModel)]) -> MHWMigrationManager {
        MHWMigrationManager(versions: versions, bundleMappingModels: mappingModels.map(\.model)) { _, sourceModel in
            var result: [MappingModel] = []
            let modelName = sourceModel.name
            if modelName == "Model2" {
                // Migrating to Model3
                for (fileName, mappingModel) in mappingModels where fileName.contains("Model2_to_Model") {
                    if fileName.contains("User") {
                        // User migration first
                        result.insert(mappingModel, at: 0)
                    } else {
                        result.append(mappingModel)
                    }
                }
            }
            return result
        }
    }
}
