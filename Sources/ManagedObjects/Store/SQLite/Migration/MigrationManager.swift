import DataModel
import Foundation
import GRDB

/// Runs a mapping model over the objects of a store: Core Data's `NSMigrationManager`. A
/// migration step reads the source store through a context of the source version and writes a
/// new store through a context of the destination version, in Core Data's stages: every entity
/// mapping creates its destination objects (``EntityMigrationPolicy/createDestinationInstances(forSource:in:manager:)``),
/// then sets their relationships, then the destination is validated and saved at once.
///
/// Policies run on the migration's thread; use the contexts and objects they are given only there.
public final class MigrationManager {
    public let sourceModel: ManagedObjectModel
    public let destinationModel: ManagedObjectModel
    /// The mapping model of the migration running (or last run); one with no entity mappings
    /// before any.
    public private(set) var mappingModel: MappingModel
    public let sourceContext: ManagedObjectContext
    public let destinationContext: ManagedObjectContext
    /// For policies to keep what they need across objects (Core Data's `userInfo`).
    public var userInfo: [String: Any] = [:]
    /// Per entity mapping name: the destination objects made of each source object, and back.
    private var destinations: [String: [ManagedObjectID: [ManagedObject]]] = [:]
    private var sources: [String: [ObjectIdentifier: ManagedObject]] = [:]
    /// Per entity mapping name, the destination objects in creation order.
    private var created: [String: [ManagedObject]] = [:]

    /// A manager for migrating stores of `sourceModel` to `destinationModel`
    /// (``migrateStore(from:to:mappingModel:)``). Core Data's `init(sourceModel:destinationModel:)`.
    public init(sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.mappingModel = MappingModel(from: "", to: "", entityMappings: [])
        // The contexts' coordinators get their stores when a migration runs.
        sourceContext = ManagedObjectContext(
            concurrencyType: .privateQueue, persistentStoreCoordinator: PersistentStoreCoordinator(managedObjectModel: sourceModel))
        destinationContext = ManagedObjectContext(
            concurrencyType: .privateQueue, persistentStoreCoordinator: PersistentStoreCoordinator(managedObjectModel: destinationModel))
    }

    /// Starts a migration through `mappingModel`: forgets the objects of the previous one.
    func begin(_ mappingModel: MappingModel) {
        self.mappingModel = mappingModel
        destinations = [:]
        sources = [:]
        created = [:]
    }

    /// Records that `destination` was made of `source` by `mapping`.
    public func associate(sourceInstance source: ManagedObject, withDestinationInstance destination: ManagedObject, for mapping: EntityMapping) {
        destinations[mapping.name, default: [:]][source.objectID, default: []].append(destination)
        sources[mapping.name, default: [:]][ObjectIdentifier(destination)] = source
        created[mapping.name, default: []].append(destination)
    }

    /// The destination objects the mapping named `name` made of `sourceInstances`. Core Data's
    /// `destinationInstances(forEntityMappingName:sourceInstances:)`.
    public func destinationInstances(forEntityMappingName name: String, sourceInstances: [ManagedObject]) -> [ManagedObject] {
        sourceInstances.flatMap { destinations[name]?[$0.objectID] ?? [] }
    }

    /// The source objects the mapping named `name` made `destinationInstances` of.
    public func sourceInstances(forEntityMappingName name: String, destinationInstances: [ManagedObject]) -> [ManagedObject] {
        destinationInstances.compactMap { sources[name]?[ObjectIdentifier($0)] }
    }

    /// Core Data's default: one object of the destination entity with the attribute mappings applied.
    public func createDefaultDestinationInstance(forSource source: ManagedObject, in mapping: EntityMapping) throws {
        guard let entity = destinationContext.coordinator.managedObjectModel[mapping.destinationEntityName] else {
            throw ManagedObjectError(
                .migration, "entity mapping \(mapping.name) names no destination entity \(mapping.destinationEntityName)",
                entityName: mapping.destinationEntityName)
        }
        let destination = entity.managedObjectClass.init(entity: entity, insertInto: destinationContext)
        let mappings = mapping.attributeMappings ?? entity.attributes.filter { !$0.isTransient && source.entity.attribute(named: $0.name) != nil }
            .map { PropertyMapping(name: $0.name, value: .sourceKeyPath($0.name)) }
        for attributeMapping in mappings {
            guard entity.attribute(named: attributeMapping.name) != nil else {
                throw ManagedObjectError(
                    .migration, "entity mapping \(mapping.name) maps \(attributeMapping.name), which is no attribute of \(entity.name)",
                    entityName: entity.name, key: attributeMapping.name)
            }
            switch attributeMapping.value {
            case .sourceKeyPath(let keyPath)?:
                destination.setValue(source.value(forKeyPath: keyPath), forKey: attributeMapping.name)
            case .constant(let constant)?:
                destination.setValue(constant.value, forKey: attributeMapping.name)
            case .expression(let expression)?:
                destination.setValue(try Self.value(of: expression, forSource: source, in: mapping, key: attributeMapping.name), forKey: attributeMapping.name)
            case .destinationInstances?:
                throw ManagedObjectError(
                    .migration, "entity mapping \(mapping.name) gives attribute \(attributeMapping.name) destination objects",
                    entityName: entity.name, key: attributeMapping.name)
            case nil:
                continue
            }
        }
        associate(sourceInstance: source, withDestinationInstance: destination, for: mapping)
    }

