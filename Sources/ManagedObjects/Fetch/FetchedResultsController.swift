import Foundation

/// What happened to an object or a section between two fetches of a
/// `FetchedResultsController`. Core Data's `NSFetchedResultsChangeType`.
public enum FetchedResultsChangeType: Sendable, Hashable {
    case insert, delete, move, update
}

/// Told about changes to a `FetchedResultsController`'s results, on its context's queue: first
/// `controllerWillChangeContent`, then each section and object change, then
/// `controllerDidChangeContent`. Core Data's `NSFetchedResultsControllerDelegate`; every
/// method has an empty default. `controller` is the `FetchedResultsController<Result>`.
public protocol FetchedResultsControllerDelegate: AnyObject {
    func controllerWillChangeContent(_ controller: AnyObject)
    /// A section appeared (`insert`, at its new index) or disappeared (`delete`, at its old one).
    func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType)
    /// `indexPath` is the object's old position (nil for `insert`), `newIndexPath` its new one
    /// (nil for `delete`); `update` gives both.
    func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    func controllerDidChangeContent(_ controller: AnyObject)
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: AnyObject) {}
    public func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex sectionIndex: Int,
                           for type: FetchedResultsChangeType) {}
    public func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controllerDidChangeContent(_ controller: AnyObject) {}
}

/// One section of a `FetchedResultsController`'s results. Core Data's
/// `NSFetchedResultsSectionInfo`.
public struct FetchedResultsSection<Result: ManagedObject> {
    /// The section key path's value as text (`""` for nil).
    public let name: String
    /// The name's first letter, capitalized (`nil` for an empty name).
    public let indexTitle: String?
    public let objects: [Result]
    public var numberOfObjects: Int { objects.count }
}

/// The results of a fetch request, split into sections by a key path, kept up to date as the
/// context changes, for table and list views. Core Data's `NSFetchedResultsController`.
///
/// Used on its context's queue. The request needs sort descriptors, the first of them
/// ordering by the section key path. With a delegate, every objects-did-change of the context
/// refetches and reports the differences; without one, the results stay as last fetched.
public final class FetchedResultsController<Result: ManagedObject> {
    public let fetchRequest: FetchRequest<Result>
    public let managedObjectContext: ManagedObjectContext
    public let sectionNameKeyPath: String?
    /// Accepted for source compatibility; nothing is cached between runs.
    public let cacheName: String?
    public weak var delegate: FetchedResultsControllerDelegate?

    /// `nil` until `performFetch()`.
    public private(set) var fetchedObjects: [Result]?
    /// `nil` until `performFetch()`.
    public private(set) var sections: [FetchedResultsSection<Result>]?
    private var observation: ContextObservation?

