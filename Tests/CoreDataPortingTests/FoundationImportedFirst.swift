// Foundation imported before CoreData, as real files do: every predicate and sort name is one
// type (this file compiling is the check; CoreDataImportedFirst.swift has the other order).
import Foundation
import CoreData
import Testing

/// The names in type annotations. `NSComparisonPredicate` and `NSExpression` are deprecated in
/// Foundation on Linux (no initializer of theirs is available), so the declaration naming them
/// is marked deprecated too: naming them must resolve, not warn here.
@available(*, deprecated, message: "names NSComparisonPredicate and NSExpression, deprecated in Foundation on Linux")
struct PredicateNamesWithFoundationFirst {
    var predicate: NSPredicate?
    var compound: NSCompoundPredicate?
    var comparison: NSComparisonPredicate?
    var expression: NSExpression?
    var sortDescriptors: [NSSortDescriptor]?
}

@Suite struct FoundationImportedFirstTests {
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

    @Test func fetchRequestsTakeEveryKindOfFoundationPredicate() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        for (unique, text, user) in [("1", "swift 1", "paul"), ("2", "swift 2", "paul"), ("3", "objc", "anna")] {
            _ = try Tweet.findOrCreateTweet(matching: unique, text: text, postedBy: user, in: context)
        }
        try context.save()
        func texts(_ predicate: NSPredicate?, _ sortDescriptors: [NSSortDescriptor]? = [NSSortDescriptor(key: "text", ascending: true)]) throws -> [String?] {
            let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
            request.predicate = predicate
            request.sortDescriptors = sortDescriptors
            return try context.fetch(request).map(\.text)
        }
        let byPaul = NSPredicate(format: "tweeter.screenName == %@", "paul")
        #expect(try texts(byPaul) == ["swift 1", "swift 2"])
        #expect(try texts(NSPredicate(format: "text IN %@", argumentArray: [["objc", "swift 2"]])) == ["objc", "swift 2"])
        #expect(try texts(NSCompoundPredicate(notPredicateWithSubpredicate: byPaul)) == ["objc"])
        #expect(try texts(NSPredicate(value: false)) == [])
        #expect(try texts(NSPredicate(value: true)).count == 3)
        #expect(try texts(NSPredicate { object, _ in (object as? Tweet)?.text?.hasSuffix("2") == true }) == ["swift 2"])
        #expect(try texts(nil, [NSSortDescriptor(key: "text", ascending: false)]) == ["swift 2", "swift 1", "objc"])
        #expect(try texts(nil, [NSSortDescriptor(keyPath: \Tweet.sortText, ascending: false)]) == ["swift 2", "swift 1", "objc"])

        // What a request is given, it gives back.
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [byPaul, NSPredicate(format: "text BEGINSWITH %@", "swift")])
        request.sortDescriptors = [NSSortDescriptor(key: "created", ascending: false)]
        #expect(try context.fetch(request).map(\.text) == ["swift 2", "swift 1"])
        let given = try #require(request.predicate)
        let copy: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        copy.predicate = given
        #expect(try context.count(for: copy) == 2)
        #expect(request.sortDescriptors?.map(\.key) == ["created"])
        #expect(request.sortDescriptors?.map(\.ascending) == [false])
    }

    @Test func substitutionVariablesFillAFormatPredicate() {
        let template = NSPredicate(format: "name == $NAME")
        let filled = template.withSubstitutionVariables(["NAME": "a"])
        #expect(filled.evaluate(with: ["name": "a"]))
        #expect(!filled.evaluate(with: ["name": "b"]))
    }
}

/// Key paths of this hand-written class name its properties, as generated classes' do, so
/// `NSSortDescriptor(keyPath:ascending:)` sorts by them. Foundation on Linux sorts by key paths
/// to `Comparable` values only: a non-optional wrapper, as generated classes have.
extension Tweet: FetchableManagedObject {
    public static var propertyNamesByKeyPath: [AnyKeyPath: String] { [\Tweet.sortText: "text"] }

    var sortText: String { text ?? "" }
}
