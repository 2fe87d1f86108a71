import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// The kinds of store the seam's scenarios run on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, sqlite, postgreSQL

    /// PostgreSQL when a server is given (MANAGEDGEN_POSTGRES_URL, which `Scripts/postgres.sh
    /// start` prints and `.ci/run` sets): every scenario then runs on it too.
    static var allCases: [StoreKind] { postgreSQLServer == nil ? [.inMemory, .sqlite] : [.inMemory, .sqlite, .postgreSQL] }

    static let postgreSQLServer = ProcessInfo.processInfo.environment["MANAGEDGEN_POSTGRES_URL"]
        .flatMap { $0.isEmpty ? nil : URL(string: $0) }

    /// The PostgreSQL database standing for `files`: a schema of the server named after the
    /// directory, so two stacks on one directory share their tables as two on one SQLite file
    /// do. Schemas are left to the server, which `Scripts/postgres.sh stop` removes.
    static func postgreSQLURL(for files: TemporaryDirectory) throws -> URL {
        guard let server = postgreSQLServer else {
            throw ManagedObjectError(.persistentStoreOpen, "no PostgreSQL server: set MANAGEDGEN_POSTGRES_URL")
        }
        let schema = "mo_" + files.url.lastPathComponent.lowercased().filter { $0.isLetter || $0.isNumber }
        return URL(string: server.absoluteString + (server.query == nil ? "?" : "&") + "schema=\(schema)")!
    }

    var testDescription: String { rawValue }

    /// A new, empty store of this kind for `model`; an SQLite store's file lives in a temporary
    /// directory removed with the returned holder.
    func makeStore(_ model: ManagedObjectModel) throws -> (store: any PersistentStore, files: TemporaryDirectory?) {
        switch self {
        case .inMemory:
            return (InMemoryStore(), nil)
        case .sqlite:
            let directory = try TemporaryDirectory()
            return (try SQLiteStore(model: model, url: directory.file("Store.sqlite")), directory)
        case .postgreSQL:
            let directory = try TemporaryDirectory()
            return (try openPostgreSQLStore(model, url: Self.postgreSQLURL(for: directory)), directory)
        }
    }
}

/// A store that forwards to an in-memory or SQLite store, counting what it is asked, and that
/// can decline to evaluate predicates (so the context evaluates them over managed objects).
final class InspectedStore: PersistentStore, @unchecked Sendable {
    // Unchecked: the counters are only touched under `lock`; `inner` is thread-safe.
    let inner: any PersistentStore
    let evaluatesPredicates: Bool
    /// The inner store's files, removed when this store goes.
    private let files: TemporaryDirectory?
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var failingSaves = false

    /// Whether saves fail (with an error that is not a `ManagedObjectError`), as a store whose
    /// disk is full would.
    var failsSaves: Bool {
        get { lock.withLock { failingSaves } }
        set { lock.withLock { failingSaves = newValue } }
    }

    struct SaveFailure: Error {}

    init(evaluatesPredicates: Bool = true, kind: StoreKind = .inMemory, model: ManagedObjectModel = TwitterModel.managedObjectModel) throws {
        self.evaluatesPredicates = evaluatesPredicates
        (inner, files) = try kind.makeStore(model)
    }

    func count(_ call: String) -> Int { lock.withLock { counts[call] ?? 0 } }
    private func record(_ call: String) { lock.withLock { counts[call, default: 0] += 1 } }

    var type: PersistentStoreType { inner.type }
    var identifier: String { inner.identifier }
    var url: URL? { inner.url }

    func execute(_ request: StoreRequest) throws -> StoreResult {
        record("execute \(request.resultType)")
        return try inner.execute(request)
    }

    func canEvaluate(_ predicate: ObjectPredicate) -> Bool { evaluatesPredicates && inner.canEvaluate(predicate) }
    func canSort(by sortDescriptors: [ObjectSortDescriptor]) -> Bool { evaluatesPredicates }

    func snapshot(for objectID: ManagedObjectID) throws -> StoredObject? {
        record("snapshot")
        return try inner.snapshot(for: objectID)
    }

    func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try inner.relatedObjectIDs(of: objectID, relationship: relationship)
    }

    func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID] {
        try inner.obtainPermanentIDs(for: entity, count: count)
    }

    func save(_ changes: StoreChangeSet) throws {
        if failsSaves { throw SaveFailure() }
        try inner.save(changes)
    }
}

