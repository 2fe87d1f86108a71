import Foundation

/// Migrates a binary or XML store file written with one version of a model to another, as
/// ``SQLiteStoreMigration`` does an SQLite file, with the same steps (``StoreMigration``: a
/// mapping model the app gives, else the next version inferred), each run over objects by a
/// ``MigrationManager``: the whole graph is read with the step's source version and written into
/// a new file beside the store (`<store>.migrating.<n>`), and the last one is renamed over the
/// store only when complete; a failure leaves the store as it was.
///
/// An inferred step maps each destination entity from its source entity (by renaming
/// identifier, else name) and each stored property from its source property (likewise): the
/// changes inference accepts are those it accepts for SQLite (134140 naming the entity and
/// property otherwise). The migrated file has a new store UUID.
enum AtomicStoreMigration {
    static func migrateIfNeeded(type: PersistentStoreType, storeAt url: URL, to model: ManagedObjectModel, options: StoreMigrationOptions) throws {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let metadata = try AtomicStore.metadataOfFile(at: url, type: type)
        let versions = options.modelVersions
        // Written with `model`, or with no version (opening then judges the file).
        guard !model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata),
              let sourceIndex = versions.versions.firstIndex(where: { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }),
              let steps = try StoreMigration.steps(fromVersionAt: sourceIndex, to: model, options: options, store: path)
        else { return }
        var current = url
        var written: [URL] = []
        defer { for file in written where file != url { try? FileManager.default.removeItem(at: file) } }
        for (number, step) in steps.enumerated() {
            let destination = URL(fileURLWithPath: "\(path).migrating.\(number)")
            try? FileManager.default.removeItem(at: destination)
            written.append(destination)
            let mappingModel = try step.mappingModel ?? objectMapping(from: step.source.model, to: step.destination.model)
            let manager = MigrationManager(sourceModel: step.source.model, destinationModel: step.destination.model)
            do {
                try manager.migrateObjects(
                    through: mappingModel,
                    from: AtomicStore(type: type, model: step.source.model, url: current),
                    to: AtomicStore(type: type, model: step.destination.model, url: destination))
            } catch let error as ManagedObjectError where error.code == .migration || error.code == .migrationMissingMappingModel {
                throw error
            } catch {
                throw ManagedObjectError(.migration, "migrating \(path) from version \(step.source.name) to \(step.destination.name) failed: \(error)", underlying: error)
            }
            current = destination
        }
        guard rename(current.path, path) == 0 else {
            throw ManagedObjectError(.migration, "cannot put the migrated store in place of \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The lightweight migration from `source` to `destination` as a mapping model run over
    /// objects: ``MappingModel/inferred(from:to:)`` (which checks every change can be inferred),
    /// each entity mapping given its stored properties' source properties, renamed ones included.
    static func objectMapping(from source: ManagedObjectModel, to destination: ManagedObjectModel) throws -> MappingModel {
        var mapping = try MappingModel.inferred(from: source, to: destination)
        mapping.isInferred = false
        mapping.entityMappings = mapping.entityMappings.map { entityMapping in
            var entityMapping = entityMapping
            guard let entity = destination[entityMapping.destinationEntityName] else { return entityMapping }
            func mappings(_ properties: [PropertyDescription]) -> [PropertyMapping] {
                properties.compactMap { property in
                    InferredMigrationPlan.sourceProperty(for: property, of: entity, in: source).map {
                        PropertyMapping(name: property.name, value: .sourceKeyPath($0.name))
                    }
                }
            }
            entityMapping.attributeMappings = mappings(entity.attributes.filter { !$0.isTransient && !$0.attribute.isDerived }.map { $0 as PropertyDescription })
            entityMapping.relationshipMappings = mappings(entity.relationships.filter { !$0.isTransient }.map { $0 as PropertyDescription })
            return entityMapping
        }
        return mapping
    }
}
