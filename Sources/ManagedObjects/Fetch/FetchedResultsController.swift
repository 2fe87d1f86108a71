import Foundation

/// What happened to an object or a section between two states of a
/// `FetchedResultsController`'s results. Core Data's `NSFetchedResultsChangeType`, with its
/// raw values.
public enum FetchedResultsChangeType: UInt, Sendable, Hashable {
    case insert = 1, delete, move, update
}

/// Told about changes to a `FetchedResultsController`'s results, on its context's queue: first
/// `controllerWillChangeContent`, then each section and object change, then
/// `controllerDidChangeContent`. Core Data's `NSFetchedResultsControllerDelegate`; every
/// method has a default. `controller` is the `FetchedResultsController<Result>`.
///
/// The changes describe one batch update of a table view: deletes (of sections and objects)
/// name old positions, inserts new positions, moves both; an object whose position changed
/// only because other objects came or went is not reported.
public protocol FetchedResultsControllerDelegate: AnyObject {
    func controllerWillChangeContent(_ controller: AnyObject)
    /// A section appeared (`insert`, at its new index) or disappeared (`delete`, at its old one).
    func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType)
    /// `indexPath` is the object's old position (nil for `insert`), `newIndexPath` its new one
    /// (nil for `delete`); `move` and `update` give both.
    func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    func controllerDidChangeContent(_ controller: AnyObject)
    /// The index title of a section. The default is the name's first letter, capitalized.
    func controller(_ controller: AnyObject, sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: AnyObject) {}
    public func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex sectionIndex: Int,
                           for type: FetchedResultsChangeType) {}
    public func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controllerDidChangeContent(_ controller: AnyObject) {}
    public func controller(_ controller: AnyObject, sectionIndexTitleForSectionName sectionName: String) -> String? {
        FetchedResultsSection<ManagedObject>.defaultIndexTitle(for: sectionName)
    }
}

/// One section of a `FetchedResultsController`'s results. Core Data's
/// `NSFetchedResultsSectionInfo`.
public struct FetchedResultsSection<Result: ManagedObject> {
    /// The section key path's value as text (`""` for nil).
    public let name: String
    /// The delegate's title for the name; by default its first letter, capitalized (`nil` for
    /// an empty name).
    public let indexTitle: String?
    public let objects: [Result]
    public var numberOfObjects: Int { objects.count }

    /// The name's first letter, capitalized, as Core Data titles sections by default.
    public static func defaultIndexTitle(for name: String) -> String? {
        name.first.map { String($0).uppercased() }
    }
}

/// The results of a fetch request, split into sections by a key path, kept up to date as the
/// context changes, for table and list views. Core Data's `NSFetchedResultsController`.
///
/// Used on its context's queue. The request needs sort descriptors and, with a
/// `sectionNameKeyPath`, the first of them must order by that key path, so that each
/// section's objects come together after any change (Core Data asks only that the order keep
/// sections together; `performFetch()` throws `invalidFetchRequest` otherwise). Section names
/// are the key path's values as text, `""` for nil.
///
/// With a delegate, each objects-did-change of the context updates the results and reports
/// the differences; without one, the results stay as last fetched, as in Core Data. Changed
/// objects are checked against the entity and predicate and put in place by the sort
/// descriptors; the rest keep their places. The controller fetches again instead when a
/// change could move objects that did not change themselves: sort or section key paths that
/// cross relationships (`tweeter.screenName`) or aggregate (`@count`), changed objects of other
/// entities, a predicate on an entity with relationships to its own kind, or a fetch limit or
/// offset. There is no cache: `cacheName` is accepted and ignored.
public final class FetchedResultsController<Result: ManagedObject> {
    public let fetchRequest: FetchRequest<Result>
    public let managedObjectContext: ManagedObjectContext
    public let sectionNameKeyPath: String?
    /// Accepted for source compatibility; nothing is cached between fetches or runs.
    public let cacheName: String?
    public weak var delegate: FetchedResultsControllerDelegate?

