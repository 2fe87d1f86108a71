import DataModel
import Foundation

/// What an atomic store file holds, whatever its format: the store's metadata (UUID, type,
/// the model's version hashes) and every object, with each root entity's last number.
/// ``BinaryStoreFormat`` and ``XMLStoreFormat`` write it and read it back; this is where it
/// meets the model and the in-memory object graph.
struct AtomicStoreContents {
    /// One object: its entity, its number in its root entity's sequence (`p<n>` of its URI),
    /// its stored attributes (name, type, value) and its relationships (name, the root entity
    /// of the destination, empty where a format does not keep it, the members' numbers in that
    /// root's sequence in relationship order).
    struct Object {
        var entityName: String
        var number: Int64
        var attributes: [(name: String, type: AttributeType, value: AtomicStoreValue)] = []
        var relationships: [(name: String, destinationRoot: String, members: [Int64])] = []
    }

    /// `NSStoreUUID`, `NSStoreType`, `NSStoreModelVersionHashes`, … as Core Data's stores keep them.
    var metadata: [String: Any]
    /// The last number given out, by root entity name.
    var lastNumbers: [String: Int64]
    var objects: [Object]

    var identifier: String? { metadata["NSStoreUUID"] as? String }

    /// Contents a format read from a file.
    init(metadata: [String: Any], lastNumbers: [String: Int64], objects: [Object]) {
        self.metadata = metadata
        self.lastNumbers = lastNumbers
        self.objects = objects
    }

    // MARK: From the graph

    /// The contents of `graph`, a store of `model` of `type`: objects by root entity name and
    /// number, so a file written twice from the same graph is the same bytes.
    init(graph: InMemoryStore, model: ManagedObjectModel, type: PersistentStoreType) throws {
        metadata = try Self.metadata(for: model, identifier: graph.identifier, type: type)
        let (stored, numbers) = graph.storedContents()
        lastNumbers = [:]
        for entity in model.entities where entity.superentity == nil {
            if let number = numbers[ObjectIdentifier(entity)], number > 0 { lastNumbers[entity.name] = number }
        }
        objects = try stored
            .sorted { ($0.objectID.entity.rootEntity.name, $0.objectID.storeNumber ?? 0) < ($1.objectID.entity.rootEntity.name, $1.objectID.storeNumber ?? 0) }
            .map(Self.object(of:))
    }

