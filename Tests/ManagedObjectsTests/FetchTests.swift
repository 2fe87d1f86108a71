import Foundation
import Testing
@testable import ManagedObjects

@Suite("Fetch requests and sorting")
struct FetchTests {
    private func insertUsers(_ names: [String?], in context: ManagedObjectContext) -> [TwitterUser] {
        names.map { name in
            let user = TwitterUser(context: context)
            user.screenName = name
            return user
        }
    }

    private func screenNames(_ request: FetchRequest<TwitterUser>, _ context: ManagedObjectContext) throws -> [String?] {
        try context.fetch(request).map(\.screenName)
    }

    @Test("sort ascending and descending, nil first ascending, ties keep store order", arguments: StoreKind.allCases)
    func sortBasics(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            _ = insertUsers(["bob", nil, "Carol", "alice"], in: context)
            try context.save()
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName", ascending: true)]
            #expect(try screenNames(request, context) == [nil, "Carol", "alice", "bob"])
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName", ascending: false)]
            #expect(try screenNames(request, context) == ["bob", "alice", "Carol", nil])
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName", comparison: .caseInsensitive)]
            #expect(try screenNames(request, context) == [nil, "alice", "bob", "Carol"])
        }
    }

    @Test("localized standard compare: case-insensitive, digits as numbers", arguments: StoreKind.allCases)
    func localizedStandard(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            _ = insertUsers(["file10", "File2", "file1", "file02b"], in: context)
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName", comparison: .localizedStandard)]
            #expect(try screenNames(request, context) == ["file1", "File2", "file02b", "file10"])
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName")]
            #expect(try screenNames(request, context) == ["File2", "file02b", "file1", "file10"])
        }
    }

    @Test("numbers compare by value across types; dates compare; several descriptors apply in turn", arguments: StoreKind.allCases)
    func valuesAcrossTypes(kind: StoreKind) throws {
        func order(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
            SortKey.compare(SortKey(lhs), SortKey(rhs), .compare)
        }
        #expect(order(Int16(2), Double(1.5)) == .orderedDescending)
        #expect(order(Int64(3), 3) == .orderedSame)
        #expect(order(Decimal(1), Float(1.25)) == .orderedAscending)
        #expect(order(true, Int32(0)) == .orderedDescending)
        #expect(order(nil, Int16.min) == .orderedAscending)
        #expect(order(Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)) == .orderedAscending)

        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            joe.name = "Joe"
            let ann = TwitterUser(context: context)
            ann.name = "Ann"
            for (text, day, user) in [("c", 2.0, joe), ("a", 1.0, ann), ("b", 1.0, joe), ("d", 3.0, ann)] {
                let tweet = Tweet(context: context)
                tweet.text = text
                tweet.created = Date(timeIntervalSinceReferenceDate: day * 86_400)
                tweet.tweeter = user
            }
            let request = Tweet.fetchRequest()
            request.sortDescriptors = [
                ObjectSortDescriptor(key: "created", ascending: false),
                ObjectSortDescriptor(key: "text"),
            ]
            #expect(try context.fetch(request).map(\.text) == ["d", "c", "a", "b"])
            // Sorting through a to-one key path.
            request.sortDescriptors = [
                ObjectSortDescriptor(key: "tweeter.name"), ObjectSortDescriptor(key: "text", ascending: false),
            ]
            #expect(try context.fetch(request).map(\.text) == ["d", "a", "c", "b"])
        }
    }

    @Test("fetchLimit and fetchOffset window the sorted results; count honours them", arguments: StoreKind.allCases)
    func limitAndOffset(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            _ = insertUsers(["e", "a", "d", "b", "c"], in: context)
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName")]
            request.fetchLimit = 2
            #expect(try screenNames(request, context) == ["a", "b"])
            request.fetchOffset = 2
            #expect(try screenNames(request, context) == ["c", "d"])
            request.fetchOffset = 4
            #expect(try screenNames(request, context) == ["e"])
            #expect(try context.count(for: request) == 1)
            request.fetchLimit = 0
            request.fetchOffset = 0
            #expect(try context.count(for: request) == 5)
        }
    }

    @Test("predicates filter: the closure form, through relationships", arguments: StoreKind.allCases)
    func predicates(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            joe.screenName = "CS193p"
            for text in ["hello", "Hello world", "bye"] {
                let tweet = Tweet(context: context)
                tweet.text = text
                tweet.tweeter = text == "bye" ? nil : joe
            }
            let request = Tweet.fetchRequest()
            request.predicate = ObjectPredicate { object, _ in
                ((object as? Tweet)?.value(forKeyPath: "tweeter.screenName") as? String) == "CS193p"
            }
            request.sortDescriptors = [ObjectSortDescriptor(key: "text")]
            #expect(try context.fetch(request).map(\.text) == ["Hello world", "hello"])
            let users = TwitterUser.fetchRequest()
            users.predicate = ObjectPredicate { object, _ in
                ((object as? ManagedObject)?.value(forKeyPath: "tweets.@count") as? Int ?? 0) > 1
            }
            #expect(try context.fetch(users) == [joe])
        }
    }

    @Test("sub-entities are fetched with their parent unless includesSubentities is false", arguments: StoreKind.allCases)
    func subentities(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            let book = Book(context: context)
            book.title = "Dune"
            let album = Album(context: context)
            album.title = "Abbey Road"
            try context.save()
            let media = Media.fetchRequest()
            media.sortDescriptors = [ObjectSortDescriptor(key: "title")]
            let all = try context.fetch(media)
            #expect(all.map(\.title) == ["Abbey Road", "Dune"])
            #expect(all.first is Album && all.last is Book)
            media.includesSubentities = false
            #expect(try context.fetch(media).isEmpty)
            #expect(try context.fetch(FetchRequest<Book>(entityName: "Book")) == [book])
        }
    }

    @Test("includesPendingChanges: unsaved inserts returned and deletes left out, unless false", arguments: StoreKind.allCases)
    func pendingChanges(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let saved = insertUsers(["saved", "doomed"], in: context)
            try context.save()
            let unsaved = insertUsers(["unsaved"], in: context)
            context.delete(saved[1])
            let request = TwitterUser.fetchRequest()
            request.sortDescriptors = [ObjectSortDescriptor(key: "screenName")]
            #expect(try context.fetch(request) == [saved[0], unsaved[0]])
            request.includesPendingChanges = false
            #expect(try context.fetch(request) == [saved[1], saved[0]])
        }
    }

    @Test("result types: object IDs and count", arguments: StoreKind.allCases)
    func resultTypes(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let users = insertUsers(["a", "b"], in: context)
            try context.save()
            let ids = FetchRequest<ManagedObjectID>(entityName: "TwitterUser")
            ids.resultType = .managedObjectID
            #expect(Set(try context.fetch(ids)) == Set(users.map(\.objectID)))
            let count = FetchRequest<Int>(entityName: "TwitterUser")
            count.resultType = .count
            #expect(try context.fetch(count) == [2])
            let mismatched = FetchRequest<ManagedObjectID>(entityName: "TwitterUser")
            let error = try #require(throws: ManagedObjectError.self) { try context.fetch(mismatched) }
            #expect(error.code == .invalidFetchRequest)
            let unknown = FetchRequest<ManagedObject>(entityName: "Nope")
            #expect(throws: ManagedObjectError.self) { try context.fetch(unknown) }
        }
    }

    @Test("generated fetch helpers: fetch, count, first and find-or-insert", arguments: StoreKind.allCases)
    func generatedHelpers(kind: StoreKind) throws {
        try withContext(EnrouteModel.managedObjectModel, kind: kind) { (context) throws in
            for icao in ["KSFO", "KJFK", "EGLL"] { _ = try Airport.withICAO(icao, in: context) }
            try context.save()
            let byICAO = [ObjectSortDescriptor(key: Airport.Keys.icao_)]
            #expect(try Airport.fetch(sortedBy: byICAO, in: context).map(\.icao) == ["EGLL", "KJFK", "KSFO"])
            #expect(try Airport.first(sortedBy: byICAO.map(\.reversed), in: context)?.icao == "KSFO")
            let american = ObjectPredicate { object, _ in ((object as? Airport)?.icao ?? "").hasPrefix("K") }
            #expect(try Airport.count(american, in: context) == 2)
            let existing = try Airport.withICAO("KJFK", in: context)
            #expect(!existing.isInserted)
            #expect(try Airport.count(in: context) == 3)
        }
    }

    @Test("the seeds' predicates select what Core Data would", arguments: StoreKind.allCases)
    func seedPredicates(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let day: TimeInterval = 86_400
            let yesterday = Date(timeIntervalSinceReferenceDate: 10 * day)
            let joe = TwitterUser(context: context)
            joe.screenName = "CS193p"
            let ann = TwitterUser(context: context)
            ann.screenName = "ann"
            for (index, user) in [(1, joe), (11, joe), (12, ann), (2, ann), (13, joe)] {
                let tweet = Tweet(context: context)
                tweet.text = index.isMultiple(of: 2) ? "Hello Core Data \(index)" : "tweet \(index)"
                tweet.created = Date(timeIntervalSinceReferenceDate: Double(index) * day)
                tweet.tweeter = user
            }
            try context.save()

            func texts(_ predicate: ObjectPredicate) throws -> [String] {
                let request = Tweet.fetchRequest()
                request.predicate = predicate
                request.sortDescriptors = [ObjectSortDescriptor(key: "created")]
                return try context.fetch(request).compactMap(\.text)
            }
            #expect(try texts(ObjectPredicate("tweeter = %@ && created > %@", joe, yesterday)) == ["tweet 11", "tweet 13"])
            #expect(try texts(ObjectPredicate("tweeter = %@", joe.objectID)).count == 3, "an object ID matches its object")
            #expect(try texts(ObjectPredicate("tweeter.screenName = %@", "CS193p")).count == 3)
            #expect(try texts(ObjectPredicate("text contains[c] %@", "core data")) == ["Hello Core Data 2", "Hello Core Data 12"])

            let users = TwitterUser.fetchRequest()
            users.predicate = ObjectPredicate("any tweets.created > %@", Date(timeIntervalSinceReferenceDate: 12.5 * day))
            #expect(try context.fetch(users) == [joe])
            users.predicate = ObjectPredicate("tweets.@count > 2")
            #expect(try context.fetch(users) == [joe])
            users.predicate = ObjectPredicate("tweets.@count > 5")
            #expect(try context.fetch(users).isEmpty)
        }
    }
}
