import Foundation

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

    /// Where each fetched object is, and its section name as last read.
    private var places: [ObjectIdentifier: Place] = [:]
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
        places = [:]
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
        places[ObjectIdentifier(object)]?.indexPath
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

    /// An object's place in the results.
    private struct Place {
        var sectionName: String
        var section: Int
        var item: Int
        /// The position in `fetchedObjects`.
        var index: Int
        var indexPath: IndexPath { IndexPath(indexes: [section, item]) }
    }

    /// Makes `objects` (in sort order) the results, reading the section names of new and
    /// `changed` objects and keeping the others' names.
    private func install(_ objects: [Result], changed: Set<ObjectIdentifier>) {
        var sectionOrder: [String] = []
        var members: [String: [Result]] = [:]
        // Sections come in runs (the order starts with the section key): a run is added at once.
        var run: (name: String, objects: [Result])?
        func endRun() {
            guard let run else { return }
            if members[run.name] == nil { sectionOrder.append(run.name) }
            members[run.name, default: []] += run.objects
        }
        for object in objects {
            let key = ObjectIdentifier(object)
            let known = changed.contains(key) ? nil : places[key]?.sectionName
            let name = known ?? sectionNameKeyPath.map { Self.sectionName(object.value(forKeyPath: $0)) } ?? ""
            if run?.name == name {
                run?.objects.append(object)
            } else {
                endRun()
                run = (name, [object])
            }
        }
        endRun()
        var newPlaces: [ObjectIdentifier: Place] = [:]
        newPlaces.reserveCapacity(objects.count)
        var sections: [FetchedResultsSection<Result>] = []
        var index = 0
        for (sectionIndex, name) in sectionOrder.enumerated() {
            let objects = members[name] ?? []
            for (item, object) in objects.enumerated() {
                newPlaces[ObjectIdentifier(object)] = Place(sectionName: name, section: sectionIndex, item: item, index: index)
                index += 1
            }
            sections.append(FetchedResultsSection(name: name, indexTitle: indexTitle(for: name), objects: objects))
        }
        places = newPlaces
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
        let oldPlaces = places

        let newObjects: [Result]
        if canUpdateInPlace(changedObjects: changedObjects, deletedIDs: deletedIDs) {
            newObjects = updatedInPlace(oldObjects, changedObjects: changedObjects, changed: changed, deletedIDs: deletedIDs)
        } else {
            refetchCount += 1
            guard let fetched = try? context.fetch(fetchRequest) else { return }
            newObjects = fetched
            // Section key paths may cross relationships: every name is read again.
            places = [:]
        }
        install(newObjects, changed: changed)
        let updated = Set((notification.updatedObjectIDs + notification.refreshedObjectIDs)
            .compactMap { context.registeredObject(for: $0).map(ObjectIdentifier.init) })
        report(from: (oldSections, oldPlaces), to: (sections ?? [], places), changed: changed, updated: updated,
               to: delegate)
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
        let order = SortOrder(descriptors)
        // Where each newcomer goes: after every kept object that does not sort after it.
        let newcomers = descriptors.sorted(matching).map { object in
            let keys = order.keys(of: object)
            var low = 0
            var high = kept.count
            while low < high {
                let middle = (low + high) / 2
                let sortsBefore = order.compare(keys, order.keys(of: kept[middle])) == .orderedAscending
                if sortsBefore { high = middle } else { low = middle + 1 }
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

    // MARK: Reporting

    /// Tells the delegate how `old` became `new`, as one batch update: section deletes and
    /// inserts, object deletes, then inserts, moves and updates in new order. Of the objects in
    /// both, the fewest are reported as moves, preferring `changed` ones, so that the others
    /// keep their order; an object also moves when its section does.
    private func report(
        from old: (sections: [FetchedResultsSection<Result>], places: [ObjectIdentifier: Place]),
        to new: (sections: [FetchedResultsSection<Result>], places: [ObjectIdentifier: Place]),
        changed: Set<ObjectIdentifier>, updated: Set<ObjectIdentifier>, to delegate: FetchedResultsControllerDelegate
    ) {
        let oldNames = Set(old.sections.map(\.name))
        let newNames = Set(new.sections.map(\.name))
        var sectionChanges: [(name: String, index: Int, type: FetchedResultsChangeType)] = []
        for (index, section) in old.sections.enumerated() where !newNames.contains(section.name) {
            sectionChanges.append((section.name, index, .delete))
        }
        for (index, section) in new.sections.enumerated() where !oldNames.contains(section.name) {
            sectionChanges.append((section.name, index, .insert))
        }

        var objectChanges: [(object: Result, old: IndexPath?, type: FetchedResultsChangeType, new: IndexPath?)] = []
        for section in old.sections {
            for object in section.objects where new.places[ObjectIdentifier(object)] == nil {
                objectChanges.append((object, old.places[ObjectIdentifier(object)]?.indexPath, .delete, nil))
            }
        }
        // Every object in new order with its old place, if it had one.
        var current: [(object: Result, old: Place?, new: Place)] = []
        current.reserveCapacity(new.places.count)
        var staying: [(oldIndex: Int, isChanged: Bool)] = []
        for (sectionIndex, section) in new.sections.enumerated() {
            for (item, object) in section.objects.enumerated() {
                let key = ObjectIdentifier(object)
                let oldPlace = old.places[key]
                let newPlace = Place(sectionName: section.name, section: sectionIndex, item: item, index: current.count)
                current.append((object, oldPlace, newPlace))
                if let oldPlace { staying.append((oldPlace.index, changed.contains(key))) }
            }
        }
        let moved = Self.outOfOrder(staying.map(\.oldIndex), changed: staying.map(\.isChanged))
        var stayingIndex = 0
        for (object, oldPlace, newPlace) in current {
            guard let oldPlace else {
                objectChanges.append((object, nil, .insert, newPlace.indexPath))
                continue
            }
            if moved[stayingIndex] || oldPlace.sectionName != newPlace.sectionName {
                objectChanges.append((object, oldPlace.indexPath, .move, newPlace.indexPath))
            } else if updated.contains(ObjectIdentifier(object)) {
                objectChanges.append((object, oldPlace.indexPath, .update, newPlace.indexPath))
            }
            stayingIndex += 1
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

    /// Which elements to report as moved, given the old positions of the staying objects in
    /// their new order: all but a heaviest subsequence whose old positions increase. An
    /// unchanged object outweighs all changed ones together, so changed objects are the ones
    /// that move whenever that explains the new order.
    private static func outOfOrder(_ oldPositions: [Int], changed: [Bool]) -> [Bool] {
        let count = oldPositions.count
        var moved = [Bool](repeating: false, count: count)
        // Leading and trailing elements below (above) everything after (before) them fit in
        // any increasing subsequence: only the middle needs the search.
        var suffixMinimum = [Int](repeating: Int.max, count: count + 1)
        for index in stride(from: count - 1, through: 0, by: -1) {
            suffixMinimum[index] = min(oldPositions[index], suffixMinimum[index + 1])
        }
        var start = 0
        while start < count && oldPositions[start] < suffixMinimum[start + 1] { start += 1 }
        var end = count
        var maximumBefore = [Int](repeating: Int.min, count: count + 1)
        for index in 0..<count { maximumBefore[index + 1] = max(maximumBefore[index], oldPositions[index]) }
        while end > start && oldPositions[end - 1] > maximumBefore[end - 1] { end -= 1 }
        guard end - start > 1 else { return moved }

        // The heaviest increasing run over the middle; a Fenwick tree over the middle's ranks
        // gives the heaviest run ending below a rank in O(log n).
        let middle = Array(start..<end)
        let rankOf = Dictionary(uniqueKeysWithValues: middle.map { oldPositions[$0] }.sorted().enumerated().map { ($1, $0) })
        let heavy = count + 1
        var tree = [(weight: Int, element: Int)](repeating: (0, -1), count: middle.count + 1)
        var previous = [Int](repeating: -1, count: count)
        var best = [Int](repeating: 0, count: count)
        for element in middle {
            let rank = rankOf[oldPositions[element]] ?? 0
            var heaviest = (weight: 0, element: -1)
            var position = rank
            while position > 0 {
                if tree[position].weight > heaviest.weight { heaviest = tree[position] }
                position -= position & -position
            }
            best[element] = heaviest.weight + (changed[element] ? 1 : heavy)
            previous[element] = heaviest.element
            position = rank + 1
            while position <= middle.count {
                if best[element] > tree[position].weight { tree[position] = (best[element], element) }
                position += position & -position
            }
        }
        for element in middle { moved[element] = true }
        var element = middle.max { best[$0] < best[$1] } ?? -1
        while element >= 0 {
            moved[element] = false
            element = previous[element]
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
