import Foundation

/// What a store is asked to find: Core Data's `NSFetchRequest` as an `NSIncrementalStore`
/// receives it. The predicate stays inspectable (its syntax tree and bound arguments, see
/// ``ObjectPredicate``), so a store can translate it (to SQL) instead of running a closure.
public struct StoreRequest: Sendable, CustomStringConvertible {
    /// What the store returns.
    public enum ResultType: Sendable, Hashable {
        /// The IDs of the matching objects, in order.
        case objectIDs
        /// The matching objects' stored values, in order (the coordinator puts them in its
        /// row cache, so the faults a fetch returns fire without asking the store again).
        case snapshots
        /// How many objects match (offset and limit applied).
        case count
        /// Dictionaries of the projection's columns: one per object, or per group (then sort,
        /// offset and limit apply to the groups).
        case dictionaries(DictionaryProjection)

        var isDictionaries: Bool {
            if case .dictionaries = self { true } else { false }
        }
    }

    public var entity: EntityDescription
    /// Whether objects of sub-entities match too.
    public var includesSubentities: Bool
    public var predicate: ObjectPredicate?
    public var sortDescriptors: [ObjectSortDescriptor]
    /// How many matching objects to skip first.
    public var fetchOffset: Int
    /// The most objects to return; 0 means no limit.
    public var fetchLimit: Int
    public var resultType: ResultType

    public init(
        entity: EntityDescription, includesSubentities: Bool = true, predicate: ObjectPredicate? = nil,
        sortDescriptors: [ObjectSortDescriptor] = [], fetchOffset: Int = 0, fetchLimit: Int = 0,
        resultType: ResultType = .objectIDs
    ) {
        self.entity = entity
        self.includesSubentities = includesSubentities
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchOffset = fetchOffset
        self.fetchLimit = fetchLimit
        self.resultType = resultType
    }

    /// The entities whose objects can match.
    public var entities: [EntityDescription] {
        includesSubentities ? entity.selfAndDescendants : [entity]
    }

    /// `elements` with the request's offset and limit applied.
    package func window<Elements: Collection>(_ elements: Elements) -> Elements.SubSequence {
        elements.window(offset: fetchOffset, limit: fetchLimit)
    }

    public var description: String {
        var parts = ["\(entity.name)\(includesSubentities ? "" : " only")"]
        if let predicate { parts.append("where \(predicate)") }
        if !sortDescriptors.isEmpty { parts.append("sorted by \(sortDescriptors.map(\.description).joined(separator: ", "))") }
        if fetchOffset > 0 { parts.append("offset \(fetchOffset)") }
        if fetchLimit > 0 { parts.append("limit \(fetchLimit)") }
        return "StoreRequest(\(parts.joined(separator: ", ")) → \(resultType))"
    }
}

extension Collection {
    /// The elements after the first `offset`, at most `limit` of them (0: no limit), as a
    /// fetch's offset and limit select them.
    func window(offset: Int, limit: Int) -> SubSequence {
        let skipped = dropFirst(Swift.max(0, offset))
        return limit > 0 ? skipped.prefix(limit) : skipped[...]
    }
}
