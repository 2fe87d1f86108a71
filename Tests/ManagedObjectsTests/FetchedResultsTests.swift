import Foundation
import Testing
@testable import ManagedObjects

/// Records delegate calls as text, as a table view would apply them.
private final class ChangeRecorder: FetchedResultsControllerDelegate {
    var events: [String] = []

    func controllerWillChangeContent(_ controller: AnyObject) { events.append("will") }

    func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType) {
        events.append("section \(type) \(name) \(sectionIndex)")
    }

    func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let text = (object as? Tweet)?.text ?? "?"
        let from = indexPath.map { "\($0.section).\($0.item)" } ?? "-"
        let to = newIndexPath.map { "\($0.section).\($0.item)" } ?? "-"
        events.append("\(type) \(text) \(from)>\(to)")
    }

    func controllerDidChangeContent(_ controller: AnyObject) { events.append("did") }
}

@Suite("FetchedResultsController")
struct FetchedResultsTests {
    private func tweet(_ text: String, day: Double, by user: TwitterUser, in context: ManagedObjectContext) -> Tweet {
        let tweet = Tweet(context: context)
        tweet.text = text
        tweet.created = Date(timeIntervalSinceReferenceDate: day * 86_400)
        tweet.tweeter = user
        return tweet
    }

    private func controller(_ context: ManagedObjectContext) -> FetchedResultsController<Tweet> {
        let request = Tweet.fetchRequest()
        request.sortDescriptors = [
            ObjectSortDescriptor(key: "tweeter.screenName"), ObjectSortDescriptor(key: "created"),
        ]
        return FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                        sectionNameKeyPath: "tweeter.screenName", cacheName: nil)
    }

    @Test("sections by key path, object(at:), indexPath(forObject:), index titles", arguments: StoreKind.allCases)
    func sections(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let ann = TwitterUser(context: context)
            ann.screenName = "ann"
            let bob = TwitterUser(context: context)
            bob.screenName = "bob"
            let a2 = tweet("a2", day: 2, by: ann, in: context)
            _ = tweet("a1", day: 1, by: ann, in: context)
            let b1 = tweet("b1", day: 1, by: bob, in: context)
            let results = controller(context)
            #expect(results.fetchedObjects == nil)
            try results.performFetch()
            let sections = try #require(results.sections)
            #expect(sections.map(\.name) == ["ann", "bob"])
            #expect(sections.map(\.numberOfObjects) == [2, 1])
            #expect(results.object(at: IndexPath(item: 1, section: 0)) === a2)
            #expect(results.indexPath(forObject: b1) == IndexPath(item: 0, section: 1))
            #expect(results.sectionIndexTitles == ["A", "B"])
            #expect(results.section(forSectionIndexTitle: "B", at: 0) == 1)
            #expect(results.fetchedObjects?.map(\.text) == ["a1", "a2", "b1"])
        }
    }

    @Test("the delegate hears inserts, updates, moves, deletes and section changes", arguments: StoreKind.allCases)
    func changes(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let ann = TwitterUser(context: context)
            ann.screenName = "ann"
            let a1 = tweet("a1", day: 1, by: ann, in: context)
            let a2 = tweet("a2", day: 2, by: ann, in: context)
            try context.save()
            let results = controller(context)
            let recorder = ChangeRecorder()
            results.delegate = recorder
            try results.performFetch()

            _ = tweet("a0", day: 0, by: ann, in: context)
            context.processPendingChanges()
            #expect(recorder.events == ["will", "insert a0 ->0.0", "did"])

            recorder.events.removeAll()
            a2.text = "a2 edited"
            context.processPendingChanges()
            #expect(recorder.events == ["will", "update a2 edited 0.2>0.2", "did"])

            recorder.events.removeAll()
            a1.created = Date(timeIntervalSinceReferenceDate: 9 * 86_400)
            context.processPendingChanges()
            #expect(recorder.events == ["will", "move a1 0.1>0.2", "did"])

            recorder.events.removeAll()
            let bob = TwitterUser(context: context)
            bob.screenName = "bob"
            a2.tweeter = bob
            context.processPendingChanges()
            #expect(recorder.events == ["will", "section insert bob 1", "move a2 edited 0.1>1.0", "did"])

            recorder.events.removeAll()
            context.delete(a2)
            context.processPendingChanges()
            #expect(recorder.events == ["will", "section delete bob 1", "delete a2 edited 1.0>-", "did"])
            #expect(results.sections?.map(\.name) == ["ann"])

            recorder.events.removeAll()
            context.processPendingChanges()
            _ = TwitterUser(context: context)
            context.processPendingChanges()
            #expect(recorder.events.isEmpty, "changes that do not touch the results are not reported")
        }
    }
}
