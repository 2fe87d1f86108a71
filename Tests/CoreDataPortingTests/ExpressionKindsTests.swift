import Foundation
import CoreData
import Testing

/// `NSExpression`'s other kinds (functions, aggregates, the evaluated object, expressions written
/// as formats) in comparison predicates, and the properties of expressions and comparisons,
/// which Foundation on Linux declares unavailable and CoreData gives.
@Suite struct ExpressionKindsTests {
    /// Three tweets by two users in an SQLite store.
    private func tweets(in directory: URL) throws -> NSManagedObjectContext {
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
        return context
    }

    /// The tweets `predicate` fetches, checked against evaluating it in memory.
    private func uniques(_ predicate: NSPredicate, in context: NSManagedObjectContext) throws -> [String] {
        let request = Tweet.fetchRequest()
        request.predicate = predicate
        let fetched = try context.fetch(request).compactMap(\.unique).sorted()
        let evaluated = try context.fetch(Tweet.fetchRequest()).filter { predicate.evaluate(with: $0) }.compactMap(\.unique).sorted()
        #expect(fetched == evaluated, "\(predicate): the store and memory agree")
        return fetched
    }

    @available(*, deprecated, message: "builds NSComparisonPredicate and NSExpression")
    @Test func functionsAggregatesAndFormatsRunInComparisons() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ExpressionKindsTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try tweets(in: directory)
        func compare(_ left: NSExpression, _ type: NSComparisonPredicate.Operator, _ right: NSExpression) -> NSPredicate {
            NSComparisonPredicate(leftExpression: left, rightExpression: right, modifier: .direct, type: type, options: [])
        }

        let uppercased = NSExpression(forFunction: "uppercase:", arguments: [NSExpression(forKeyPath: "text")])
        #expect(try uniques(compare(uppercased, .equalTo, NSExpression(forConstantValue: "CORE DATA")), in: context) == ["2"])
        let doubled = NSExpression(forFunction: "multiply:by:", arguments: [NSExpression(forKeyPath: "retweetCount"), NSExpression(forConstantValue: 2)])
        #expect(try uniques(compare(doubled, .greaterThan, NSExpression(forConstantValue: 30)), in: context) == ["2", "3"])
        let some = NSExpression(forAggregate: [NSExpression(forConstantValue: "1"), NSExpression(forConstantValue: "3")])
        #expect(try uniques(compare(NSExpression(forKeyPath: "unique"), .in, some), in: context) == ["1", "3"])
        let written = NSExpression(format: "%K + 5", "retweetCount")
        #expect(try uniques(compare(written, .equalTo, NSExpression(forConstantValue: 25)), in: context) == ["2"])
        let tweetCount = NSExpression(format: "tweeter.tweets.@count")
        #expect(try uniques(compare(tweetCount, .equalTo, NSExpression(forConstantValue: 2)), in: context) == ["1", "2"])
        let users = NSFetchRequest<TwitterUser>(entityName: "TwitterUser")
        users.predicate = compare(NSExpression.expressionForEvaluatedObject(), .notEqualTo, NSExpression(forConstantValue: nil))
        #expect(try context.fetch(users).count == 2)
    }

    @available(*, deprecated, message: "builds NSComparisonPredicate and NSExpression")
    @Test func expressionsAndComparisonsGiveBackWhatTheyWereMadeOf() throws {
        let key = NSExpression(forKeyPath: "text")
        #expect(key.expressionType == .keyPath && key.keyPath == "text")
        let constant = NSExpression(forConstantValue: 42)
        #expect(constant.expressionType == .constantValue && constant.constantValue as? Int == 42)
        let variable = NSExpression(forVariable: "limit")
        #expect(variable.expressionType == .variable && variable.variable == "limit")
        #expect(NSExpression.expressionForEvaluatedObject().expressionType == .evaluatedObject)
        let sum = NSExpression(forFunction: "sum:", arguments: [key])
        #expect(sum.expressionType == .function && sum.function == "sum:" && sum.arguments?.first === key)
        let aggregate = NSExpression(forAggregate: [constant, variable])
        #expect(aggregate.expressionType == .aggregate && (aggregate.collection as? [NSExpression])?.count == 2)
        #expect(NSExpression(format: "tweets.@count").expressionType == .keyPath)
        #expect(NSExpression(format: "a + %@", 1).expressionType == .function)
        #expect(NSExpression(format: "{1, 2}").expressionType == .aggregate)
        // Another kind's key path is empty, its constant nil.
        #expect(sum.keyPath == "" && key.constantValue == nil && key.arguments == nil)

        let comparison = NSComparisonPredicate(
            leftExpression: key, rightExpression: constant, modifier: .any, type: .beginsWith, options: [.caseInsensitive])
        #expect(comparison.leftExpression === key && comparison.rightExpression === constant)
        #expect(comparison.predicateOperatorType == .beginsWith && comparison.comparisonPredicateModifier == .any)
        #expect(comparison.options == [.caseInsensitive])
    }
}
