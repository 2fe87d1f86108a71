// A custom store as an app writes one for Core Data (a subclass of NSIncrementalStore): records
// in memory, one per object, keyed by a string reference; relationships kept as the related
// records' references. It filters fetches by their predicate itself and leaves sorting and the
// window to Core Data. It counts what it is asked, so tests see which calls the runtime makes.
import CoreData
import Foundation

// `@unchecked Sendable` restated: Swift 6 asks it of a subclass of the runtime's stores (which
// contexts on any thread share); the runtime calls a store one call at a time.
final class RecordStore: NSIncrementalStore, @unchecked Sendable {
    static let storeType = "CoreDataPortingTests.RecordStore"

    static func register() {
        NSPersistentStoreCoordinator.registerStoreClass(RecordStore.self, forStoreType: storeType)
    }

    struct Failure: Error, Equatable {
        let message: String
    }

    /// Entity name → reference → the record: attribute values, a to-one's reference, a
    /// to-many's references.
    var records: [String: [String: [String: Any]]] = [:]
    private var versions: [String: UInt64] = [:]
    private var lastReference = 0
    /// Whether nodes leave to-ones out too (Core Data then asks newValue(forRelationship:)).
    var leavesToOnesOut = false
    /// Thrown by the next saves or fetches, when set.
    var saveFailure: Failure?
    var fetchFailure: Failure?
    /// What the store was asked.
    private(set) var nodesMade = 0
    private(set) var relationshipsAsked: [String] = []
    private(set) var fetchesSeen: [NSFetchRequest<NSManagedObject>] = []
    private(set) var savesSeen: [NSSaveChangesRequest] = []

    override func loadMetadata() throws {
        if url?.lastPathComponent == "refused" {
            throw Failure(message: "cannot open \(url!.path)")
        }
        metadata = [NSStoreTypeKey: Self.storeType, NSStoreUUIDKey: UUID().uuidString]
    }

    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        switch request.requestType {
        case .fetchRequestType:
            if let fetchFailure { throw fetchFailure }
            guard let fetchRequest = request as? NSFetchRequest<NSManagedObject>, let context,
                  let entity = fetchRequest.entity, let entityName = entity.name
            else { throw Failure(message: "not a fetch request") }
            fetchesSeen.append(fetchRequest)
            var objects = (records[entityName] ?? [:]).keys.sorted().map { reference in
                context.object(with: newObjectID(for: entity, referenceObject: reference))
            }
            if let predicate = fetchRequest.predicate {
                objects = objects.filter { predicate.evaluate(with: $0) }
            }
            switch fetchRequest.resultType {
            case .countResultType: return [objects.count]
            case .managedObjectIDResultType: return objects.map(\.objectID)
            default: return objects
            }
        case .saveRequestType:
            guard let save = request as? NSSaveChangesRequest else { throw Failure(message: "not a save request") }
            if let saveFailure { throw saveFailure }
            savesSeen.append(save)
            for object in save.insertedObjects ?? [] {
                let reference = referenceObject(for: object.objectID) as! String
                records[object.entity.name!, default: [:]][reference] = record(of: object)
                versions[reference] = 1
            }
            for object in save.updatedObjects ?? [] {
                let reference = referenceObject(for: object.objectID) as! String
                records[object.entity.name!, default: [:]][reference] = record(of: object)
                versions[reference, default: 1] += 1
            }
            for object in save.deletedObjects ?? [] {
                let reference = referenceObject(for: object.objectID) as! String
                records[object.entity.name!]?[reference] = nil
                versions[reference] = nil
            }
            return [Any]()
        default:
            throw Failure(message: "unsupported request \(request.requestType)")
        }
    }

    override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        nodesMade += 1
        let reference = referenceObject(for: objectID) as! String
        guard let record = records[objectID.entity.name!]?[reference] else {
            throw Failure(message: "no record \(reference)")
        }
        var values: [String: Any] = [:]
        for name in objectID.entity.attributesByName.keys {
            values[name] = record[name] ?? NSNull()
        }
        // To-ones go with the node (unless left out); to-manys are left to newValue(forRelationship:).
        for (name, relationship) in objectID.entity.relationshipsByName where !relationship.isToMany && !leavesToOnesOut {
            if let related = record[name] as? String, let destination = relationship.destinationEntity {
                values[name] = newObjectID(for: destination, referenceObject: related)
            } else {
                values[name] = NSNull()
            }
        }
        return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: versions[reference] ?? 1)
    }

    override func newValue(
        forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
        with context: NSManagedObjectContext?
    ) throws -> Any {
        relationshipsAsked.append(relationship.name)
        let reference = referenceObject(for: objectID) as! String
        guard let record = records[objectID.entity.name!]?[reference], let destination = relationship.destinationEntity else {
            throw Failure(message: "no record \(reference)")
        }
        if relationship.isToMany {
            return (record[relationship.name] as? [String] ?? []).map { newObjectID(for: destination, referenceObject: $0) }
        }
        guard let related = record[relationship.name] as? String else { return NSNull() }
        return newObjectID(for: destination, referenceObject: related)
    }

    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        array.map { object in
            lastReference += 1
            return newObjectID(for: object.entity, referenceObject: "\(object.entity.name!)-\(lastReference)")
        }
    }

    /// What the store keeps of an object being saved.
    private func record(of object: NSManagedObject) -> [String: Any] {
        var record: [String: Any] = [:]
        for name in object.entity.attributesByName.keys {
            if let value = object.value(forKey: name) { record[name] = value }
        }
        for (name, relationship) in object.entity.relationshipsByName {
            let value = object.value(forKey: name)
            if relationship.isToMany {
                let members = value as? Set<NSManagedObject> ?? []
                record[name] = members.map { referenceObject(for: $0.objectID) as! String }.sorted()
            } else if let related = value as? NSManagedObject {
                record[name] = referenceObject(for: related.objectID) as! String
            }
        }
        return record
    }
}
