// CoreData imported before Foundation: every predicate and sort name is one
// type (this file compiling is the check; FoundationImportedFirst.swift has the other order).
import CoreData
import Foundation
import Testing

/// The names in type annotations. `NSComparisonPredicate` and `NSExpression` are deprecated in
/// Foundation on Linux (no initializer of theirs is available), so the declaration naming them
/// is marked deprecated too: naming them must resolve, not warn here.
@available(*, deprecated, message: "names NSComparisonPredicate and NSExpression, deprecated in Foundation on Linux")
struct PredicateNamesWithCoreDataFirst {
    var predicate: NSPredicate?
    var compound: NSCompoundPredicate?
    var comparison: NSComparisonPredicate?
    var expression: NSExpression?
    var sortDescriptors: [NSSortDescriptor]?
}

@Suite struct CoreDataImportedFirstTests {
    @Test func coreDataPredicatesAndSortDescriptorsAreFoundationClasses() {
        let predicate: NSPredicate = NSPredicate(format: "name == %@", "a")
        let compound: NSCompoundPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: [predicate])
        let sort: NSSortDescriptor = NSSortDescriptor(key: "name", ascending: false)
        #expect(type(of: predicate) == Foundation.NSPredicate.self)
        #expect(type(of: compound) == Foundation.NSCompoundPredicate.self)
        #expect(type(of: sort) == Foundation.NSSortDescriptor.self)
        #expect(predicate.evaluate(with: ["name": "a"]))
        #expect(!compound.evaluate(with: ["name": "b"]))
        #expect(sort.key == "name" && !sort.ascending)
    }

    @Test func keyPathSortDescriptorSortsAFetch() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        for (unique, text) in [("1", "b"), ("2", "c"), ("3", "a")] {
            _ = try Tweet.findOrCreateTweet(matching: unique, text: text, postedBy: "paul", in: context)
        }
        try context.save()
        let byText: NSSortDescriptor = NSSortDescriptor(keyPath: \Tweet.sortText, ascending: true)
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.sortDescriptors = [byText]
        #expect(try context.fetch(request).map(\.text) == ["a", "b", "c"])
    }
}
