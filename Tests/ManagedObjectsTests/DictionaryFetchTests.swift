import Foundation
@testable import ManagedObjects
import Testing

@Suite("Dictionary results: propertiesToFetch, propertiesToGroupBy, aggregates")
struct DictionaryFetchTests {
    /// Two libraries with three books each (one book without pages), saved; the store
    /// evaluating predicates and sorts itself or leaving them to the context.
    func library(storeEvaluates: Bool, kind: StoreKind) throws -> (ManagedObjectContext, [ManagedObjectID]) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: LibraryModel.managedObjectModel)
        coordinator.addPersistentStore(try InspectedStore(evaluatesPredicates: storeEvaluates, kind: kind, model: LibraryModel.managedObjectModel))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        let libraryIDs = try context.performAndWait { () throws -> [ManagedObjectID] in
            var libraries: [ManagedObject] = []
            for (name, pages) in [("North", [100, 200, nil]), ("South", [50, 50, 400])] as [(String, [Int32?])] {
                let library = ManagedObject(entity: LibraryModel.managedObjectModel["Library"]!, insertInto: context)
                library.setValue(name, forKey: "name")
                for (number, count) in pages.enumerated() {
                    let book = ManagedObject(entity: LibraryModel.managedObjectModel["Book"]!, insertInto: context)
                    book.setValue("\(name) \(number)", forKey: "title")
                    book.setValue(count, forKey: "pages")
                    book.setValue(library, forKey: "library")
                }
                libraries.append(library)
            }
            try context.save()
            return libraries.map(\.objectID)
        }
        return (context, libraryIDs)
    }

    func fetch(_ context: ManagedObjectContext, _ configure: (FetchRequest<[String: Any]>) -> Void) throws -> [[String: Any]] {
        try context.performAndWait {
            let request = FetchRequest<[String: Any]>(entityName: "Book")
            request.resultType = .dictionary
            configure(request)
            return try context.fetch(request)
        }
    }

    @Test("properties per object: attributes, to-ones as IDs, nil left out", arguments: [true, false], StoreKind.allCases)
    func properties(storeEvaluates: Bool, kind: StoreKind) throws {
        let (context, libraries) = try library(storeEvaluates: storeEvaluates, kind: kind)
        let registered = context.performAndWait { context.registeredObjects.count }
        let rows = try fetch(context) {
            $0.propertiesToFetch = ["title", "pages", "library", "library.name"]
            $0.predicate = ObjectPredicate("title BEGINSWITH 'North'")
            $0.sortDescriptors = [ObjectSortDescriptor(key: "title", ascending: false)]
        }
        #expect(rows.map { $0["title"] as? String } == ["North 2", "North 1", "North 0"])
        #expect(rows.map { $0["pages"] as? Int32 } == [nil, 200, 100])
        #expect(rows[0].keys.sorted() == ["library", "library.name", "title"], "a nil value is left out")
        #expect(rows.allSatisfy { $0["library"] as? ManagedObjectID == libraries[0] && $0["library.name"] as? String == "North" })
        #expect(context.performAndWait { context.registeredObjects.count } == registered, "no object is made")

        let all = try fetch(context) { $0.fetchLimit = 2 }
        #expect(all.count == 2 && Set(all[0].keys) == ["title", "pages", "library"])
    }

    @Test("grouped aggregates, sorted and windowed by group", arguments: [true, false], StoreKind.allCases)
    func grouped(storeEvaluates: Bool, kind: StoreKind) throws {
        let (context, _) = try library(storeEvaluates: storeEvaluates, kind: kind)
        let rows = try fetch(context) {
            $0.propertiesToFetch = [
                "library.name",
                .expression(ExpressionDescription(name: "total", function: .sum, keyPath: "pages")),
                .expression(try! ExpressionDescription(name: "books", expressionFormat: "count:(title)")),
                .expression(try! ExpressionDescription(name: "mean", expressionFormat: "average:(pages)")),
                .expression(try! ExpressionDescription(name: "most", expressionFormat: "@max.pages")),
            ]
            $0.propertiesToGroupBy = ["library.name"]
            $0.sortDescriptors = [ObjectSortDescriptor(key: "total", ascending: false)]
        }
        #expect(rows.map { $0["library.name"] as? String } == ["South", "North"])
        #expect(rows.map { $0["total"] as? Int } == [500, 300])
        #expect(rows.map { $0["books"] as? Int } == [3, 3])
        #expect(rows.map { $0["mean"] as? Double } == [500.0 / 3, 150])
        #expect(rows.map { $0["most"] as? Int32 } == [400, 200])

        let second = try fetch(context) {
            $0.propertiesToFetch = ["library.name", .expression(ExpressionDescription(name: "n", function: .count, keyPath: "title"))]
            $0.propertiesToGroupBy = ["library.name"]
            $0.sortDescriptors = [ObjectSortDescriptor(key: "library.name")]
            $0.fetchOffset = 1
        }
        #expect(second.count == 1 && second[0]["library.name"] as? String == "South", "offset counts groups")

        let overall = try fetch(context) {
            $0.propertiesToFetch = [.expression(ExpressionDescription(name: "least", function: .min, keyPath: "pages"))]
            $0.predicate = ObjectPredicate("pages > 60")
        }
        #expect(overall.count == 1 && overall[0]["least"] as? Int32 == 100)
    }

    @Test("distinct rows; unsaved changes are not included", arguments: StoreKind.allCases)
    func distinctAndSaved(kind: StoreKind) throws {
        let (context, _) = try library(storeEvaluates: true, kind: kind)
        let pages = try fetch(context) {
            $0.propertiesToFetch = ["pages"]
            $0.returnsDistinctResults = true
            $0.sortDescriptors = [ObjectSortDescriptor(key: "pages")]
        }
        #expect(pages.map { $0["pages"] as? Int32 } == [nil, 50, 100, 200, 400])
        context.performAndWait {
            let book = ManagedObject(entity: LibraryModel.managedObjectModel["Book"]!, insertInto: context)
            book.setValue("Unsaved", forKey: "title")
        }
        #expect(try fetch(context) { $0.propertiesToFetch = ["title"] }.count == 6)
    }

    @Test("what SQL could not answer throws invalidFetchRequest", arguments: StoreKind.allCases)
    func invalid(kind: StoreKind) throws {
        let (context, _) = try library(storeEvaluates: true, kind: kind)
        let requests: [(String, (FetchRequest<[String: Any]>) -> Void)] = [
            ("ungrouped plain column", {
                $0.propertiesToFetch = ["title", .expression(ExpressionDescription(name: "n", function: .count, keyPath: "title"))]
                $0.propertiesToGroupBy = ["library.name"]
            }),
            ("aggregate beside a plain column", {
                $0.propertiesToFetch = ["title", .expression(ExpressionDescription(name: "n", function: .count, keyPath: "title"))]
            }),
            ("to-many column", { $0.propertiesToFetch = ["authors"] }),
            ("unknown key", { $0.propertiesToFetch = ["subtitle"] }),
            ("unknown aggregate key", {
                $0.propertiesToFetch = [.expression(ExpressionDescription(name: "n", function: .sum, keyPath: "words"))]
            }),
        ]
        for (label, configure) in requests {
            let error = try #require(throws: ManagedObjectError.self, "\(label)") { try fetch(context, configure) }
            #expect(error.code == .invalidFetchRequest, "\(label)")
        }
        #expect(throws: ObjectPredicateError.self) { try ExpressionDescription(name: "x", expressionFormat: "median:(pages)") }
        #expect(throws: ObjectPredicateError.self) { try ExpressionDescription(name: "x", expressionFormat: "pages") }
    }
}