/// A stack on an `InspectedStore` of `kind`, with `users` users of `tweetsEach` tweets saved.
func inspectedStack(
    users: Int = 3, tweetsEach: Int = 4, evaluatesPredicates: Bool = true, kind: StoreKind = .inMemory
) throws -> (PersistentStoreCoordinator, InspectedStore) {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: TwitterModel.managedObjectModel)
    let store = try InspectedStore(evaluatesPredicates: evaluatesPredicates, kind: kind)
    coordinator.addPersistentStore(store)
    let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    try context.performAndWait {
        for userNumber in 0..<users {
            let user = TwitterUser(context: context)
            user.name = "user \(userNumber)"
            user.screenName = "u\(userNumber)"
            for tweetNumber in 0..<tweetsEach {
                let tweet = Tweet(context: context)
                tweet.text = "tweet \(tweetNumber) of \(userNumber)"
                tweet.created = Date(timeIntervalSinceReferenceDate: Double((tweetNumber * 7 + userNumber * 3) % 11))
                tweet.tweeter = user
            }
        }
        try context.save()
    }
    return (coordinator, store)
}

@Suite("Store seam: faults, row cache, pending changes")
struct StoreSeamTests {
    func context(_ coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    }

    @Test("a fetched object is a fault until a property is read; refresh turns it back", arguments: StoreKind.allCases)
    func faults(kind: StoreKind) throws {
        let (coordinator, store) = try inspectedStack(kind: kind)
        let context = context(coordinator)
        try context.performAndWait {
            let tweets = try context.fetch(Tweet.fetchRequest())
            #expect(tweets.count == 12)
            #expect(tweets.allSatisfy { $0.isFault })
            let snapshotsBefore = store.count("snapshot")
            let text = tweets[0].text
            #expect(text != nil && !tweets[0].isFault)
            #expect(store.count("snapshot") == snapshotsBefore, "the fetch's rows wait in the row cache")
            #expect(tweets[1].isFault)

            context.refresh(tweets[0], mergeChanges: false)
            #expect(tweets[0].isFault)
            #expect(tweets[0].text == text)
            #expect(store.count("snapshot") == snapshotsBefore + 1, "a refreshed fault reads the store again")

            tweets[2].text = "changed"
            context.refresh(tweets[2], mergeChanges: false)
            #expect(tweets[2].isFault && !tweets[2].isUpdated && !context.hasChanges)
            #expect(tweets[2].text != "changed")

            tweets[3].text = "kept"
            _ = tweets[4].text
            context.refreshAllObjects()
            #expect(tweets[4].isFault, "an unchanged object turns into a fault")
            #expect(!tweets[3].isFault && tweets[3].text == "kept" && tweets[3].isUpdated, "a changed one keeps its changes")
        }
    }

    @Test("a fired fault reads its row until written to; then its changes are tracked, shown and rolled back", arguments: StoreKind.allCases)
    func firedFaultReadsItsRow(kind: StoreKind) throws {
        let (coordinator, _) = try inspectedStack(kind: kind)
        let context = context(coordinator)
        try context.performAndWait {
            let tweet = try #require(try context.fetch(Tweet.fetchRequest()).first)
            let text = try #require(tweet.text)
            #expect(tweet.state == .committed, "reading fires the fault and keeps the row's values")
            #expect(tweet.value(forKey: "text") as? String == text && tweet.primitiveValue(forKey: "text") as? String == text)
            #expect(tweet.state == .committed && tweet.changedValues().isEmpty && !tweet.hasChanges)

            tweet.text = "changed"
            #expect(tweet.state == .loaded && tweet.isUpdated)
            #expect(tweet.changedValues() as? [String: String] == ["text": "changed"])
            #expect(tweet.committedValues(forKeys: ["text"]) as? [String: String] == ["text": text])
            context.rollback()
            #expect(tweet.text == text && !tweet.hasChanges)

            // Turned back into a fault, it fires from its row again.
            context.refresh(tweet, mergeChanges: false)
            #expect(tweet.isFault && tweet.text == text && tweet.state == .committed)
        }
    }

    @Test("returnsObjectsAsFaults = false loads; includesPropertyValues = false fetches IDs only")
    func faultOptions() throws {
        let (coordinator, store) = try inspectedStack()
        let context = context(coordinator)
        try context.performAndWait {
            let loaded = Tweet.fetchRequest()
            loaded.returnsObjectsAsFaults = false
            #expect(try context.fetch(loaded).allSatisfy { !$0.isFault })
            context.reset()

            let bare = Tweet.fetchRequest()
            bare.includesPropertyValues = false
            let executedBefore = store.count("execute objectIDs")
            let tweets = try context.fetch(bare)
            #expect(store.count("execute objectIDs") == executedBefore + 1)
            let snapshotsBefore = store.count("snapshot")
            _ = tweets[0].text
            _ = tweets[1].text
            #expect(store.count("snapshot") == snapshotsBefore + 2, "each fault reads its own row")
        }
    }

