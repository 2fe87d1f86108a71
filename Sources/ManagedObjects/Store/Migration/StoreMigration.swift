import DataModel
import Foundation

/// What a store description allows when its store was written with another model version:
/// Core Data's `shouldMigrateStoreAutomatically` and `shouldInferMappingModelAutomatically`,
/// and the model versions to migrate through. Every store type that migrates takes these.
public struct StoreMigrationOptions: Sendable {
    public var shouldMigrateStoreAutomatically: Bool
    public var shouldInferMappingModelAutomatically: Bool
    public var modelVersions: ManagedObjectModelVersions
    /// The steps that need more than inference (between two versions named as in `modelVersions`).
    public var mappingModels: [MappingModel]

    public init(
        modelVersions: ManagedObjectModelVersions,
        mappingModels: [MappingModel] = [],
        shouldMigrateStoreAutomatically: Bool = true,
        shouldInferMappingModelAutomatically: Bool = true
    ) {
        self.modelVersions = modelVersions
        self.mappingModels = mappingModels
        self.shouldMigrateStoreAutomatically = shouldMigrateStoreAutomatically
        self.shouldInferMappingModelAutomatically = shouldInferMappingModelAutomatically
    }
}

extension PersistentStoreDescription {
    /// The migration the description allows; `nil` without `modelVersions` (stores are not migrated).
    public var migrationOptions: StoreMigrationOptions? {
        modelVersions.map {
            StoreMigrationOptions(
                modelVersions: $0, mappingModels: mappingModels,
                shouldMigrateStoreAutomatically: shouldMigrateStoreAutomatically,
                shouldInferMappingModelAutomatically: shouldInferMappingModelAutomatically)
        }
    }
}

/// The store-independent part of a migration: which versions a store goes through, and whether
/// the options allow it. Each store copies its rows its own way (``InferredMigrationPlan``).
package enum StoreMigration {
    /// One version to the next: by `mappingModel`, else inferred.
    package struct Step {
        package var source: ManagedObjectModelVersions.Version
        package var destination: ManagedObjectModelVersions.Version
        package var mappingModel: MappingModel?
    }

    /// The steps from the version at `sourceIndex` (which wrote the store `store` names) to
    /// `model`: each later version up to it, or straight to a model that is not among the
    /// versions; `nil` when `model` is the source version. Throws 134100 when migration is off
    /// or the store's version is later than `model`'s, 134140 when a step has no mapping model
    /// and inferring one is off.
    package static func steps(
        fromVersionAt sourceIndex: Int, to model: ManagedObjectModel, options: StoreMigrationOptions, store: String
    ) throws -> [Step]? {
        let versions = options.modelVersions
        let targetIndex = versions.index(of: model)
        let source = versions.versions[sourceIndex]
        guard targetIndex != sourceIndex else { return nil }
        let targetName = targetIndex.map { versions.versions[$0].name } ?? "the model"
        guard options.shouldMigrateStoreAutomatically else {
            throw ManagedObjectError(
                .persistentStoreIncompatibleVersionHash,
                "\(store) was written with model version \(source.name), not \(targetName), and automatic migration is off")
        }
        var destinations: [ManagedObjectModelVersions.Version]
        if let targetIndex {
            guard targetIndex > sourceIndex else {
                throw ManagedObjectError(
                    .persistentStoreIncompatibleVersionHash,
                    "\(store) was written with model version \(source.name), which is later than \(targetName); migrating back is not supported")
            }
            destinations = Array(versions.versions[(sourceIndex + 1)...targetIndex])
        } else {
            destinations = [.init(name: targetName, model: model)]
        }
        // From each version: a mapping model to the furthest version it reaches (a direct
        // mapping before a chain, as Core Data prefers), else the next version, inferred.
        var previous = source
        var steps: [Step] = []
        var remaining = destinations[...]
        while let next = remaining.first {
            let direct = remaining.indices.reversed().lazy.compactMap { index in
                options.mappingModels.first { $0.maps(from: previous, to: remaining[index]) }.map { (index, $0) }
            }.first
            guard direct != nil || options.shouldInferMappingModelAutomatically else {
                throw ManagedObjectError(
                    .migrationMissingMappingModel,
                    "no mapping model from version \(previous.name) to \(next.name) for \(store), and inferring one is off")
            }
            let index = direct?.0 ?? remaining.startIndex
            steps.append(Step(source: previous, destination: remaining[index], mappingModel: direct?.1))
            previous = remaining[index]
            remaining = remaining[(index + 1)...]
        }
        return steps
    }
}

extension ManagedObjectError.Code {
    /// NSMigrationError: the migration failed (here: the data does not fit the new version).
    public static let migration = ManagedObjectError.Code(rawValue: 134110)
    /// NSMigrationMissingMappingModelError: no mapping model, and none can be inferred.
    public static let migrationMissingMappingModel = ManagedObjectError.Code(rawValue: 134140)
}