    /// Core Data's default: the relationship mappings applied to a destination object.
    public func createDefaultRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping) throws {
        guard let source = sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination]).first else { return }
        let mappings = mapping.relationshipMappings ?? destination.entity.relationships
            .filter { !$0.isTransient && source.entity.relationship(named: $0.name) != nil }
            .map { PropertyMapping(name: $0.name, value: .sourceKeyPath($0.name)) }
        for relationshipMapping in mappings {
            guard let relationship = destination.entity.relationship(named: relationshipMapping.name) else {
                throw ManagedObjectError(
                    .migration, "entity mapping \(mapping.name) maps \(relationshipMapping.name), which is no relationship of \(destination.entity.name)",
                    entityName: destination.entity.name, key: relationshipMapping.name)
            }
            let related: [ManagedObject]
            switch relationshipMapping.value {
            case .sourceKeyPath(let keyPath)?:
                // The destination objects any mapping made of the related source objects.
                let sourceObjects = Self.objects(source.value(forKeyPath: keyPath))
                related = sourceObjects.flatMap { object in
                    mappingModel.entityMappings.lazy.compactMap { self.destinations[$0.name]?[object.objectID]?.first }.prefix(1)
                }
            case .destinationInstances(let name, let keyPath)?:
                related = destinationInstances(forEntityMappingName: name, sourceInstances: Self.objects(source.value(forKeyPath: keyPath)))
            case .constant(.null)?:
                related = []
            case .expression(let expression)?:
                throw ManagedObjectError(
                    .migration, "entity mapping \(mapping.name) gives relationship \(relationshipMapping.name) the expression \(expression); expressions give attributes only",
                    entityName: destination.entity.name, key: relationshipMapping.name)
            case .constant(let constant)?:
                throw ManagedObjectError(
                    .migration, "entity mapping \(mapping.name) gives relationship \(relationshipMapping.name) the constant \(MappingExpression.constant(constant))",
                    entityName: destination.entity.name, key: relationshipMapping.name)
            case nil:
                continue
            }
            if relationship.isToMany {
                destination.setValue(relationship.isOrdered ? OrderedSet(related) as Any : Set(related) as Any, forKey: relationship.name)
            } else {
                destination.setValue(related.first, forKey: relationship.name)
            }
        }
    }

    /// A value expression's value for `source`, with `$source` bound to it (Core Data's other
    /// variables, `$manager`, `$entityMapping`, `$entityPolicy`…, are not evaluated here).
    private static func value(of expression: ObjectExpression, forSource source: ManagedObject, in mapping: EntityMapping, key: String) throws -> Any? {
        if let unknown = expression.variableNames.first(where: { $0 != "source" }) {
            throw ManagedObjectError(
                .migration, "entity mapping \(mapping.name) gives \(key) the expression \(expression), which reads $\(unknown): only $source is evaluated",
                entityName: mapping.destinationEntityName, key: key)
        }
        return expression.value(with: source, variables: ["source": source])
    }

    /// The objects a key path's value holds (one, a set, an ordered set or an array of them).
    private static func objects(_ value: Any?) -> [ManagedObject] {
        switch value {
        case let object as ManagedObject: [object]
        case let set as Set<ManagedObject>: set.sorted { ($0.objectID.storeNumber ?? 0) < ($1.objectID.storeNumber ?? 0) }
        case let ordered as OrderedSet<ManagedObject>: Array(ordered)
        case let array as [Any]: array.compactMap { $0 as? ManagedObject }
        default: []
        }
    }

    /// Creates every destination object, then every relationship, each mapping with its policy.
    func migrateObjects() throws {
        var policies: [String: EntityMigrationPolicy] = [:]
        for mapping in mappingModel.entityMappings {
            if let name = mapping.entityMigrationPolicyClassName {
                guard let type = EntityMigrationPolicies.policy(named: name) else {
                    throw ManagedObjectError(
                        .migration, "entity mapping \(mapping.name) names migration policy \(name), which is not registered (EntityMigrationPolicies.register)",
                        entityName: mapping.destinationEntityName)
                }
                policies[mapping.name] = type.init()
            } else {
                policies[mapping.name] = EntityMigrationPolicy()
            }
        }
        for mapping in mappingModel.entityMappings {
            let request = FetchRequest<ManagedObject>(entityName: mapping.sourceEntityName)
            request.includesSubentities = false
            request.predicate = mapping.sourcePredicate
            request.sortDescriptors = []
            for source in try sourceContext.fetch(request).sorted(by: { ($0.objectID.storeNumber ?? 0) < ($1.objectID.storeNumber ?? 0) }) {
                try policies[mapping.name]!.createDestinationInstances(forSource: source, in: mapping, manager: self)
            }
        }
        for mapping in mappingModel.entityMappings {
            for destination in created[mapping.name] ?? [] {
                try policies[mapping.name]!.createRelationships(forDestination: destination, in: mapping, manager: self)
            }
        }
    }
}

