import Foundation
import GRDB

extension MappingModel {
    /// The mapping the runtime's lightweight migration infers from `source` to `destination`
    /// (`InferredMigrationPlan`): one entity mapping per destination entity that has a source
    /// entity (by renaming identifier, else name). Core Data's
    /// `inferredMappingModel(forSourceModel:destinationModel:)`. Throws 134140 naming the entity
    /// and property when the change cannot be inferred.
    public static func inferred(from source: ManagedObjectModel, to destination: ManagedObjectModel) throws -> MappingModel {
        // Building the plan and its statements is what checks every change can be inferred.
        _ = try InferredMigrationPlan(
            source: source, destination: destination, sourceSchema: CoreDataSchema(model: source),
            destinationSchema: CoreDataSchema(model: destination), sourceHighestKeys: [:]
        ).copyStatements()
        let mappings = destination.entities.compactMap { entity -> EntityMapping? in
            guard let origin = InferredMigrationPlan.sourceEntity(for: entity, in: source) else { return nil }
            return EntityMapping(name: "\(origin.name)To\(entity.name)", sourceEntityName: origin.name, destinationEntityName: entity.name)
        }
        var model = MappingModel(
            from: "", to: "", entityMappings: mappings,
            sourceEntityVersionHashes: source.entityVersionHashesByName, destinationEntityVersionHashes: destination.entityVersionHashesByName)
        model.isInferred = true
        return model
    }
}

extension MigrationManager {
    /// Writes a new SQLite store at `destinationURL` holding the objects of the SQLite store at
    /// `sourceURL` (of ``sourceModel``) migrated to ``destinationModel`` through `mappingModel`
    /// (one from ``MappingModel/inferred(from:to:)`` runs the lightweight migration). The source
    /// store is left as it was, its committed write-ahead log moved into its main file first. The
    /// new store's external binary data starts as a copy of the source's. Core Data's
    /// `migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)`.
    ///
    /// Multiple passes, as with Core Data ("Customizing the Migration Process", multiple
    /// passes): called again with another mapping model and the same destination, the objects
    /// that mapping model makes are added to the store the earlier passes wrote (opened with
    /// ``destinationModel``), where the new pass's policies can fetch them. Each pass associates
    /// source and destination objects anew, so a relationship cannot cross two mapping models;
    /// ``userInfo`` is kept across passes. A pass that adds to an existing store must go through
    /// a mapping model, not the inferred one (which writes a new file).
    ///
    /// Throws 134110 when the source is missing, the destination is not a store of
    /// ``destinationModel``, or the migration fails; then a destination this call created is
    /// removed, and one an earlier pass wrote is left as that pass left it (a save is all or nothing).
    public func migrateStore(from sourceURL: URL, to destinationURL: URL, mappingModel: MappingModel) throws {
        let manager = FileManager.default
        let sourcePath = sourceURL.path
        let destinationPath = destinationURL.path
        guard manager.fileExists(atPath: sourcePath) else {
            throw ManagedObjectError(.migration, "there is no store to migrate at \(sourcePath)")
        }
        let addsToExistingStore = manager.fileExists(atPath: destinationPath)
        if addsToExistingStore, mappingModel.isInferred {
            throw ManagedObjectError(
                .migration,
                "cannot migrate \(sourcePath) to \(destinationPath) by inference: a file is there already (an inferred migration writes a new store; a further pass into an existing store goes through a mapping model)")
        }
        try SQLiteStoreMigration.checkpoint(sourcePath)
        let sourceSupport = ExternalBinaryData.supportDirectory(ofStoreAt: sourceURL)
        let destinationSupport = ExternalBinaryData.supportDirectory(ofStoreAt: destinationURL)
        let externalData = ExternalBinaryData(storeAt: destinationURL)
        let copiesExternalData = manager.fileExists(atPath: sourceSupport.path) && !manager.fileExists(atPath: destinationSupport.path)
            && sourceSupport.standardizedFileURL != destinationSupport.standardizedFileURL
        do {
            if copiesExternalData {
                try manager.copyItem(at: sourceSupport, to: destinationSupport)
            }
            if mappingModel.isInferred {
                begin(mappingModel)
                try SQLiteMigrationStep(source: sourceModel, destination: destinationModel)
                    .run(from: sourcePath, to: destinationPath, externalData: externalData)
            } else {
                try MappingModelMigrationStep(source: sourceModel, destination: destinationModel, mappingModel: mappingModel)
                    .run(from: sourcePath, to: destinationPath, externalData: externalData, manager: self)
            }
        } catch {
            if !addsToExistingStore {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? manager.removeItem(atPath: destinationPath + suffix) }
            }
            if copiesExternalData { try? manager.removeItem(at: destinationSupport) }
            if let error = error as? ManagedObjectError, error.code == .migration || error.code == .migrationMissingMappingModel { throw error }
            throw ManagedObjectError(.migration, "migrating \(sourcePath) to \(destinationPath) failed: \(error)", underlying: error)
        }
    }
}
