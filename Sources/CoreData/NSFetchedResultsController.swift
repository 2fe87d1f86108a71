import Foundation
@_spi(CoreData) import ManagedObjects

/// Core Data's `NSFetchedResultsController` over this package's `FetchedResultsController`
/// (which follows the context and computes the changes). `ResultType` is unconstrained so that
/// `NSFetchedResultsController<NSFetchRequestResult>` compiles, as in Core Data code.
///
/// The delegate's `controller` argument is this controller when it was made as
/// `NSFetchedResultsController<NSFetchRequestResult>`; for a typed one (`<Tweet>`) Swift's
/// generics are not covariant, so it is a companion of that type over the same results.
open class NSFetchedResultsController<ResultType>: @unchecked Sendable {
    // Unchecked: as Core Data's, used on its context's queue only; its results change in the
    // context's change notifications, which the context posts on that queue.
    public let fetchRequest: NSFetchRequest<ResultType>
    public let managedObjectContext: NSManagedObjectContext
    public let sectionNameKeyPath: String?
    public let cacheName: String?

    private let results: FetchedResultsController<ManagedObject>
    private let forwarder = DelegateForwarder()
    /// The delegate's view of this controller, made on first use when `ResultType` is not
    /// `NSFetchRequestResult`.
    private var erasedCompanion: NSFetchedResultsController<NSFetchRequestResult>?

    open weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        didSet {
            forwarder.delegate = delegate
            forwarder.controller = delegate == nil ? nil : erased()
            // The runtime follows the context only while it has a delegate, as Core Data does.
            results.delegate = delegate == nil ? nil : forwarder
        }
    }

    public init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = name
        results = FetchedResultsController(
            fetchRequest: FetchRequest<ManagedObject>(entityName: fetchRequest.entityName),
            managedObjectContext: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
    }

    /// A companion sharing `results`, for the delegate.
    private init(sharing results: FetchedResultsController<ManagedObject>, request: NSFetchRequest<ResultType>) {
        self.fetchRequest = request
        self.managedObjectContext = results.managedObjectContext
        self.sectionNameKeyPath = results.sectionNameKeyPath
        self.cacheName = results.cacheName
        self.results = results
    }

    private func erased() -> NSFetchedResultsController<NSFetchRequestResult> {
        if let same = self as? NSFetchedResultsController<NSFetchRequestResult> { return same }
        if let erasedCompanion { return erasedCompanion }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: fetchRequest.entityName)
        let companion = NSFetchedResultsController<NSFetchRequestResult>(sharing: results, request: request)
        erasedCompanion = companion
        return companion
    }

    /// Fetches with the request as it is now (its predicate and sort descriptors may have
    /// changed since the last fetch). Throws `invalidFetchRequest` (134060) without sort
    /// descriptors, where Core Data raises.
    open func performFetch() throws {
        let request = results.fetchRequest
        request.entityName = fetchRequest.entityName
        request.objectPredicate = fetchRequest.objectPredicate
        request.objectSortDescriptors = fetchRequest.objectSortDescriptors
        request.fetchLimit = fetchRequest.fetchLimit
        request.fetchOffset = fetchRequest.fetchOffset
        request.fetchBatchSize = fetchRequest.fetchBatchSize
        request.includesSubentities = fetchRequest.includesSubentities
        request.includesPendingChanges = fetchRequest.includesPendingChanges
        request.returnsObjectsAsFaults = fetchRequest.returnsObjectsAsFaults
        request.relationshipKeyPathsForPrefetching = fetchRequest.relationshipKeyPathsForPrefetching
        try results.performFetch()
    }

    open var fetchedObjects: [ResultType]? {
        results.fetchedObjects?.compactMap { $0 as? ResultType }
    }

    open var sections: [any NSFetchedResultsSectionInfo]? {
        results.sections?.map(SectionInfo.init)
    }

    /// The object at a section and row. Traps outside the sections, as Core Data raises.
    open func object(at indexPath: IndexPath) -> ResultType {
        guard let object = results.object(at: indexPath) as? ResultType else {
            preconditionFailure("NSFetchedResultsController: \(results.object(at: indexPath)) is not a \(ResultType.self)")
        }
        return object
    }

    open func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let object = object as? ManagedObject else { return nil }
        return results.indexPath(forObject: object)
    }

    open var sectionIndexTitles: [String] { results.sectionIndexTitles }

    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        results.section(forSectionIndexTitle: title, at: sectionIndex)
    }
}

/// A section as `NSFetchedResultsSectionInfo`.
struct SectionInfo: NSFetchedResultsSectionInfo {
    var name: String
    var indexTitle: String?
    var numberOfObjects: Int
    var objects: [Any]?

    init(_ section: FetchedResultsSection<ManagedObject>) {
        name = section.name
        indexTitle = section.indexTitle
        numberOfObjects = section.numberOfObjects
        objects = section.objects
    }

    /// A section that is gone: only its name is known.
    init(deletedSectionNamed name: String) {
        self.name = name
        indexTitle = FetchedResultsSection<ManagedObject>.defaultIndexTitle(for: name)
        numberOfObjects = 0
        objects = []
    }
}

/// Passes the runtime controller's delegate calls on in Core Data's signatures.
private final class DelegateForwarder: FetchedResultsControllerDelegate {
    weak var delegate: (any NSFetchedResultsControllerDelegate)?
    weak var controller: NSFetchedResultsController<NSFetchRequestResult>?

    func controllerWillChangeContent(_ controller: AnyObject) {
        guard let delegate, let erased = self.controller else { return }
        delegate.controllerWillChangeContent(erased)
    }

    func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType) {
        guard let delegate, let erased = self.controller else { return }
        let current = erased.sections.flatMap { sections in
            sections.indices.contains(sectionIndex) && sections[sectionIndex].name == name ? sections[sectionIndex] : nil
        }
        let info: any NSFetchedResultsSectionInfo =
            (type == .delete ? nil : current) ?? SectionInfo(deletedSectionNamed: name)
        delegate.controller(erased, didChange: info, atSectionIndex: sectionIndex, for: type)
    }

    func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let delegate, let erased = self.controller else { return }
        delegate.controller(erased, didChange: object, at: indexPath, for: type, newIndexPath: newIndexPath)
    }

    func controllerDidChangeContent(_ controller: AnyObject) {
        guard let delegate, let erased = self.controller else { return }
        delegate.controllerDidChangeContent(erased)
    }

    func controller(_ controller: AnyObject, sectionIndexTitleForSectionName sectionName: String) -> String? {
        guard let delegate, let erased = self.controller else {
            return FetchedResultsSection<ManagedObject>.defaultIndexTitle(for: sectionName)
        }
        return delegate.controller(erased, sectionIndexTitleForSectionName: sectionName)
    }
}