    /// In section order; `nil` until `performFetch()`.
    public private(set) var fetchedObjects: [Result]?
    /// `nil` until `performFetch()`.
    public private(set) var sections: [FetchedResultsSection<Result>]?

    /// Each fetched object's section name, as last read.
    private var sectionNames: [ObjectIdentifier: String] = [:]
    private var observation: ContextObservation?
    /// How many changes were applied by fetching again rather than in place (tests read it).
    private(set) var refetchCount = 0

    public init(
        fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: String? = nil, cacheName: String? = nil
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    /// Fetches the results and starts following the context's changes. Throws
    /// `invalidFetchRequest` when the request has no sort descriptors or the first does not
    /// order by `sectionNameKeyPath`, and whatever the fetch throws.
    public func performFetch() throws {
        try checkSortDescriptors()
        let objects = try managedObjectContext.fetch(fetchRequest)
        sectionNames = [:]
        install(objects, changed: [])
        if observation == nil {
            observation = managedObjectContext.addObserver(for: [.objectsDidChange]) { [weak self] notification in
                self?.contextDidChange(notification)
            }
        }
    }

    /// The object at a section and item.
    public func object(at indexPath: IndexPath) -> Result {
        guard let sections, indexPath.count == 2, sections.indices.contains(indexPath[0]),
              sections[indexPath[0]].objects.indices.contains(indexPath[1]) else {
            preconditionFailure("FetchedResultsController: no object at \(indexPath)")
        }
        return sections[indexPath[0]].objects[indexPath[1]]
    }

    /// Where an object is in the results, if it is there.
    public func indexPath(forObject object: Result) -> IndexPath? {
        guard let sections, let name = sectionNames[ObjectIdentifier(object)],
              let sectionIndex = sections.firstIndex(where: { $0.name == name }),
              let item = sections[sectionIndex].objects.firstIndex(where: { $0 === object }) else { return nil }
        return IndexPath(indexes: [sectionIndex, item])
    }

    /// The distinct index titles of the sections, in section order.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The index of the first section with `title`, or `sectionIndex` when none has it.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        sections?.firstIndex { $0.indexTitle == title } ?? sectionIndex
    }

    // MARK: Fetching

    private func checkSortDescriptors() throws {
        guard let first = fetchRequest.sortDescriptors.first else {
            throw ManagedObjectError(
                .invalidFetchRequest,
                "FetchedResultsController: \(fetchRequest) has no sort descriptors; the controller needs an order",
                entityName: fetchRequest.entityName)
        }
        if let sectionNameKeyPath, first.key != sectionNameKeyPath {
            throw ManagedObjectError(
                .invalidFetchRequest,
                "FetchedResultsController: sections are by '\(sectionNameKeyPath)' but the first sort descriptor "
                    + "orders by '\(first.key)'; put a sort descriptor on '\(sectionNameKeyPath)' first so that each "
                    + "section's objects come together",
                entityName: fetchRequest.entityName, key: first.key)
        }
    }

    /// Makes `objects` (in sort order) the results, reading the section names of new and
    /// `changed` objects and keeping the others' names.
    private func install(_ objects: [Result], changed: Set<ObjectIdentifier>) {
        var names: [ObjectIdentifier: String] = [:]
        names.reserveCapacity(objects.count)
        var order: [String] = []
        var members: [String: [Result]] = [:]
        for object in objects {
            let key = ObjectIdentifier(object)
            let name = changed.contains(key) ? nil : sectionNames[key]
            let sectionName = name ?? sectionNameKeyPath.map { Self.sectionName(object.value(forKeyPath: $0)) } ?? ""
            names[key] = sectionName
            if members[sectionName] == nil { order.append(sectionName) }
            members[sectionName, default: []].append(object)
        }
        sectionNames = names
        let sections = order.map { name in
            FetchedResultsSection(name: name, indexTitle: indexTitle(for: name), objects: members[name] ?? [])
        }
        self.sections = sections
        fetchedObjects = sections.flatMap(\.objects)
    }

