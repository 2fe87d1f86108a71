import Foundation

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