    @Test("object(with:) gives a fault without reading the store; a gone object reads empty")
    func objectWithID() throws {
        let (coordinator, store) = try inspectedStack(users: 1, tweetsEach: 1)
        let id = try context(coordinator).performAndWait { () throws in
            try context(coordinator).fetch(Tweet.fetchRequest())[0].objectID
        }
        let reader = context(coordinator)
        let deleter = context(coordinator)
        try reader.performAndWait {
            let before = store.count("snapshot")
            let fault = reader.object(with: id)
            #expect(fault.isFault && store.count("snapshot") == before)
            try deleter.performAndWait {
                deleter.delete(try deleter.existingObject(with: id))
                try deleter.save()
            }
            // Core Data raises here; a getter cannot throw, so the object reads as empty.
            #expect((fault as! Tweet).text == nil)
            #expect(throws: ManagedObjectError.self) { try reader.existingObject(with: id) }
        }
    }

    @Test("fetchBatchSize: the first fault of a batch reads the rows of its whole batch")
    func batchFaulting() throws {
        let (coordinator, store) = try inspectedStack(users: 5, tweetsEach: 5)
        let context = context(coordinator)
        try context.performAndWait {
            let request = Tweet.fetchRequest()
            request.fetchBatchSize = 10
            let tweets = try context.fetch(request)
            #expect(tweets.count == 25 && tweets.allSatisfy { $0.isFault })
            let before = store.count("snapshot")
            _ = tweets[3].text
            #expect(store.count("snapshot") == before + 10)
            for tweet in tweets[0..<10] { _ = tweet.text }
            #expect(store.count("snapshot") == before + 10, "the rest of the batch fires from the row cache")
            _ = tweets[24].text
            #expect(store.count("snapshot") == before + 15, "the last batch has 5 objects")
        }
    }

    @Test("prefetching relates the destination objects, loaded, with the fetch")
    func prefetching() throws {
        let (coordinator, store) = try inspectedStack()
        let context = context(coordinator)
        try context.performAndWait {
            let plain = try context.fetch(Tweet.fetchRequest())
            #expect(plain.allSatisfy { $0.hasFaultForRelationship(named: "tweeter") })
            context.reset()

            let request = Tweet.fetchRequest()
            request.relationshipKeyPathsForPrefetching = ["tweeter"]
            let tweets = try context.fetch(request)
            let before = store.count("snapshot")
            #expect(tweets.allSatisfy { !$0.hasFaultForRelationship(named: "tweeter") })
            #expect(Set(tweets.compactMap { $0.tweeter?.name }).count == 3)
            #expect(store.count("snapshot") == before, "nothing left to read")

            let unknown = Tweet.fetchRequest()
            unknown.relationshipKeyPathsForPrefetching = ["author"]
            let error = try #require(throws: ManagedObjectError.self) { try context.fetch(unknown) }
            #expect(error.code == .invalidFetchRequest && error.key == "author")
        }
    }

    @Test("an unchanged object the app no longer holds is released, with its row; a changed one is kept")
    func release() throws {
        let (coordinator, _) = try inspectedStack()
        let context = context(coordinator)
        try context.performAndWait {
            var tweets: [Tweet]? = try context.fetch(Tweet.fetchRequest())
            let unchangedID = tweets![0].objectID
            let changedID = tweets![1].objectID
            _ = tweets![0].text
            tweets![1].text = "changed"
            #expect(coordinator.rowCache.count == 12)
            weak let unchanged = tweets![0]
            tweets = nil
            #expect(unchanged == nil)
            #expect(context.registeredObject(for: unchangedID) == nil)
            #expect(context.registeredObject(for: changedID)?.isUpdated == true)
            #expect(coordinator.rowCache.count == 1, "only the changed object still uses its row")
            try context.save()
            #expect(context.registeredObject(for: changedID) == nil, "saved, unchanged again, and not held")
            #expect(coordinator.rowCache.count == 0)
        }
    }

