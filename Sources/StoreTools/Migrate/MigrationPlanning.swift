import Foundation
import ManagedObjects

/// The steps a store (or a model's versions, without a store) goes through to a later version,
/// each outlined as the runtime's migration would run it: the steps are the runtime's
/// (`StoreMigration.steps`), an inferred step's outline comes from the runtime's inference
/// (`InferredMigrationPlan`), a step by mapping model from that mapping model. `inspect`,
/// `migrate --dry-run` and `diff` print these; nothing here plans a migration of its own.
package enum MigrationPlanning {
    /// The outlines of the steps from the version at `sourceIndex` to `target`. `storeLayout`:
    /// the store's (its numbers, keys and, by entity, how many objects), for the first step;
    /// `nil` plans for a store laid out as the source version lays out a new one. Throws the
    /// runtime's error when the steps cannot be made (134100: a later version wrote the store;
    /// 134140: inference off without a mapping model).
    package static func outlines(
        versions: ManagedObjectModelVersions, fromVersionAt sourceIndex: Int, to target: ManagedObjectModelVersions.Version,
        mappingModels: [(name: String, model: MappingModel)], storeLayout: StoreVersionIdentification.StoreLayout?,
        objectsByEntity: [String: Int]?, store: String
    ) throws -> [MigrationPlanOutline] {
        let options = StoreMigrationOptions(modelVersions: versions, mappingModels: mappingModels.map(\.model))
        guard let steps = try StoreMigration.steps(fromVersionAt: sourceIndex, to: target.model, options: options, store: store) else {
            return []
        }
        // Objects by entity before each step: the store's, then carried along entity by entity.
        var objects = objectsByEntity
        return steps.enumerated().map { number, step in
            let outline = outline(of: step, number: number, mappingModels: mappingModels, storeLayout: storeLayout, objectsByEntity: objects, store: store)
            objects = objects.map { before in
                Dictionary(outline.entities.map { entity -> (String, Int) in
                    switch entity.change {
                    case .copied: (entity.name, before[entity.name] ?? 0)
                    case .renamed(let from), .mapped(_, let from, _): (entity.name, before[from] ?? 0)
                    case .added, .removed: (entity.name, 0)
                    }
                }, uniquingKeysWith: +)
            }
            return outline
        }
    }

    private static func outline(
        of step: StoreMigration.Step, number: Int, mappingModels: [(name: String, model: MappingModel)],
        storeLayout: StoreVersionIdentification.StoreLayout?, objectsByEntity: [String: Int]?, store: String
    ) -> MigrationPlanOutline {
        if let mapping = step.mappingModel {
            let name = mappingModels.first { $0.model.maps(from: step.source, to: step.destination) }?.name ?? "mapping model"
            return mapping.outline(sourceVersion: step.source.name, destinationVersion: step.destination.name, name: name)
        }
        // Only the first step reads the store as it is; the later ones read what the
        // previous step writes, laid out as a new store of their source version.
        let layout = number == 0 ? storeLayout : nil
        do {
            let plan = try InferredMigrationPlan.sqlite(from: step.source.model, to: step.destination.model, storeLayout: layout, store: store)
            return plan.outline(
                sourceVersion: step.source.name, destinationVersion: step.destination.name,
                rowsByEntity: objectsByEntity)
        } catch let error as ManagedObjectError {
            return MigrationPlanOutline(
                sourceVersion: step.source.name, destinationVersion: step.destination.name, mappingModel: nil, entities: [],
                blockers: [MigrationPlanOutline.Blocker(code: error.code.rawValue, entity: error.entityName, property: error.key, reason: error.message)])
        } catch {
            return MigrationPlanOutline(
                sourceVersion: step.source.name, destinationVersion: step.destination.name, mappingModel: nil, entities: [],
                blockers: [MigrationPlanOutline.Blocker(code: ManagedObjectError.Code.migration.rawValue, entity: nil, property: nil, reason: "\(error)")])
        }
    }
}