    public init(
        fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: String? = nil, cacheName: String? = nil
    ) {
        precondition(!fetchRequest.sortDescriptors.isEmpty,
                     "FetchedResultsController: \(fetchRequest) needs at least one sort descriptor")
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    /// Fetches the results and starts following the context's changes.
    public func performFetch() throws {
        try refetch()
        if observation == nil {
            observation = managedObjectContext.addObserver(for: [.objectsDidChange]) { [weak self] notification in
                self?.contextDidChange(notification)
            }
        }
    }

    /// The object at a section and item.
    public func object(at indexPath: IndexPath) -> Result {
        guard let sections, sections.indices.contains(indexPath[0]),
              sections[indexPath[0]].objects.indices.contains(indexPath[1]) else {
            preconditionFailure("FetchedResultsController: no object at \(indexPath)")
        }
        return sections[indexPath[0]].objects[indexPath[1]]
    }

    /// Where an object is in the results, if it is there.
    public func indexPath(forObject object: Result) -> IndexPath? {
        positions()[ObjectIdentifier(object)]
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

    // MARK: Fetching and following changes

    private func refetch() throws {
        let objects = try managedObjectContext.fetch(fetchRequest)
        fetchedObjects = objects
        sections = split(objects)
    }

    private func split(_ objects: [Result]) -> [FetchedResultsSection<Result>] {
        guard let sectionNameKeyPath else {
            return [FetchedResultsSection(name: "", indexTitle: nil, objects: objects)]
        }
        var names: [String] = []
        var members: [String: [Result]] = [:]
        for object in objects {
            let name = Self.sectionName(object.value(forKeyPath: sectionNameKeyPath))
            if members[name] == nil { names.append(name) }
            members[name, default: []].append(object)
        }
        return names.map { name in
            FetchedResultsSection(name: name, indexTitle: name.first.map { String($0).uppercased() },
                                  objects: members[name] ?? [])
        }
    }

    private static func sectionName(_ value: Any?) -> String {
        switch value {
        case nil: ""
        case let string as String: string
        case let value?: String(describing: value)
        }
    }

    private func positions() -> [ObjectIdentifier: IndexPath] {
        var positions: [ObjectIdentifier: IndexPath] = [:]
        for (sectionIndex, section) in (sections ?? []).enumerated() {
            for (item, object) in section.objects.enumerated() {
                positions[ObjectIdentifier(object)] = IndexPath(indexes: [sectionIndex, item])
            }
        }
        return positions
    }

    private func contextDidChange(_ notification: ContextNotification) {
        guard let delegate else { return }
        let oldSections = (sections ?? []).map(\.name)
        let oldPositions = positions()
        let oldObjects = fetchedObjects ?? []
        guard (try? refetch()) != nil else { return }
        let newSections = (sections ?? []).map(\.name)
        let newPositions = positions()
        let newObjects = fetchedObjects ?? []
        let updated = Set((notification.updatedObjectIDs + notification.refreshedObjectIDs)
            .compactMap { managedObjectContext.registeredObject(for: $0).map(ObjectIdentifier.init) })

        var sectionChanges: [(String, Int, FetchedResultsChangeType)] = []
        for (index, name) in oldSections.enumerated() where !newSections.contains(name) {
            sectionChanges.append((name, index, .delete))
        }
        for (index, name) in newSections.enumerated() where !oldSections.contains(name) {
            sectionChanges.append((name, index, .insert))
        }
        var objectChanges: [(ManagedObject, IndexPath?, FetchedResultsChangeType, IndexPath?)] = []
        for object in oldObjects where newPositions[ObjectIdentifier(object)] == nil {
            objectChanges.append((object, oldPositions[ObjectIdentifier(object)], .delete, nil))
        }
        // An object that stays moves when its section changes or when it changes places with
        // other staying objects; shifts caused by inserts and deletes alone are not moves.
        let stayingBefore = oldObjects.map(ObjectIdentifier.init).filter { newPositions[$0] != nil }
        let stayingAfter = newObjects.map(ObjectIdentifier.init).filter { oldPositions[$0] != nil }
        var moved = Set<ObjectIdentifier>()
        for change in stayingAfter.difference(from: stayingBefore) {
            if case .remove(_, let element, _) = change { moved.insert(element) }
        }
        for object in newObjects {
            let key = ObjectIdentifier(object)
            switch (oldPositions[key], newPositions[key]) {
            case (nil, let new?):
                objectChanges.append((object, nil, .insert, new))
            case (let old?, let new?) where moved.contains(key) || oldSections[old[0]] != newSections[new[0]]:
                objectChanges.append((object, old, .move, new))
            case (let old?, let new?) where updated.contains(key):
                objectChanges.append((object, old, .update, new))
            default:
                break
            }
        }
        guard !sectionChanges.isEmpty || !objectChanges.isEmpty else { return }
        delegate.controllerWillChangeContent(self)
        for (name, index, type) in sectionChanges {
            delegate.controller(self, didChangeSectionNamed: name, atSectionIndex: index, for: type)
        }
        for (object, old, type, new) in objectChanges {
            delegate.controller(self, didChange: object, at: old, for: type, newIndexPath: new)
        }
        delegate.controllerDidChangeContent(self)
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