    @Test("pending inserts, changes and deletes are laid over the store's answer, then sort, offset and limit", arguments: StoreKind.allCases)
    func pendingChangesOverStoreAnswer(kind: StoreKind) throws {
        let (coordinator, _) = try inspectedStack(users: 2, tweetsEach: 6, kind: kind)
        let context = context(coordinator)
        try context.performAndWait {
            let all = try context.fetch(Tweet.fetchRequest())
            all[0].text = "a first by its new text"
            all[5].text = "zz last"
            context.delete(all[3])
            for number in 0..<3 {
                let tweet = Tweet(context: context)
                tweet.text = "tweet \(number) new"
            }
            let current = all.filter { !$0.isDeleted } + context.insertedObjects.compactMap { $0 as? Tweet }
            let expectedOrder = current.map(\.text!).sorted()

            for (offset, limit) in [(0, 0), (0, 4), (2, 5), (10, 0), (12, 3), (20, 2)] {
                let request = Tweet.fetchRequest()
                request.sortDescriptors = [ObjectSortDescriptor(key: "text")]
                request.fetchOffset = offset
                request.fetchLimit = limit
                let expected = Array(expectedOrder.window(offset: offset, limit: limit))
                #expect(try context.fetch(request).map(\.text!) == expected, "offset \(offset), limit \(limit)")
                #expect(try context.count(for: request) == expected.count)
            }

            let matching = Tweet.fetchRequest()
            matching.predicate = ObjectPredicate("text BEGINSWITH %@", "tweet")
            #expect(try context.count(for: matching) == current.filter { $0.text!.hasPrefix("tweet") }.count)
            matching.includesPendingChanges = false
            #expect(try context.count(for: matching) == 12, "the store's answer: saved values, deleted objects included")
        }
    }

    @Test("without sorts the store's window is the first matching rows in save order", arguments: StoreKind.allCases)
    func unsortedWindows(kind: StoreKind) throws {
        let (coordinator, _) = try inspectedStack(users: 3, tweetsEach: 7, kind: kind)
        let context = context(coordinator)
        try context.performAndWait { () throws in
            let all = try context.fetch(Tweet.fetchRequest()).map(\.objectID)
            let matching = try context.fetch({ let r = Tweet.fetchRequest(); r.predicate = ObjectPredicate("text ENDSWITH '1'"); return r }()).map(\.objectID)
            #expect(all.count == 21 && matching.count == 7)
            for (offset, limit) in [(0, 5), (5, 5), (19, 5), (21, 1), (3, 0), (0, 0)] {
                let request = Tweet.fetchRequest()
                request.fetchOffset = offset
                request.fetchLimit = limit
                #expect(try context.fetch(request).map(\.objectID) == Array(all.window(offset: offset, limit: limit)))
                #expect(try context.count(for: request) == all.window(offset: offset, limit: limit).count)
                request.predicate = ObjectPredicate("text ENDSWITH '1'")
                #expect(try context.fetch(request).map(\.objectID) == Array(matching.window(offset: offset, limit: limit)))
            }
            // A deleted row leaves a gap the window skips.
            context.delete(try context.existingObject(with: all[2]))
            try context.save()
            let remaining = all.filter { $0 != all[2] }
            for (offset, limit) in [(0, 5), (2, 3), (18, 5)] {
                let request = Tweet.fetchRequest()
                request.fetchOffset = offset
                request.fetchLimit = limit
                #expect(try context.fetch(request).map(\.objectID) == Array(remaining.window(offset: offset, limit: limit)))
            }
        }
    }

