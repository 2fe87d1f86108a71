import Foundation
import ManagedObjects

/// `managedgen export`: every object of a store's entities, with its attributes and its
/// relationships as object ID URIs, as JSON, JSON Lines or CSV.
///
/// The store is a private copy (``StoreSnapshot``) opened through the runtime with the model
/// version that wrote it (so nothing is migrated), and its objects are read one at a time in key
/// order through one cursor (`SQLiteStore.forEachObject`), written out as they come: memory stays
/// bounded however many objects there are.
package struct StoreExporter {
    /// How many objects of each entity were written, in the order written.
    package struct Summary: Sendable {
        package var objectsByEntity: [(entity: String, objects: Int)]
        package var total: Int { objectsByEntity.map(\.objects).reduce(0, +) }
    }

    package let storePath: String
    package let bundle: String
    /// Entity names to export (each with its sub-entities' objects); empty: every entity.
    package let entityNames: [String]
    package let format: ExportFormat

    package init(storeAt storePath: String, bundle: String, entities entityNames: [String] = [], format: ExportFormat = .json) {
        self.storePath = storePath
        self.bundle = bundle
        self.entityNames = entityNames
        self.format = format
    }

    /// Writes the export to `output`. Throws naming the store, the model or the entity when one
    /// cannot be read, before anything is written when it can tell.
    package func export(to output: BufferedOutput) throws -> Summary {
        let snapshot = try StoreSnapshot(of: storePath)
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let layout: StoreVersionIdentification.StoreLayout
        do {
            layout = try SQLiteStoreMetadata.readStore(at: snapshot.url.path, StoreVersionIdentification.StoreLayout.read)
        } catch let error as ManagedObjectError {
            throw StoreToolError(file: storePath, snapshot.originalPath(in: error.message) + " (\(error.code.rawValue))")
        }
        guard let sourceIndex = StoreVersionIdentification.sourceVersionIndex(of: layout, among: versions, preferring: nil) else {
            throw StoreToolError(file: storePath, "no version of \(bundle) wrote this store: it cannot be read with that model (134020)")
        }
        let model = versions.versions[sourceIndex].model
        let entities = try chosenEntities(of: model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store: SQLiteStore
        do {
            guard let opened = try coordinator.addPersistentStore(type: .sqlite, at: snapshot.url) as? SQLiteStore else {
                throw StoreToolError(file: storePath, "did not open as an SQLite store")
            }
            store = opened
        } catch let error as ManagedObjectError {
            throw StoreToolError(file: storePath, snapshot.originalPath(in: error.message) + " (\(error.code.rawValue))")
        }
        defer { try? coordinator.remove(store) }

        let columns = format == .csv ? csvColumns(of: entities) : []
        switch format {
        case .json: try output.write("[")
        case .csv: try output.write((["entity", "objectID"] + columns).map(ExportValueEncoding.csv).joined(separator: ",") + "\r\n")
        case .jsonl: break
        }
        var summary = Summary(objectsByEntity: [])
        var first = true
        for (entity, includesSubentities) in entities {
            var count = 0
            do {
                try store.forEachObject(of: entity, includesSubentities: includesSubentities) { object, relatedObjectIDs in
                    let line = try record(object, relatedObjectIDs: relatedObjectIDs, columns: columns)
                    switch format {
                    case .json: try output.write((first ? "\n" : ",\n") + line)
                    case .jsonl: try output.write(line + "\n")
                    case .csv: try output.write(line + "\r\n")
                    }
                    first = false
                    count += 1
                }
            } catch let error as ManagedObjectError {
                throw StoreToolError(file: storePath, snapshot.originalPath(in: error.message) + " (\(error.code.rawValue))")
            }
            summary.objectsByEntity.append((entity.name, count))
        }
        if format == .json { try output.write(first ? "]\n" : "\n]\n") }
        try output.flush()
        return summary
    }

    /// The entities asked for, each with its sub-entities; every entity (without its
    /// sub-entities, which come on their own) when none was.
    private func chosenEntities(of model: ManagedObjectModel) throws -> [(EntityDescription, includesSubentities: Bool)] {
        guard !entityNames.isEmpty else { return model.entities.map { ($0, false) } }
        return try entityNames.map { name in
            guard let entity = model[name] else {
                throw StoreToolError(
                    file: bundle, "has no entity \(name) (its entities: \(model.entities.map(\.name).joined(separator: ", ")))")
            }
            return (entity, true)
        }
    }

    /// Every property name of the entities written (and their sub-entities), in model order.
    private func csvColumns(of entities: [(EntityDescription, includesSubentities: Bool)]) -> [String] {
        var columns: [String] = []
        for (entity, includesSubentities) in entities {
            for member in includesSubentities ? entity.selfAndDescendants : [entity] {
                for property in member.properties where !columns.contains(property.name) { columns.append(property.name) }
            }
        }
        return columns
    }

    /// One object as a JSON object (`entity`, `objectID`, then its properties in model order)
    /// or a CSV line of `columns`.
    private func record(
        _ object: StoredObject, relatedObjectIDs: (RelationshipDescription) throws -> [ManagedObjectID], columns: [String]
    ) throws -> String {
        let entity = object.objectID.entity
        var values: [(name: String, value: Any?)] = []
        values.reserveCapacity(entity.properties.count)
        for (property, stored) in zip(entity.properties, object.values) {
            switch (property.kind, stored) {
            case (_, .attribute(let value)): values.append((property.name, value))
            case (_, .toOne(let id)): values.append((property.name, id))
            case (_, .toMany(let ids)): values.append((property.name, ids))
            case (.relationship(let relationship), .toManyFault): values.append((property.name, try relatedObjectIDs(relationship)))
            case (.attribute, .toManyFault), (.fetchedProperty, .toManyFault): values.append((property.name, nil))
            }
        }
        if format == .csv {
            let byName = Dictionary(values.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let cells = [ExportValueEncoding.csv(entity.name), ExportValueEncoding.csv(object.objectID)]
                + columns.map { ExportValueEncoding.csv(byName[$0] ?? nil) }
            return cells.joined(separator: ",")
        }
        let fields = ["\"entity\":" + ExportValueEncoding.jsonString(entity.name), "\"objectID\":" + ExportValueEncoding.json(object.objectID)]
            + values.map { ExportValueEncoding.jsonString($0.name) + ":" + ExportValueEncoding.json($0.value) }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