/// A migration step through a mapping model: the source store read through a context of the
/// source version, a new store written through a context of the destination version, saved once.
struct MappingModelMigrationStep {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    let mappingModel: MappingModel

    /// The new store writes its external binary data into `externalData`'s folder, beside the
    /// files the source's cells name.
    func run(from sourcePath: String, to destinationPath: String, externalData: ExternalBinaryData) throws {
        try run(from: sourcePath, to: destinationPath, externalData: externalData, manager: MigrationManager(sourceModel: source, destinationModel: destination))
    }

    /// As ``run(from:to:externalData:)``, with the objects migrated by `manager` (of `source` and `destination`).
    func run(from sourcePath: String, to destinationPath: String, externalData: ExternalBinaryData, manager: MigrationManager) throws {
        let sourceMetadata = try SQLiteStoreMetadata.readStore(at: sourcePath, SQLiteStoreMetadata.read)
        let identifier = sourceMetadata["NSStoreUUID"] as? String ?? UUID().uuidString
        try manager.migrateObjects(through: mappingModel, from: sourcePath, to: destinationPath, externalData: externalData)
        // The stores are closed: the new file keeps the old UUID and the app's metadata keys,
        // and goes without a WAL, ready to replace the store.
        do {
            let queue = try DatabaseQueue(path: destinationPath)
            try queue.write { db in
                try db.execute(
                    sql: "UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ?",
                    arguments: [identifier, try SQLiteStoreMetadata.propertyList(for: destination, identifier: identifier, keeping: sourceMetadata)])
            }
            try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try queue.close()
        } catch {
            throw ManagedObjectError(.migration, "migrating \(sourcePath) through mapping model \(mappingModel.sourceVersionName) → \(mappingModel.destinationVersionName) failed: \(error)", underlying: error)
        }
    }
}

extension MigrationManager {
    /// Runs `mappingModel` over the objects of the store file at `sourcePath` (of
    /// ``sourceModel``) into a new store file at `destinationPath` (of ``destinationModel``); both
    /// keep their external binary data in `externalData`. Leaves both files closed.
    func migrateObjects(through mappingModel: MappingModel, from sourcePath: String, to destinationPath: String, externalData: ExternalBinaryData) throws {
        let snapshot = destinationPath + ".source"
        do {
            try FileManager.default.copyItem(atPath: sourcePath, toPath: snapshot)
        } catch {
            throw ManagedObjectError(.migration, "cannot copy \(sourcePath) to migrate it: \(error)", underlying: error)
        }
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: snapshot + suffix) } }
        let sourceStore = try SQLiteStore(model: sourceModel, url: URL(fileURLWithPath: snapshot), externalDataDirectory: externalData.directory)
        let destinationStore = try SQLiteStore(model: destinationModel, url: URL(fileURLWithPath: destinationPath), externalDataDirectory: externalData.directory)
        try migrateObjects(through: mappingModel, from: sourceStore, to: destinationStore)
    }

    /// Runs `mappingModel` over the objects of `sourceStore` (of ``sourceModel``) into
    /// `destinationStore` (of ``destinationModel``), saved once; the stores are removed from the
    /// contexts' coordinators afterwards.
    func migrateObjects(through mappingModel: MappingModel, from sourceStore: any PersistentStore, to destinationStore: any PersistentStore) throws {
        let sourceCoordinator = sourceContext.coordinator
        let destinationCoordinator = destinationContext.coordinator
        sourceCoordinator.addPersistentStore(sourceStore)
        destinationCoordinator.addPersistentStore(destinationStore)
        defer {
            destinationContext.performAndWait { destinationContext.reset() }
            sourceContext.performAndWait { sourceContext.reset() }
            try? sourceCoordinator.remove(sourceStore)
            try? destinationCoordinator.remove(destinationStore)
        }
        begin(mappingModel)
        try sourceContext.performAndWait {
            do {
                try migrateObjects()
                try destinationContext.save()
            } catch let error as ManagedObjectError where error.code != .migration {
                throw ManagedObjectError(
                    .migration, "the objects migrated through mapping model \(mappingModel.sourceVersionName) → \(mappingModel.destinationVersionName) are not valid: \(error)",
                    entityName: error.entityName, key: error.key, detailedErrors: [error])
            }
        }
    }
}

extension MappingExpression.Constant {
    /// The value a constant sets, as key-value coding takes it.
    var value: Any? {
        switch self {
        case .string(let text): text
        case .integer(let value): value
        case .double(let value): value
        case .boolean(let value): value
        case .null: nil
        }
    }
}
