import Foundation

/// A store that keeps objects in memory, shared by all contexts of its coordinator.
/// Core Data's `NSInMemoryStoreType`.
public final class InMemoryStore: PersistentStore, @unchecked Sendable {
    // Unchecked: every mutable field is read and written only while holding `lock`.
    private let lock = NSLock()
    /// Each object with when it was first saved: fetches return objects in that order.
    private var objectsByID: [ManagedObjectID: (sequence: Int, object: StoredObject)] = [:]
    private var insertions = 0
    /// The last number given out per root entity (an entity and its sub-entities share one
    /// sequence, like the rows of one table in Core Data's SQLite store).
    private var lastNumbers: [String: Int64] = [:]

    public let identifier: String
    public var type: PersistentStoreType { .inMemory }
    public var url: URL? { nil }

    public init(identifier: String = UUID().uuidString) {
        self.identifier = identifier
    }

    public func objects(ofEntities entityNames: Set<String>) throws -> [StoredObject] {
        lock.withLock {
            objectsByID.values
                .filter { entityNames.contains($0.object.objectID.entity.name) }
                .sorted { $0.sequence < $1.sequence }
                .map(\.object)
        }
    }

    public func object(with objectID: ManagedObjectID) throws -> StoredObject? {
        lock.withLock { objectsByID[objectID]?.object }
    }

    public func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID] {
        lock.withLock {
            let root = entity.rootEntity.name
            let first = (lastNumbers[root] ?? 0) + 1
            lastNumbers[root, default: 0] += Int64(count)
            return (first..<first + Int64(count)).map {
                ManagedObjectID(entity: entity, key: .permanent(storeIdentifier: identifier, number: $0))
            }
        }
    }

    public func save(_ changes: StoreChangeSet) throws {
        try lock.withLock {
            var conflicts: [ManagedObjectError] = []
            let expected = changes.updated.map { ($0.objectID, $0.version) } + changes.deleted.map { ($0.objectID, $0.version) }
            for (objectID, version) in expected where objectsByID[objectID]?.object.version != version {
                let found = objectsByID[objectID].map { "version \($0.object.version)" } ?? "deleted"
                conflicts.append(ManagedObjectError(
                    .mergeConflict,
                    "another context saved this object since it was read (read version \(version), store has \(found))",
                    entityName: objectID.entity.name, objectID: objectID))
            }
            if let error = ManagedObjectError.combining(conflicts) {
                throw error.code == .multipleErrors
                    ? ManagedObjectError(.mergeConflict, "\(conflicts.count) merge conflicts", detailedErrors: conflicts)
                    : error
            }
            let constraintConflicts = UniquenessConstraints.conflicts(of: changes, with: objectsByID.values.lazy.map(\.object))
            if let error = ManagedObjectError.combining(constraintConflicts) {
                throw error
            }
            for object in changes.inserted {
                insertions += 1
                objectsByID[object.objectID] = (insertions, object)
            }
            for var object in changes.updated {
                object.version += 1
                objectsByID[object.objectID]?.object = object
            }
            for deleted in changes.deleted {
                objectsByID[deleted.objectID] = nil
            }
        }
    }
}
