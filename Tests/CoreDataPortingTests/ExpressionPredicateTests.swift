import Foundation
import CoreData
import Testing

/// Predicates built from expressions, as QueryKit builds them: `NSComparisonPredicate` of
/// `NSExpression(forKeyPath:)` and `NSExpression(forConstantValue:)`, combined by Foundation's
/// `NSCompoundPredicate`, in a file importing Foundation before CoreData. Foundation on Linux
/// deprecates both classes, so these tests are too (as QueryKit's code warns when built).
@Suite struct ExpressionPredicateTests {
    @available(*, deprecated, message: "builds NSComparisonPredicate and NSExpression")
    static func compare(
        _ key: String, _ type: NSComparisonPredicate.Operator, _ value: Any?,
        modifier: NSComparisonPredicate.Modifier = .direct, options: NSComparisonPredicate.Options = []
    ) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: key), rightExpression: NSExpression(forConstantValue: value),
            modifier: modifier, type: type, options: options)
    }

    /// Three tweets by two users on an SQLite file: each predicate gives the same tweets from
    /// the store as when evaluated in memory.
    @available(*, deprecated, message: "builds NSComparisonPredicate and NSExpression")
    @Test func comparisonPredicatesRunInTheStoreAndInMemory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ExpressionPredicateTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = NSPersistentContainer(name: "Twitter")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.appendingPathComponent("Twitter.sqlite"))]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let context = container.viewContext
        for (identifier, text, user) in [("1", "Swift on Linux", "paul"), ("2", "Core Data", "paul"), ("3", "swift tips", "orta")] {
            let tweet = try Tweet.findOrCreateTweet(matching: identifier, text: text, postedBy: user, in: context)
            tweet.setValue(Int64(identifier)! * 10, forKey: "retweetCount")
        }
        try context.save()
        context.reset()

        func uniques(_ predicate: NSPredicate) throws -> [String] {
            let request = Tweet.fetchRequest()
            request.predicate = predicate
            request.sortDescriptors = [NSSortDescriptor(key: "unique", ascending: true)]
            let fetched = try context.fetch(request)
            let all = try context.fetch(Tweet.fetchRequest())
            let evaluated = all.filter { predicate.evaluate(with: $0) }.compactMap(\.unique).sorted()
            #expect(fetched.compactMap(\.unique) == evaluated, "\(predicate): the store and memory agree")
            return fetched.compactMap(\.unique)
        }

        #expect(try uniques(Self.compare("unique", .equalTo, "2" as NSString)) == ["2"])
        #expect(try uniques(Self.compare("unique", .notEqualTo, "2")) == ["1", "3"])
        #expect(try uniques(Self.compare("retweetCount", .greaterThan, 10 as NSNumber)) == ["2", "3"])
        #expect(try uniques(Self.compare("retweetCount", .lessThanOrEqualTo, 20)) == ["1", "2"])
        #expect(try uniques(Self.compare("unique", .in, ["1", "3", "9"])) == ["1", "3"])
        #expect(try uniques(Self.compare("retweetCount", .between, [15, 30] as NSArray)) == ["2", "3"])
        #expect(try uniques(Self.compare("text", .like, "swift*", options: .caseInsensitive)) == ["1", "3"])
        #expect(try uniques(Self.compare("text", .like, "swift*")) == ["3"])
        #expect(try uniques(Self.compare("text", .contains, "DATA", options: [.caseInsensitive, .diacriticInsensitive])) == ["2"])
        #expect(try uniques(Self.compare("tweeter.screenName", .equalTo, "paul")) == ["1", "2"])
        #expect(try uniques(Self.compare("text", .equalTo, nil)) == [])
        #expect(try uniques(Self.compare("text", .notEqualTo, NSNull())) == ["1", "2", "3"])

        // QueryKit's &&, || and ! are Foundation's compound predicates of these.
        let paul = Self.compare("tweeter.screenName", .equalTo, "paul")
        let popular = Self.compare("retweetCount", .greaterThanOrEqualTo, 20)
        #expect(try uniques(NSCompoundPredicate(type: .and, subpredicates: [paul, popular])) == ["2"])
        #expect(try uniques(NSCompoundPredicate(type: .or, subpredicates: [paul, popular])) == ["1", "2", "3"])
        #expect(try uniques(NSCompoundPredicate(type: .not, subpredicates: [paul])) == ["3"])

        // A to-many side with ANY: the users having a tweet containing "swift".
        let users = NSFetchRequest<TwitterUser>(entityName: "TwitterUser")
        users.predicate = Self.compare("tweets.text", .contains, "swift", modifier: .any, options: .caseInsensitive)
        #expect(try context.fetch(users).compactMap(\.screenName).sorted() == ["orta", "paul"])
    }

    /// The objects made are Foundation's classes, released as usual, and what is captured in
    /// them goes with them.
    @available(*, deprecated, message: "builds NSComparisonPredicate and NSExpression")
    @Test func madeObjectsAreFoundationsClasses() {
        let expression = NSExpression(forKeyPath: "text")
        #expect(type(of: expression) == NSExpression.self)
        let predicate = NSComparisonPredicate(
            leftExpression: expression, rightExpression: NSExpression(forVariable: "text"),
            modifier: .direct, type: .equalTo, options: [])
        #expect(type(of: predicate) == NSComparisonPredicate.self)
        #expect((predicate as NSPredicate).evaluate(with: ["text": "a"], substitutionVariables: ["text": "a"]))
        #expect(!predicate.evaluate(with: ["text": "a"], substitutionVariables: ["text": "b"]))

        weak var released: NSComparisonPredicate?
        do {
            let made = Self.compare("text", .equalTo, "x")
            released = made as? NSComparisonPredicate
            #expect(released != nil)
        }
        #expect(released == nil)
    }
}