    private func indexTitle(for name: String) -> String? {
        if let delegate { return delegate.controller(self, sectionIndexTitleForSectionName: name) }
        return FetchedResultsSection<Result>.defaultIndexTitle(for: name)
    }

    private static func sectionName(_ value: Any?) -> String {
        switch value {
        case nil: ""
        case let string as String: string
        case let value?: String(describing: value)
        }
    }

    // MARK: Following changes

    private func contextDidChange(_ notification: ContextNotification) {
        guard let delegate, let oldObjects = fetchedObjects, let oldSections = sections else { return }
        let context = managedObjectContext
        let changedObjects = OrderedSet(
            (notification.insertedObjectIDs + notification.updatedObjectIDs + notification.refreshedObjectIDs)
                .compactMap { context.registeredObject(for: $0) })
        let changed = Set(changedObjects.map(ObjectIdentifier.init))
        let deletedIDs = Set(notification.deletedObjectIDs)

        let newObjects: [Result]
        if canUpdateInPlace(changedObjects: changedObjects, deletedIDs: deletedIDs) {
            newObjects = updatedInPlace(oldObjects, changedObjects: changedObjects, changed: changed, deletedIDs: deletedIDs)
        } else {
            refetchCount += 1
            guard let fetched = try? context.fetch(fetchRequest) else { return }
            newObjects = fetched
            // Section key paths may cross relationships: every name is read again.
            sectionNames = [:]
        }
        install(newObjects, changed: changed)
        let updated = Set((notification.updatedObjectIDs + notification.refreshedObjectIDs)
            .compactMap { context.registeredObject(for: $0).map(ObjectIdentifier.init) })
        report(from: oldSections, to: sections ?? [], changed: changed, updated: updated, to: delegate)
    }

    /// Whether putting the changed objects in place gives what a new fetch would: no object
    /// that did not change can have moved or stopped matching.
    private func canUpdateInPlace(changedObjects: OrderedSet<ManagedObject>, deletedIDs: Set<ManagedObjectID>) -> Bool {
        guard fetchRequest.fetchLimit == 0, fetchRequest.fetchOffset == 0,
              let entity = managedObjectContext.managedObjectModel[fetchRequest.entityName] else { return false }
        let keyPaths = fetchRequest.sortDescriptors.map(\.key) + (sectionNameKeyPath.map { [$0] } ?? [])
        guard !keyPaths.contains(where: { $0.contains(".") || $0.contains("@") }) else { return false }
        let family = entity.selfAndDescendants
        let familyNames = Set(family.map(\.name))
        guard changedObjects.allSatisfy({ familyNames.contains($0.entity.name) }),
              deletedIDs.allSatisfy({ familyNames.contains($0.entity.name) }) else { return false }
        if fetchRequest.predicate != nil {
            // A predicate may read related objects of the same entity, which may have changed.
            let selfReferencing = family.contains { member in
                member.relationships.contains { $0.destinationEntity.map { familyNames.contains($0.name) } ?? true }
            }
            if selfReferencing { return false }
        }
        return true
    }