    @Test("a save's notification carries what another context needs to merge: no store reads", arguments: StoreKind.allCases)
    func mergeFromNotification(kind: StoreKind) throws {
        let (coordinator, store) = try inspectedStack(users: 1, tweetsEach: 3, kind: kind)
        let writer = context(coordinator)
        let reader = context(coordinator)
        let tweets = try reader.performAndWait { () throws in
            let tweets = try reader.fetch(Tweet.fetchRequest())
            for tweet in tweets { _ = tweet.text }
            return tweets
        }
        var saved: ContextNotification?
        let observation = writer.addObserver(for: [.didSave]) { saved = $0 }
        try writer.performAndWait {
            for tweet in try writer.fetch(Tweet.fetchRequest()) { tweet.text = (tweet.text ?? "") + " edited" }
            try writer.save()
        }
        observation.cancel()
        let notification = try #require(saved)
        let before = store.count("snapshot")
        reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: notification)
            #expect(tweets.allSatisfy { $0.text?.hasSuffix(" edited") == true && !$0.hasChanges })
        }
        #expect(store.count("snapshot") == before)
    }

    @Test("a save started from didSave() numbers its own new objects; both saves' objects are stored",
          arguments: StoreKind.allCases)
    func saveFromDidSave(kind: StoreKind) throws {
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "Note", attributes: [Attribute(name: "text", type: .string, isOptional: true)]),
        ]), classes: ["Note": NoteSavingAgain.self])
        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: kind, files: files)
        let context = container.newBackgroundContext()
        let ids = try context.performAndWait {
            let first = NoteSavingAgain(context: context)
            first.setValue("first", forKey: "text")
            first.savesAnotherNote = true
            try context.save()
            let notes = [first] + [first.secondNote].compactMap { $0 }
            #expect(notes.count == 2 && notes.allSatisfy { !$0.objectID.isTemporaryID && !$0.hasChanges })
            #expect(notes.allSatisfy { context.placeAmongNewObjects(of: $0) == nil })
            return Set(notes.map(\.objectID))
        }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Note")).map { "\($0.value(forKey: "text") ?? "nil")" }.sorted()
        }
        #expect(stored == ["first", "second"])
        #expect(ids.count == 2)
    }

    @Test("a save the store refuses leaves the new objects' values as they were; the next save stores them",
          arguments: StoreKind.allCases)
    func refusedSaveKeepsValues(kind: StoreKind) throws {
        let (coordinator, store) = try inspectedStack(users: 1, tweetsEach: 0, kind: kind)
        let writer = context(coordinator)
        try writer.performAndWait {
            let user = try #require(try writer.fetch(FetchRequest<TwitterUser>(entityName: "TwitterUser")).first)
            let tweet = Tweet(context: writer)
            tweet.text = "kept"
            tweet.created = Date(timeIntervalSinceReferenceDate: 42)
            tweet.tweeter = user
            store.failsSaves = true
            #expect(throws: InspectedStore.SaveFailure.self) { try writer.save() }
            #expect(tweet.text == "kept")
            #expect(tweet.created == Date(timeIntervalSinceReferenceDate: 42))
            #expect(tweet.tweeter === user)
            #expect(tweet.objectID.isTemporaryID && tweet.isInserted)
            #expect(writer.placeAmongNewObjects(of: tweet) == nil, "a save's numbers go with it")
            store.failsSaves = false
            try writer.save()
            #expect(writer.placeAmongNewObjects(of: tweet) == nil)
        }
        let reader = context(coordinator)
        let saved = try reader.performAndWait {
            try reader.fetch(FetchRequest<Tweet>(entityName: "Tweet")).map { "\($0.text ?? "nil") \($0.created?.timeIntervalSinceReferenceDate ?? -1) \($0.tweeter?.name ?? "nil")" }
        }
        #expect(saved == ["kept 42.0 user 0"])
    }

    @Test("a count with no unsaved changes is the store's: no object is made", arguments: StoreKind.allCases)
    func countMakesNoObjects(kind: StoreKind) throws {
        let (coordinator, store) = try inspectedStack(kind: kind)
        let context = context(coordinator)
        try context.performAndWait { () throws in
            let request = Tweet.fetchRequest()
            request.predicate = ObjectPredicate("tweeter.name == %@", "user 1")
            #expect(try context.count(for: request) == 4)
            #expect(try context.count(for: Tweet.fetchRequest()) == 12)
            #expect(store.count("execute count") == 2)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    @Test("an unbound $VARIABLE or an unknown key throws from fetch and count; nothing traps")
    func badRequestsThrow() throws {
        let (coordinator, _) = try inspectedStack()
        let context = context(coordinator)
        try context.performAndWait {
            let request = Tweet.fetchRequest()
            request.predicate = ObjectPredicate("text == $TEXT")
            let error = try #require(throws: ManagedObjectError.self) { try context.fetch(request) }
            #expect(error.code == .invalidFetchRequest && error.description.contains("$TEXT"))
            #expect((try? context.count(for: request)) == nil)
            _ = Tweet(context: context)  // with pending changes the context evaluates: still a throw
            #expect(throws: ManagedObjectError.self) { try context.fetch(request) }
            request.predicate = request.predicate?.withSubstitutionVariables(["TEXT": "tweet 0 of 0"])
            #expect(try context.fetch(request).count == 1)

            for (format, arguments, unknown) in [
                ("txt == 'a'", [], "txt"), ("%K == 'a'", ["tweeter.nick"], "tweeter.nick"),
                ("ANY tweeter.tweets.body CONTAINS 'a'", [], "tweeter.tweets.body"),
                ("SUBQUERY(tweeter.tweets, $t, $t.body == 1).@count > 0", [], "tweeter.tweets.body"),
            ] as [(String, [Any?], String)] {
                let request = Tweet.fetchRequest()
                request.predicate = try ObjectPredicate(parsing: format, arguments: arguments)
                let error = try #require(throws: ManagedObjectError.self, "\(format)") { try context.fetch(request) }
                #expect(error.code == .invalidFetchRequest && error.key == unknown, "\(format): \(error)")
                #expect(throws: ManagedObjectError.self) { try context.count(for: request) }
            }
            let badSort = Tweet.fetchRequest()
            badSort.sortDescriptors = [ObjectSortDescriptor(key: "tweeter.age")]
            #expect(throws: ManagedObjectError.self) { try context.fetch(badSort) }
            let fine = Tweet.fetchRequest()
            fine.predicate = ObjectPredicate("SELF.tweeter.tweets.@count > 1 AND text.length > 3 AND %K != nil", "tweeter.name")
            #expect(try context.fetch(fine).count == 12, "the inserted tweet has no tweeter")
        }
    }

    @Test("the store and the context give the same answers for random predicates and sorts", arguments: StoreKind.allCases)
    func storeAndContextAgree(kind: StoreKind) throws {
        let (storeSide, _) = try inspectedStack(users: 4, tweetsEach: 5, evaluatesPredicates: true, kind: kind)
        let (contextSide, _) = try inspectedStack(users: 4, tweetsEach: 5, evaluatesPredicates: false)
        var random = SeededRandom(seed: 9)
        let keyPaths = ["text", "created", "tweeter.name", "tweeter.screenName", "tweeter.tweets.@count", "tweeter"]
        let operators = ["==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "CONTAINS[c]", "ENDSWITH", "LIKE", "MATCHES"]
        let values: [Any] = ["tweet 1 of 2", "tweet", "u2", "user 3", "*of 1", ".*2", 5, 3.5, Date(timeIntervalSinceReferenceDate: 4)]
        var predicates = [
            "tweeter.tweets.@count > 4", "ANY tweeter.tweets.text CONTAINS '3'", "text IN {'tweet 0 of 0', 'tweet 4 of 3'}",
            "SUBQUERY(tweeter.tweets, $t, $t.created > CAST(5, 'NSDate')).@count >= 2", "NOT (text ENDSWITH '1')",
            "created BETWEEN {CAST(2, 'NSDate'), CAST(6, 'NSDate')}", "tweeter.name LIKE[c] 'USER ?'", "TRUEPREDICATE",
        ].map { ObjectPredicate($0) }
        for _ in 0..<300 {
            let value = random.pick(values)
            let operatorText = random.pick(operators)
            let keyPath = random.pick(keyPaths)
            // A value that is no regular expression cannot make a MATCHES predicate.
            guard let first = try? ObjectPredicate(parsing: "%K \(operatorText) %@", arguments: [keyPath, value]) else { continue }
            predicates.append(random.int(0..<3) == 0 ? first || ObjectPredicate("text CONTAINS %@", "2") : first)
        }
        let sorts = [[ObjectSortDescriptor(key: "created")], [ObjectSortDescriptor(key: "tweeter.name", ascending: false), ObjectSortDescriptor(key: "text")]]
        var compared = 0
        for predicate in predicates {
            for sort in sorts {
                let answers = try [storeSide, contextSide].map { coordinator in
                    let context = context(coordinator)
                    return try context.performAndWait {
                        let request = Tweet.fetchRequest()
                        request.predicate = predicate
                        request.sortDescriptors = sort
                        return try context.fetch(request).map { $0.text ?? "" }
                    }
                }
                #expect(answers[0] == answers[1], "\(predicate) sorted by \(sort)")
                compared += 1
            }
        }
        #expect(compared == 2 * predicates.count)
    }
}

/// A note whose `didSave()` inserts a second note and saves again, once.
final class NoteSavingAgain: ManagedObject {
    override class var entityName: String { "Note" }
    var savesAnotherNote = false
    var secondNote: NoteSavingAgain?

    override func didSave() {
        guard savesAnotherNote, let context = managedObjectContext else { return }
        savesAnotherNote = false
        let second = NoteSavingAgain(context: context)
        second.setValue("second", forKey: "text")
        secondNote = second
        #expect(throws: Never.self) { try context.save() }
    }
}
