// A custom Core Data store over one JSON file, written as an app writes one for Apple's Core
// Data: a subclass of NSIncrementalStore, registered under a type name. The file holds the
// store's metadata and every object as a record (its version and values, relationships as the
// related records' numbers); a save writes the whole file, through a temporary file renamed
// over it, and only then takes the new records.
import CoreData
import Foundation

// `@unchecked Sendable`: stores are shared by contexts on any thread; Core Data (and
// ManagedObjects) call a store one call at a time. Swift 6 on Linux asks a subclass to say so.
final class JSONFileStore: NSIncrementalStore, @unchecked Sendable {
    static let type = "JSONFileStore"

    static func register() {
        NSPersistentStoreCoordinator.registerStoreClass(JSONFileStore.self, forStoreType: type)
    }

    enum StoreError: Error, CustomStringConvertible {
        case noURL
        case damaged(URL)
        case noRecord(NSManagedObjectID)
        case unsupported(NSPersistentStoreRequestType)

        var description: String {
            switch self {
            case .noURL: "a JSON store needs a file URL"
            case .damaged(let url): "\(url.path) is not a JSON store file"
            case .noRecord(let objectID): "the store has no record for \(objectID)"
            case .unsupported(let type): "the JSON store does not run requests of type \(type)"
            }
        }
    }

    private struct Record {
        var version: Int
        var values: [String: Any]
    }

    /// Entity name → object number → record.
    private var records: [String: [Int: Record]] = [:]
    /// The last object number handed out.
    private var lastNumber = 0

    // MARK: Opening

    override func loadMetadata() throws {
        guard let url else { throw StoreError.noURL }
        guard let data = try? Data(contentsOf: url), !data.isEmpty else {
            // No file yet (or an empty one): a new store, written at the first save.
            metadata = [NSStoreTypeKey: Self.type, NSStoreUUIDKey: UUID().uuidString]
            return
        }
        guard let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let storedMetadata = file["metadata"] as? [String: Any],
              let lastNumber = file["lastNumber"] as? Int,
              let objects = file["objects"] as? [String: [String: [String: Any]]]
        else { throw StoreError.damaged(url) }
        metadata = storedMetadata
        self.lastNumber = lastNumber
        for (entityName, byNumber) in objects {
            for (number, record) in byNumber {
                guard let number = Int(number), let version = record["version"] as? Int,
                      let values = record["values"] as? [String: Any]
                else { throw StoreError.damaged(url) }
                records[entityName, default: [:]][number] = Record(version: version, values: values)
            }
        }
    }