    /// The results with deleted and changed objects taken out and the changed ones that match
    /// put back in sort order; objects that compare the same keep earlier objects first.
    private func updatedInPlace(
        _ objects: [Result], changedObjects: OrderedSet<ManagedObject>, changed: Set<ObjectIdentifier>,
        deletedIDs: Set<ManagedObjectID>
    ) -> [Result] {
        let context = managedObjectContext
        let kept = objects.filter { object in
            !changed.contains(ObjectIdentifier(object)) && !deletedIDs.contains(object.objectID)
                && !object.isDeleted && object.managedObjectContext === context
        }
        let entityNames: Set<String> = {
            guard let entity = context.managedObjectModel[fetchRequest.entityName] else { return [] }
            return Set((fetchRequest.includesSubentities ? entity.selfAndDescendants : [entity]).map(\.name))
        }()
        let matching = changedObjects.compactMap { object -> Result? in
            guard let result = object as? Result, !object.isDeleted, object.managedObjectContext === context,
                  entityNames.contains(object.entity.name),
                  fetchRequest.predicate?.evaluate(with: object) ?? true else { return nil }
            return result
        }
        guard !matching.isEmpty else { return kept }
        let descriptors = fetchRequest.sortDescriptors
        let keyPaths = descriptors.map { $0.key.split(separator: ".").map(String.init) }
        // Where each newcomer goes: after every kept object that does not sort after it.
        let newcomers = descriptors.sorted(matching).map { object in
            let keys = keyPaths.map { KeyPathReader.value(of: object, at: $0) }
            var low = 0
            var high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if Self.sortsBefore(keys, kept[middle], descriptors, keyPaths) { high = middle } else { low = middle + 1 }
            }
            return (object: object, position: low)
        }
        var merged: [Result] = []
        merged.reserveCapacity(kept.count + newcomers.count)
        var next = newcomers.startIndex
        for (index, object) in kept.enumerated() {
            while next < newcomers.endIndex && newcomers[next].position == index {
                merged.append(newcomers[next].object)
                next += 1
            }
            merged.append(object)
        }
        merged += newcomers[next...].map(\.object)
        return merged
    }

    /// Whether an object with sort keys `keys` sorts strictly before `object`.
    private static func sortsBefore(
        _ keys: [Any?], _ object: Result, _ descriptors: [ObjectSortDescriptor], _ keyPaths: [[String]]
    ) -> Bool {
        for (position, descriptor) in descriptors.enumerated() {
            var result = ValueComparison.compare(
                keys[position], KeyPathReader.value(of: object, at: keyPaths[position]), descriptor.comparison)
            if !descriptor.ascending { result = result.reversed }
            if result != .orderedSame { return result == .orderedAscending }
        }
        return false
    }

    // MARK: Reporting

    /// Tells the delegate how `old` became `new`, as one batch update: section deletes and
    /// inserts, object deletes, then inserts, moves and updates in new order. Of the objects in
    /// both, the fewest are reported as moves, preferring `changed` ones, so that the others
    /// keep their order; an object also moves when its section does.
    private func report(
        from old: [FetchedResultsSection<Result>], to new: [FetchedResultsSection<Result>],
        changed: Set<ObjectIdentifier>, updated: Set<ObjectIdentifier>, to delegate: FetchedResultsControllerDelegate
    ) {
        let oldPositions = Self.positions(old)
        let newPositions = Self.positions(new)
        let oldNames = Set(old.map(\.name))
        let newNames = Set(new.map(\.name))

        var sectionChanges: [(name: String, index: Int, type: FetchedResultsChangeType)] = []
        for (index, section) in old.enumerated() where !newNames.contains(section.name) {
            sectionChanges.append((section.name, index, .delete))
        }
        for (index, section) in new.enumerated() where !oldNames.contains(section.name) {
            sectionChanges.append((section.name, index, .insert))
        }

        var objectChanges: [(object: Result, old: IndexPath?, type: FetchedResultsChangeType, new: IndexPath?)] = []
        let oldObjects = old.flatMap(\.objects)
        let newObjects = new.flatMap(\.objects)
        for object in oldObjects where newPositions[ObjectIdentifier(object)] == nil {
            objectChanges.append((object, oldPositions[ObjectIdentifier(object)], .delete, nil))
        }
        let staying = newObjects.filter { oldPositions[ObjectIdentifier($0)] != nil }
        let moved = Self.objectsOutOfOrder(staying, oldRank: Self.ranks(oldObjects, among: newPositions), changed: changed)
        for object in newObjects {
            let key = ObjectIdentifier(object)
            switch (oldPositions[key], newPositions[key]) {
            case (nil, let newPath?):
                objectChanges.append((object, nil, .insert, newPath))
            case (let oldPath?, let newPath?)
                where moved.contains(key) || old[oldPath[0]].name != new[newPath[0]].name:
                objectChanges.append((object, oldPath, .move, newPath))
            case (let oldPath?, let newPath?) where updated.contains(key):
                objectChanges.append((object, oldPath, .update, newPath))
            default:
                break
            }
        }
        guard !sectionChanges.isEmpty || !objectChanges.isEmpty else { return }
        delegate.controllerWillChangeContent(self)
        for change in sectionChanges {
            delegate.controller(self, didChangeSectionNamed: change.name, atSectionIndex: change.index, for: change.type)
        }
        for change in objectChanges {
            delegate.controller(self, didChange: change.object, at: change.old, for: change.type, newIndexPath: change.new)
        }
        delegate.controllerDidChangeContent(self)
    }

    private static func positions(_ sections: [FetchedResultsSection<Result>]) -> [ObjectIdentifier: IndexPath] {
        var positions: [ObjectIdentifier: IndexPath] = [:]
        for (sectionIndex, section) in sections.enumerated() {
            for (item, object) in section.objects.enumerated() {
                positions[ObjectIdentifier(object)] = IndexPath(indexes: [sectionIndex, item])
            }
        }
        return positions
    }

    /// The place of each object of `objects` that is also in `kept`, counting only those.
    private static func ranks(_ objects: [Result], among kept: [ObjectIdentifier: IndexPath]) -> [ObjectIdentifier: Int] {
        var ranks: [ObjectIdentifier: Int] = [:]
        for object in objects where kept[ObjectIdentifier(object)] != nil {
            ranks[ObjectIdentifier(object)] = ranks.count
        }
        return ranks
    }

    /// The objects to report as moved: all but a heaviest subsequence of `staying` (new order)
    /// whose old ranks increase. An unchanged object outweighs all changed ones together, so
    /// changed objects are the ones that move whenever that explains the new order.
    private static func objectsOutOfOrder(
        _ staying: [Result], oldRank: [ObjectIdentifier: Int], changed: Set<ObjectIdentifier>
    ) -> Set<ObjectIdentifier> {
        let count = staying.count
        guard count > 1 else { return [] }
        let heavy = count + 1
        // best[i]: the weight of the heaviest increasing run ending at staying[i]; a Fenwick
        // tree over old ranks gives the heaviest run ending below a rank in O(log n).
        var tree = [(weight: Int, index: Int)](repeating: (0, -1), count: count + 1)
        var previous = [Int](repeating: -1, count: count)
        var best = [Int](repeating: 0, count: count)
        for (index, object) in staying.enumerated() {
            let key = ObjectIdentifier(object)
            let rank = oldRank[key] ?? 0
            var heaviest = (weight: 0, index: -1)
            var position = rank
            while position > 0 {
                if tree[position].weight > heaviest.weight { heaviest = tree[position] }
                position -= position & -position
            }
            best[index] = heaviest.weight + (changed.contains(key) ? 1 : heavy)
            previous[index] = heaviest.index
            position = rank + 1
            while position <= count {
                if best[index] > tree[position].weight { tree[position] = (best[index], index) }
                position += position & -position
            }
        }
        var kept = Set<Int>()
        var index = best.indices.max { best[$0] < best[$1] } ?? -1
        while index >= 0 {
            kept.insert(index)
            index = previous[index]
        }
        var moved = Set<ObjectIdentifier>()
        for (index, object) in staying.enumerated() where !kept.contains(index) {
            moved.insert(ObjectIdentifier(object))
        }
        return moved
    }
}

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// A section and an item, as UIKit and AppKit add it (Foundation alone does not).
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// A section and a row, as UIKit adds it.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    public var section: Int { self[0] }
    public var item: Int { self[1] }
    public var row: Int { self[1] }
}
#endif
