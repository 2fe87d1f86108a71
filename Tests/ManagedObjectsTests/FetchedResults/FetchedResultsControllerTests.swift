import Foundation
import Testing
@testable import ManagedObjects

/// `FetchedResultsController` on the CS193p Twitter model: users sectioned by `name`, ordered
/// by name then screen name (own attributes: changes are applied in place), and tweets
/// sectioned by their tweeter's screen name (across a relationship: changes refetch).
@Suite("FetchedResultsController: sections, order and change reports")
struct FetchedResultsControllerTests {
    private static func usersController(
        _ context: ManagedObjectContext, predicate: ObjectPredicate? = nil
    ) -> FetchedResultsController<TwitterUser> {
        let request = TwitterUser.fetchRequest()
        request.predicate = predicate
        request.sortDescriptors = [ObjectSortDescriptor(key: "name"), ObjectSortDescriptor(key: "screenName")]
        return FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "name", cacheName: "ignored")
    }

    @discardableResult
    private static func user(_ name: String?, _ screenName: String, in context: ManagedObjectContext) -> TwitterUser {
        let user = TwitterUser(context: context)
        user.name = name
        user.screenName = screenName
        return user
    }

    private static func describe(_ object: ManagedObject) -> String {
        (object as? TwitterUser)?.screenName ?? (object as? Tweet)?.text ?? "?"
    }

    /// A controller over `users`, fetched, with a table following it.
    private static func follow(
        _ context: ManagedObjectContext, predicate: ObjectPredicate? = nil
    ) throws -> (FetchedResultsController<TwitterUser>, FetchedResultsTable) {
        let controller = usersController(context, predicate: predicate)
        let table = FetchedResultsTable(describe: describe)
        controller.delegate = table
        try controller.performFetch()
        table.load(controller.sections ?? [])
        return (controller, table)
    }

    // MARK: Sections and order

    @Test("sections follow the section key path; nil is the empty name without an index title", arguments: StoreKind.allCases)
    func sections(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            Self.user("bob", "b2", in: context)
            Self.user(nil, "n1", in: context)
            Self.user("ann", "a1", in: context)
            Self.user("bob", "b1", in: context)
            let controller = Self.usersController(context)
            try controller.performFetch()
            let sections = try #require(controller.sections)
            #expect(sections.map(\.name) == ["", "ann", "bob"])
            #expect(sections.map(\.indexTitle) == [nil, "A", "B"])
            #expect(sections.map(\.numberOfObjects) == [1, 1, 2])
            #expect(controller.fetchedObjects?.map(\.screenName) == ["n1", "a1", "b1", "b2"])
            #expect(controller.sectionIndexTitles == ["A", "B"])
            #expect(controller.section(forSectionIndexTitle: "B", at: 7) == 2)
            #expect(controller.section(forSectionIndexTitle: "Z", at: 7) == 7)
            let b2 = try #require(controller.fetchedObjects?.last)
            #expect(controller.indexPath(forObject: b2) == IndexPath(item: 1, section: 2))
            #expect(controller.object(at: IndexPath(item: 1, section: 2)) === b2)
        }
    }

    @Test("without a section key path there is one unnamed section", arguments: StoreKind.allCases)
    func oneSection(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            Self.user("bob", "b1", in: context)
            Self.user("ann", "a1", in: context)
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName", ascending: false)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == [""])
            #expect(controller.fetchedObjects?.map(\.screenName) == ["b1", "a1"])
        }
    }

    @Test("a request without sort descriptors, or not sorted by the section key path first, is refused", arguments: StoreKind.allCases)
    func sortDescriptorsChecked(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let unsorted = FetchedResultsController(fetchRequest: TwitterUser.fetchRequest(), managedObjectContext: context)
            let noOrder = try #require(throws: ManagedObjectError.self) { try unsorted.performFetch() }
            #expect(noOrder.code == .invalidFetchRequest)
            #expect(noOrder.message.contains("no sort descriptors"))
            #expect(unsorted.fetchedObjects == nil)

            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName"), ObjectSortDescriptor(key: "name")]
            let misordered = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "name")
            let wrongKey = try #require(throws: ManagedObjectError.self) { try misordered.performFetch() }
            #expect(wrongKey.code == .invalidFetchRequest)
            #expect(wrongKey.message.contains("'name'") && wrongKey.message.contains("'screenName'"))
        }
    }

    @Test("the delegate titles sections", arguments: StoreKind.allCases)
    func delegateIndexTitles(kind: StoreKind) throws {
        final class Titles: FetchedResultsControllerDelegate {
            func controller(_ controller: AnyObject, sectionIndexTitleForSectionName sectionName: String) -> String? {
                "#" + sectionName
            }
        }
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            Self.user("ann", "a1", in: context)
            let controller = Self.usersController(context)
            let titles = Titles()
            controller.delegate = titles
            try controller.performFetch()
            #expect(controller.sectionIndexTitles == ["#ann"])
        }
    }

    // MARK: Change reports, applied in place

    @Test("inserts, updates, moves and deletes are reported once each, at the right index paths", arguments: StoreKind.allCases)
    func objectChanges(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let a1 = Self.user("ann", "a1", in: context)
            Self.user("ann", "a3", in: context)
            let a5 = Self.user("ann", "a5", in: context)
            try context.save()
            let (controller, table) = try Self.follow(context)

            Self.user("ann", "a2", in: context)
            context.processPendingChanges()
            #expect(table.takeEvents() == ["insert a2 ->0.1"], "a3 and a5 shift but are not moves")

            a1.screenName = "a0"
            a5.screenName = "a4"
            context.processPendingChanges()
            #expect(table.takeEvents() == ["update a0 0.0>0.0", "update a4 0.3>0.3"])

            a1.screenName = "a9"
            context.processPendingChanges()
            #expect(table.takeEvents() == ["move a9 0.0>0.3"], "only the changed object moves")

            context.delete(a5)
            context.processPendingChanges()
            #expect(table.takeEvents() == ["delete a4 0.2>-"])
            #expect(table.matches(controller.sections))
            #expect(controller.fetchedObjects?.map(\.screenName) == ["a2", "a3", "a9"])
            #expect(controller.refetchCount == 0)
        }
    }

    @Test("objects entering and leaving sections insert and delete sections", arguments: StoreKind.allCases)
    func sectionChanges(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let a1 = Self.user("ann", "a1", in: context)
            Self.user("cy", "c1", in: context)
            let (controller, table) = try Self.follow(context)

            a1.name = "bob"
            context.processPendingChanges()
            #expect(table.problems.isEmpty)
            #expect(table.matches(controller.sections))
            #expect(table.takeEvents() == ["section delete ann 0", "section insert bob 0", "move a1 0.0>0.0"])
            #expect(controller.sections?.map(\.name) == ["bob", "cy"])

            Self.user("bob", "b0", in: context)
            context.processPendingChanges()
            #expect(table.takeEvents() == ["insert b0 ->0.1"], "after a1 in bob's section")
            #expect(table.matches(controller.sections))
        }
    }

    @Test("a predicate is re-evaluated for changed objects: they enter and leave the results", arguments: StoreKind.allCases)
    func predicateChanges(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let visible = Self.user("ann", "a1", in: context)
            let hidden = Self.user("ann", "x1", in: context)
            try context.save()
            let (controller, table) = try Self.follow(context, predicate: ObjectPredicate("NOT screenName BEGINSWITH %@", "x"))
            #expect(controller.fetchedObjects == [visible])

            hidden.screenName = "a0"
            context.processPendingChanges()
            #expect(table.takeEvents() == ["insert a0 ->0.0"])

            visible.screenName = "x2"
            context.processPendingChanges()
            #expect(table.takeEvents() == ["delete x2 0.1>-"])

            Self.user("ann", "x3", in: context)
            context.processPendingChanges()
            #expect(table.takeEvents().isEmpty, "an insert the predicate rejects is not reported")
            #expect(controller.fetchedObjects == [hidden])
            #expect(controller.refetchCount == 0)
        }
    }

    @Test("without a delegate the results stay as fetched; saves with nothing new report nothing", arguments: StoreKind.allCases)
    func quietCases(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            Self.user("ann", "a1", in: context)
            let controller = Self.usersController(context)
            try controller.performFetch()
            Self.user("ann", "a2", in: context)
            context.processPendingChanges()
            #expect(controller.fetchedObjects?.count == 1)

            let (_, table) = try Self.follow(context)
            try context.save()
            context.processPendingChanges()
            #expect(table.takeEvents().isEmpty)
        }
    }

    @Test("another context's saves, merged, are reported as updates and moves", arguments: StoreKind.allCases)
    func mergedChanges(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let reader = container.newBackgroundContext()
        reader.automaticallyMergesChangesFromParent = true
        let writer = container.newBackgroundContext()
        let (controller, table) = try reader.performAndWait { () throws in
            Self.user("ann", "a1", in: reader)
            Self.user("ann", "a5", in: reader)
            try reader.save()
            return try Self.follow(reader)
        }
        try writer.performAndWait { () throws in
            let users = try writer.fetch(TwitterUser.fetchRequest())
            try #require(users.first { $0.screenName == "a1" }).screenName = "a9"
            try writer.save()
        }
        // The merge was queued on the reader's queue by the save: this block runs after it.
        reader.performAndWait {
            #expect(table.takeEvents() == ["move a9 0.0>0.1"])
            #expect(controller.fetchedObjects?.map(\.screenName) == ["a5", "a9"])
            #expect(controller.refetchCount == 0)
        }
    }

    @Test("with a fetch limit, changes fetch again and the limit holds", arguments: StoreKind.allCases)
    func fetchLimit(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            Self.user("ann", "a2", in: context)
            Self.user("ann", "a3", in: context)
            try context.save()
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName")]
            request.fetchLimit = 2
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            let table = FetchedResultsTable(describe: Self.describe)
            controller.delegate = table
            try controller.performFetch()
            table.load(controller.sections ?? [])

            Self.user("ann", "a1", in: context)
            context.processPendingChanges()
            #expect(table.takeEvents() == ["delete a3 0.1>-", "insert a1 ->0.0"])
            #expect(table.matches(controller.sections))
            #expect(controller.fetchedObjects?.map(\.screenName) == ["a1", "a2"])
            #expect(controller.refetchCount == 1)
        }
    }

    /// A change to an object inserted and not yet saved, made after its insert was announced,
    /// is announced as an update, as Core Data does, so the controller follows it.
    @Test("a change to an announced, unsaved insert reaches the controller", arguments: StoreKind.allCases)
    func changeToUnsavedInsert(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let (controller, table) = try Self.follow(context)
            let user = Self.user("ann", "a1", in: context)
            context.processPendingChanges()
            #expect(table.takeEvents() == ["section insert ann 0", "insert a1 ->0.0"])
            user.name = "bob"
            context.processPendingChanges()
            #expect(controller.sections?.map(\.name) == ["bob"])
            #expect(table.takeEvents() == ["section delete ann 0", "section insert bob 0", "move a1 0.0>0.0"])
        }
    }

    // MARK: Randomized: every batch must turn the old table into the new results

    /// Random inserts, renames, deletes and saves; after each batch the table built from the
    /// reports equals the controller's sections, which equal a fresh fetch; only objects that
    /// changed are reported as moved or updated.
    @Test("random changes applied in place", arguments: [1, 2, 3] as [UInt64], StoreKind.allCases)
    func randomInPlace(seed: UInt64, kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            var random = SeededGenerator(seed: seed)
            var serial = 0
            func screenName() -> String {
                serial += 1
                return ["a", "b", "x"].randomElement(using: &random)! + String(serial)
            }
            let names: [String?] = [nil, "ann", "bob", "cy", "dee"]
            for _ in 0..<12 { Self.user(names.randomElement(using: &random)!, screenName(), in: context) }
            let predicate = ObjectPredicate("NOT screenName BEGINSWITH %@", "x")
            let (controller, table) = try Self.follow(context, predicate: predicate)
            let request = TwitterUser.fetchRequest()
            request.predicate = predicate
            request.sortDescriptors = controller.fetchRequest.sortDescriptors

            for step in 0..<150 {
                var changed: Set<ObjectIdentifier> = []
                // Only saved objects change: see `changeToUnsavedInsert` for why.
                let users = try context.fetch(TwitterUser.fetchRequest()).filter { !$0.isInserted }
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<3:
                        let user = Self.user(names.randomElement(using: &random)!, screenName(), in: context)
                        changed.insert(ObjectIdentifier(user))
                    case 3..<5:
                        guard let user = users.randomElement(using: &random), !user.isDeleted else { continue }
                        user.name = names.randomElement(using: &random)!
                        changed.insert(ObjectIdentifier(user))
                    case 5..<8:
                        guard let user = users.randomElement(using: &random), !user.isDeleted else { continue }
                        user.screenName = screenName()
                        changed.insert(ObjectIdentifier(user))
                    case 8:
                        guard let user = users.randomElement(using: &random), !user.isDeleted else { continue }
                        context.delete(user)
                    default:
                        try context.save()
                    }
                }
                context.processPendingChanges()
                #expect(table.problems.isEmpty, "step \(step): \(table.problems)")
                #expect(table.matches(controller.sections), "step \(step): \(table.batches.last ?? [])")
                #expect(controller.fetchedObjects == (try context.fetch(request)), "step \(step)")
                let unexpected = table.movedOrUpdated.filter { !changed.contains(ObjectIdentifier($0)) }
                #expect(unexpected.isEmpty, "step \(step): reported without changing: \(unexpected.map(Self.describe))")
                _ = table.takeEvents()
            }
            #expect(controller.refetchCount == 0)
        }
    }

    /// Tweets sectioned by their tweeter's screen name: renaming a user moves tweets that did
    /// not change themselves, so changes refetch; the reports must still be a valid batch.
    @Test("random changes across a relationship refetch", arguments: [4, 5] as [UInt64], StoreKind.allCases)
    func randomAcrossRelationship(seed: UInt64, kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            var random = SeededGenerator(seed: seed)
            var serial = 0
            func unique(_ prefix: String) -> String {
                serial += 1
                return prefix + String(serial)
            }
            let users = (0..<4).map { _ in Self.user("user", unique("u"), in: context) }
            for _ in 0..<10 {
                let tweet = Tweet(context: context)
                tweet.text = unique("t")
                tweet.tweeter = users.randomElement(using: &random)
            }
            try context.save()
            let request = Tweet.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "tweeter.screenName"), ObjectSortDescriptor(key: "text")]
            let controller = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "tweeter.screenName")
            let table = FetchedResultsTable(describe: Self.describe)
            controller.delegate = table
            try controller.performFetch()
            table.load(controller.sections ?? [])

            for step in 0..<80 {
                // Only saved objects change: see `changeToUnsavedInsert` for why.
                let tweets = try context.fetch(Tweet.fetchRequest()).filter { !$0.isInserted }
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    users.randomElement(using: &random)!.screenName = unique("u")
                case 1:
                    let tweet = Tweet(context: context)
                    tweet.text = unique("t")
                    tweet.tweeter = users.randomElement(using: &random)
                case 2:
                    tweets.randomElement(using: &random)?.tweeter = users.randomElement(using: &random)
                case 3:
                    tweets.randomElement(using: &random)?.text = unique("t")
                case 4:
                    if let tweet = tweets.randomElement(using: &random) { context.delete(tweet) }
                default:
                    try context.save()
                }
                context.processPendingChanges()
                #expect(table.problems.isEmpty, "step \(step): \(table.problems)")
                #expect(table.matches(controller.sections), "step \(step): \(table.batches.last ?? [])")
                #expect(controller.fetchedObjects == (try context.fetch(request)), "step \(step)")
                _ = table.takeEvents()
            }
            #expect(controller.refetchCount > 0)
        }
    }
}
