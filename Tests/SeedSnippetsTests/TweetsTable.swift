// The lecture's NSFetchedResultsController pieces (seeds 000 and 003), in a class that stands
// for the UITableViewController: the data source methods without UIKit's table parameters.
import CoreData

@MainActor
final class TweetsTable: NSObject, NSFetchedResultsControllerDelegate {
    var fetchedResultsController: NSFetchedResultsController<Tweet>?
    private(set) var changeCount = 0

    func show(tweetsBy theName: String, in context: NSManagedObjectContext) {
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "created", ascending: true)]
        request.predicate = NSPredicate(format: "tweeter.name = %@", theName)
        let frc = NSFetchedResultsController<Tweet>( // note this is a generic type
            fetchRequest: request,
            managedObjectContext: context,
            sectionNameKeyPath: nil,
            cacheName: "MyTwitterQueryCache") // careful!
        fetchedResultsController = frc
        try? fetchedResultsController?.performFetch() // would be better to catch errors!
        fetchedResultsController?.delegate = self
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

    // Slide: `cellForRowAt indexPath: NSIndexPath`, `if let obj = …object(at:)`.
    func text(at indexPath: IndexPath) -> String? {
        let obj = fetchedResultsController?.object(at: indexPath)
        // load up the cell based on the properties of the obj
        return obj?.text
    }

    nonisolated func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                                didChange anObject: Any,
                                at indexPath: IndexPath?,
                                for type: NSFetchedResultsChangeType,
                                newIndexPath: IndexPath?) {
        // here you are supposed call appropriate UITableView methods to update rows
        MainActor.assumeIsolated { changeCount += 1 }
    }
}