    /// The metadata a new file of `model` has: the keys Core Data's stores keep (the same as
    /// an SQLite store's `Z_METADATA`, made in one place), with `type` as `NSStoreType`.
    static func metadata(for model: ManagedObjectModel, identifier: String, type: PersistentStoreType) throws -> [String: Any] {
        // Through a property list, so the values are what reading the file gives back.
        let plist = try PropertyListSerialization.data(
            fromPropertyList: SQLiteStoreMetadata.dictionary(for: model, identifier: identifier, storeType: type), format: .binary, options: 0)
        var metadata = try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any] ?? [:]
        metadata["_NSAutoVacuumLevel"] = nil  // an SQLite setting
        return metadata
    }

    private static func object(of stored: StoredObject) throws -> Object {
        let entity = stored.objectID.entity
        var object = Object(entityName: entity.name, number: stored.objectID.storeNumber ?? 0)
        for property in entity.properties where !property.isTransient {
            switch (property.kind, stored.values[property.index]) {
            case (.attribute(let attribute), .attribute(let value?)):
                guard AtomicStoreValue.kind(of: attribute.type) != nil else { continue }
                object.attributes.append((attribute.name, attribute.type, try AtomicStoreValue(value, attribute: attribute, objectID: stored.objectID)))
            case (.relationship(let relationship), .toOne(let member)):
                object.relationships.append((relationship.name, relationship.destinationRootName, member.flatMap(\.storeNumber).map { [$0] } ?? []))
            case (.relationship(let relationship), .toMany(let members)):
                object.relationships.append((relationship.name, relationship.destinationRootName, members.compactMap(\.storeNumber)))
            default:
                continue
            }
        }
        return object
    }

    // MARK: Into the graph

    /// The stored objects of the file (at version 1, as a newly opened store has them), with
    /// the last number of each root entity's sequence. Throws naming `path`, the object and
    /// what is wrong for an entity, property, value or member the model or file does not have.
    func storedObjects(
        model: ManagedObjectModel, identifier: String, path: String
    ) throws -> (objects: [StoredObject], lastNumbers: [ObjectIdentifier: Int64]) {
        func corrupt(_ message: String) -> ManagedObjectError {
            ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: \(message)")
        }
        // The in-memory graph keeps a root entity's objects in an array by number, so a number
        // far beyond the object count (a damaged file's, or a hostile one's) would ask for more
        // memory than the process has: such a file is refused.
        let largestNumber = Int64(objects.count) * 16 + (1 << 20)
        // Every object's ID first: members name objects by root sequence and number.
        var ids: [ObjectIdentifier: [Int64: ManagedObjectID]] = [:]
        var entities: [EntityDescription] = []
        entities.reserveCapacity(objects.count)
        for object in objects {
            guard let entity = model[object.entityName] else { throw corrupt("an object of entity \(object.entityName), which the model does not have") }
            guard object.number > 0, object.number <= largestNumber else {
                throw corrupt("an object of \(entity.name) numbered \(object.number), outside 1...\(largestNumber) for \(objects.count) objects")
            }
            let root = ObjectIdentifier(entity.rootEntity)
            guard ids[root]?[object.number] == nil else { throw corrupt("two objects numbered \(object.number) in \(entity.rootEntity.name)") }
            ids[root, default: [:]][object.number] = ManagedObjectID(
                entity: entity, key: .permanent(storeIdentifier: identifier, number: object.number))
            entities.append(entity)
        }
        func resolve(_ uri: URL) -> ManagedObjectID? {
            let parts = uri.path.split(separator: "/")
            guard uri.scheme == "x-coredata", uri.host?.caseInsensitiveCompare(identifier) == .orderedSame, parts.count == 2,
                  let entity = model[String(parts[0])], parts[1].first == "p", let number = Int64(parts[1].dropFirst())
            else { return nil }
            return ids[ObjectIdentifier(entity.rootEntity)]?[number]
        }
        var stored: [StoredObject] = []
        stored.reserveCapacity(objects.count)
        for (object, entity) in zip(objects, entities) {
            let objectID = ids[ObjectIdentifier(entity.rootEntity)]![object.number]!
            var values = entity.properties.map(\.emptyStoredValue)
            for (name, type, value) in object.attributes {
                guard case .attribute(let attribute)? = entity.propertiesByName[name]?.kind, !attribute.isTransient else {
                    throw corrupt("\(objectID) has a value for \(name), which is not a stored attribute of \(entity.name)")
                }
                guard attribute.type == type else {
                    throw corrupt("\(objectID) has a \(type.rawValue) value for \(name), a \(attribute.type.rawValue) attribute")
                }
                guard let read = try value.attributeValue(for: attribute, objectID: objectID, resolveObjectID: resolve) else {
                    throw corrupt("\(objectID) has \(value) for \(name), which does not read as \(attribute.type.rawValue)")
                }
                values[attribute.index] = .attribute(read)
            }
            for (name, destinationRoot, numbers) in object.relationships {
                guard case .relationship(let relationship)? = entity.propertiesByName[name]?.kind, let destination = relationship.destinationEntity else {
                    throw corrupt("\(objectID) has members for \(name), which is not a relationship of \(entity.name)")
                }
                guard destinationRoot.isEmpty || destinationRoot == relationship.destinationRootName else {
                    throw corrupt("\(objectID).\(name) names members of \(destinationRoot), not of \(relationship.destinationRootName)")
                }
                let root = ObjectIdentifier(destination.rootEntity)
                let members = try numbers.map { number in
                    guard let member = ids[root]?[number], member.entity.isKind(of: destination) else {
                        throw corrupt("\(objectID).\(name) names \(destination.rootEntity.name) number \(number), which the file does not hold as a \(destination.name)")
                    }
                    return member
                }
                if relationship.isToMany {
                    values[relationship.index] = .toMany(members)
                } else {
                    guard members.count <= 1 else { throw corrupt("\(objectID).\(name) is a to-one with \(members.count) members") }
                    values[relationship.index] = .toOne(members.first)
                }
            }
            stored.append(StoredObject(objectID: objectID, version: 1, values: values))
        }
        var lastNumbers: [ObjectIdentifier: Int64] = [:]
        for (name, number) in self.lastNumbers {
            guard let entity = model[name], entity.superentity == nil else { throw corrupt("a number sequence for \(name), which is not a root entity of the model") }
            guard number >= 0, number <= largestNumber else {
                throw corrupt("the last number of \(name) is \(number), outside 0...\(largestNumber) for \(objects.count) objects")
            }
            lastNumbers[ObjectIdentifier(entity)] = number
        }
        return (stored, lastNumbers)
    }
}

extension RelationshipDescription {
    /// The name of the root of the destination entity: the sequence member numbers are in.
    var destinationRootName: String { destinationEntity?.rootEntity.name ?? "" }
}