    // MARK: Fetching and saving

    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        switch request.requestType {
        case .fetchRequestType:
            guard let fetchRequest = request as? NSFetchRequest<NSManagedObject>, let context,
                  let entity = fetchRequest.entity, let entityName = entity.name
            else { throw StoreError.unsupported(request.requestType) }
            // Every record of the entity as an object (a fault until used), filtered by the
            // predicate. ManagedObjects sorts and windows a custom store's answer itself (with
            // Apple's Core Data, sort here by fetchRequest.sortDescriptors).
            var matches = (records[entityName] ?? [:]).keys.sorted().map { number in
                context.object(with: newObjectID(for: entity, referenceObject: number))
            }
            if let predicate = fetchRequest.predicate {
                matches = matches.filter { predicate.evaluate(with: $0) }
            }
            switch fetchRequest.resultType {
            case .countResultType: return [matches.count]
            case .managedObjectIDResultType: return matches.map(\.objectID)
            default: return matches
            }
        case .saveRequestType:
            guard let save = request as? NSSaveChangesRequest else { throw StoreError.unsupported(request.requestType) }
            var staged = records
            for object in save.insertedObjects ?? [] {
                staged[object.entity.name!, default: [:]][number(of: object.objectID)] = Record(version: 1, values: values(of: object))
            }
            for object in save.updatedObjects ?? [] {
                let number = number(of: object.objectID)
                let version = (staged[object.entity.name!]?[number]?.version ?? 0) + 1
                staged[object.entity.name!, default: [:]][number] = Record(version: version, values: values(of: object))
            }
            for object in save.deletedObjects ?? [] {
                staged[object.entity.name!]?[number(of: object.objectID)] = nil
            }
            try write(staged)
            records = staged
            return [Any]()
        default:
            throw StoreError.unsupported(request.requestType)
        }
    }

    override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        let entity = objectID.entity
        guard let record = records[entity.name!]?[number(of: objectID)] else { throw StoreError.noRecord(objectID) }
        var values: [String: Any] = [:]
        for (name, attribute) in entity.attributesByName {
            guard let value = record.values[name] else { continue }
            // JSON has no dates: they are kept as seconds since 2001.
            if attribute.attributeType == .dateAttributeType, let seconds = (value as? NSNumber)?.doubleValue {
                values[name] = Date(timeIntervalSinceReferenceDate: seconds)
            } else {
                values[name] = value
            }
        }
        // To-ones go with the values; to-manys are read when used (newValue(forRelationship:)).
        for (name, relationship) in entity.relationshipsByName where !relationship.isToMany {
            values[name] = try relatedValue(record.values[name], of: relationship)
        }
        return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: UInt64(record.version))
    }

    override func newValue(
        forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
        with context: NSManagedObjectContext?
    ) throws -> Any {
        guard let record = records[objectID.entity.name!]?[number(of: objectID)] else { throw StoreError.noRecord(objectID) }
        return try relatedValue(record.values[relationship.name], of: relationship)
    }

    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        array.map { object in
            lastNumber += 1
            return newObjectID(for: object.entity, referenceObject: lastNumber)
        }
    }

    // MARK: Records

    private func number(of objectID: NSManagedObjectID) -> Int {
        referenceObject(for: objectID) as! Int
    }

    /// A relationship as the store keeps it (a number, or an array of them) as Core Data
    /// wants it: an object ID or NSNull, or an array of object IDs.
    private func relatedValue(_ stored: Any?, of relationship: NSRelationshipDescription) throws -> Any {
        guard let destination = relationship.destinationEntity else { return NSNull() }
        if relationship.isToMany {
            return (stored as? [Int] ?? []).map { newObjectID(for: destination, referenceObject: $0) }
        }
        guard let number = stored as? Int else { return NSNull() }
        return newObjectID(for: destination, referenceObject: number)
    }

    /// An object's values as the file keeps them.
    private func values(of object: NSManagedObject) -> [String: Any] {
        var values: [String: Any] = [:]
        for name in object.entity.attributesByName.keys {
            switch object.value(forKey: name) {
            case let date as Date: values[name] = date.timeIntervalSinceReferenceDate
            case let value?: values[name] = value
            case nil: break
            }
        }
        for (name, relationship) in object.entity.relationshipsByName {
            let value = object.value(forKey: name)
            if relationship.isToMany {
                let members = value as? Set<NSManagedObject> ?? []
                values[name] = members.map { number(of: $0.objectID) }.sorted()
            } else if let related = value as? NSManagedObject {
                values[name] = number(of: related.objectID)
            }
        }
        return values
    }

    private func write(_ records: [String: [Int: Record]]) throws {
        guard let url else { throw StoreError.noURL }
        var objects: [String: [String: Any]] = [:]
        for (entityName, byNumber) in records {
            objects[entityName] = Dictionary(uniqueKeysWithValues: byNumber.map { number, record in
                ("\(number)", ["version": record.version, "values": record.values] as [String: Any])
            })
        }
        let file: [String: Any] = ["metadata": metadata, "lastNumber": lastNumber, "objects": objects]
        let data = try JSONSerialization.data(withJSONObject: file, options: [.prettyPrinted, .sortedKeys])
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).new")
        try data.write(to: temporary)
        // rename(2) replaces the file in one step: a reader sees the old file or the new one.
        guard rename(temporary.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
