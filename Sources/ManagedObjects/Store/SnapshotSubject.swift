import Foundation

/// A stored object as predicates and sort descriptors read it, without making a managed
/// object: attributes by name from the snapshot, to-ones as the related snapshot, to-manys as
/// an array of them. Stores evaluate requests over these, and so does the coordinator for what a
/// store cannot evaluate; both read values the way `ManagedObject.value(forKey:)` does, so the
/// answer is the same wherever a predicate runs.
package final class SnapshotSubject: KeyValueCoding, ObjectIdentifying {
    /// Finds the snapshot of a related object, and the members of a to-many left unloaded.
    package struct Graph {
        var snapshot: (ManagedObjectID) -> StoredObject?
        var relatedObjectIDs: (ManagedObjectID, RelationshipDescription) -> [ManagedObjectID]

        package init(
            snapshot: @escaping (ManagedObjectID) -> StoredObject?,
            relatedObjectIDs: @escaping (ManagedObjectID, RelationshipDescription) -> [ManagedObjectID]
        ) {
            self.snapshot = snapshot
            self.relatedObjectIDs = relatedObjectIDs
        }

        /// Related objects as `store` reads them. A read that fails counts as no object: the
        /// graph cannot throw, and the same read fails the fetch that follows.
        package init(reading store: some PersistentStore) {
            self.init(
                snapshot: { try? store.snapshot(for: $0) },
                relatedObjectIDs: { (try? store.relatedObjectIDs(of: $0, relationship: $1)) ?? [] })
        }
    }

    var snapshot: StoredObject
    private let graph: Graph

    init(_ snapshot: StoredObject, graph: Graph) {
        self.snapshot = snapshot
        self.graph = graph
    }

    /// Points `probe` at `snapshot`, making it for the first row: one subject serves a whole
    /// scan, since evaluation keeps no reference to it.
    package static func point(_ probe: inout SnapshotSubject?, at snapshot: StoredObject, graph: Graph) -> SnapshotSubject {
        if let probe {
            probe.snapshot = snapshot
            return probe
        }
        let subject = SnapshotSubject(snapshot, graph: graph)
        probe = subject
        return subject
    }

    package var objectIDValue: AnyHashable { snapshot.objectID }

    package func value(forKey key: String) -> Any? {
        guard let property = snapshot.objectID.entity.propertiesByName[key] else { return nil }
        switch snapshot.values[property.index] {
        case .attribute(let value):
            return value
        case .toOne(let id):
            return id.flatMap(subject(for:))
        case .toMany(let ids):
            return ids.compactMap(subject(for:))
        case .toManyFault:
            guard case .relationship(let relationship) = property.kind else { return nil }
            return graph.relatedObjectIDs(snapshot.objectID, relationship).compactMap(subject(for:))
        }
    }

    private func subject(for objectID: ManagedObjectID) -> SnapshotSubject? {
        graph.snapshot(objectID).map { SnapshotSubject($0, graph: graph) }
    }
}

extension StoreRequest {
    /// Runs the request over `snapshots` (the candidate objects in store order) in memory:
    /// the predicate, the sorts, the window, the result type. What the in-memory store does,
    /// and what the coordinator does for a predicate or sort a store cannot evaluate.
    package func evaluate(over snapshots: [StoredObject], graph: SnapshotSubject.Graph) throws -> StoreResult {
        var matching = snapshots
        if let predicate {
            var probe: SnapshotSubject?
            matching = try snapshots.filter { snapshot in
                try predicate.evaluateChecked(with: SnapshotSubject.point(&probe, at: snapshot, graph: graph))
            }
        }
        return try finish(matching, graph: graph)
    }

    /// The rows that match, sorted, windowed and shaped as the result type asks.
    func finish(_ matching: [StoredObject], graph: SnapshotSubject.Graph) throws -> StoreResult {
        func sortedWindow() -> ArraySlice<StoredObject> {
            guard !sortDescriptors.isEmpty else { return window(matching) }
            return window(sortDescriptors.sorted(matching.map { SnapshotSubject($0, graph: graph) }).map(\.snapshot))
        }
        switch resultType {
        case .objectIDs:
            return .objectIDs(sortedWindow().map(\.objectID))
        case .snapshots:
            // The whole answer in store order needs no copy.
            if sortDescriptors.isEmpty && fetchOffset <= 0 && fetchLimit <= 0 { return .snapshots(matching) }
            return .snapshots(Array(sortedWindow()))
        case .count:
            return .count(window(matching).count)
        case .dictionaries(let projection):
            return .dictionaries(projection.rows(
                of: matching.map { SnapshotSubject($0, graph: graph) }, sortedBy: sortDescriptors,
                offset: fetchOffset, limit: fetchLimit))
        }
    }
}
