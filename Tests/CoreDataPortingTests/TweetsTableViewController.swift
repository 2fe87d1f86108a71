// A fetched-results controller with a delegate, as a CS193p table view controller has one
// (without UIKit: the table is a list of changes), with Core Data's delegate signatures.
import CoreData

final class TweetsTableViewController: NSObject, NSFetchedResultsControllerDelegate {
    var fetchedResultsController: NSFetchedResultsController<Tweet>?
    private(set) var changes: [String] = []
    private(set) var contentChanges = 0

    func updateUI(in context: NSManagedObjectContext) throws {
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "tweeter.screenName", ascending: true),
                                   NSSortDescriptor(key: "created", ascending: true)]
        request.predicate = NSPredicate(format: "created > %@", Date.distantPast)
        fetchedResultsController = NSFetchedResultsController(
            fetchRequest: request,
            managedObjectContext: context,
            sectionNameKeyPath: "tweeter.screenName",
            cacheName: nil
        )
        fetchedResultsController?.delegate = self
        try fetchedResultsController?.performFetch()
    }

    func numberOfSections() -> Int {
        return fetchedResultsController?.sections?.count ?? 1
    }

    func numberOfRows(inSection section: Int) -> Int {
        if let sections = fetchedResultsController?.sections, sections.count > 0 {
            return sections[section].numberOfObjects
        } else {
            return 0
        }
    }

    func titleForHeader(inSection section: Int) -> String? {
        if let sections = fetchedResultsController?.sections, sections.count > 0 {
            return sections[section].name
        } else {
            return nil
        }
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        changes.append("begin")
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int,
                    for type: NSFetchedResultsChangeType) {
        switch type {
        case .insert: changes.append("insert section \(sectionInfo.name) at \(sectionIndex)")
        case .delete: changes.append("delete section \(sectionInfo.name) at \(sectionIndex)")
        default: break
        }
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange anObject: Any,
                    at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType,
                    newIndexPath: IndexPath?) {
        let text = (anObject as? Tweet)?.text ?? "?"
        switch type {
        case .insert: changes.append("insert \(text) at \(newIndexPath!)")
        case .delete: changes.append("delete \(text) at \(indexPath!)")
        case .update: changes.append("update \(text) at \(indexPath!)")
        case .move: changes.append("move \(text) from \(indexPath!) to \(newIndexPath!)")
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        changes.append("end")
        contentChanges += 1
    }
}
