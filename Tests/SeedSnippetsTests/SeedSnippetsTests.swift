import CoreData
import Foundation
import Testing

/// The seeds' Core Data code (this target's other files), compiled through `import CoreData`
/// with the build plugin's classes in place of Xcode's, and run as the seeds describe it.
@MainActor @Suite(.serialized) struct SeedSnippetsTests {
    // MARK: DogWalk (seed 002)

    @Test func dogWalkFindsOrCreatesFidoAndKeepsItsWalksInOrder() throws {
        let first = ViewController()
        first.viewDidLoad()
        let fido = try #require(first.currentDog)
        #expect(fido.name == "Fido")
        first.add()
        first.add()
        let dates = try #require(fido.walks?.array as? [Walk]).compactMap(\.date)
        #expect(dates.count == 2 && dates == dates.sorted())

        // A second stack on the same store finds Fido rather than creating another.
        let second = ViewController()
        second.viewDidLoad()
        let found = try #require(second.currentDog)
        #expect(found.name == "Fido")
        #expect(try second.coreDataStack.managedContext.count(for: Dog.fetchRequest()) == 1)
        #expect((found.walks?.array as? [Walk])?.compactMap(\.date) == dates)
        // The store went where this module's container subclass says, as Core Data's
        // `defaultDirectoryURL()` override moves it.
        #expect(FileManager.default.fileExists(atPath: NSPersistentContainer.sandbox.appendingPathComponent("DogWalk.sqlite").path))
    }

    // MARK: CS193p (seeds 000 and 003)

    @Test func insertsByEntityDescriptionAndReadsByKeyPath() throws {
        let tweet = Lecture.insertWithEntityDescription()
        #expect(tweet is Tweet)
        let joe = TwitterUser(context: AppDelegate.viewContext)
        joe.name = "Joe by key path"
        tweet.setValue(joe, forKey: "tweeter")
        #expect(Lecture.tweeterName(of: tweet) == "Joe by key path")
        #expect(Lecture.save())
        let (container, context) = Lecture.containerAndContext()
        #expect(context === container.viewContext)
    }

    @Test func createsATweetAndItsTweeterBothWays() throws {
        let tweet = Lecture.createTweet(text: "140 characters of pure joy", by: "Joe Schmo")
        let joe = try #require(tweet.tweeter)
        #expect(joe.name == "Joe Schmo")
        #expect((joe.tweets as? Set<Tweet>)?.contains(tweet) == true)
        let another = Tweet(context: AppDelegate.viewContext)
        Lecture.addToTweets(another, of: joe)
        #expect(another.tweeter === joe)
        #expect(joe.tweets?.count == 2)
        #expect(Lecture.save())
    }

    @Test func queriesWithThePredicatesOfTheLecture() throws {
        let name = "Predicates \(UUID().uuidString)"
        let tweet = Lecture.createTweet(text: "Learning Core Data FOO today", by: name)
        let joe = try #require(tweet.tweeter)
        joe.screenName = name
        for index in 0..<5 { Lecture.addToTweets(Lecture.createTweet(text: "filler \(index)", by: "x"), of: joe) }
        #expect(Lecture.save())

        #expect(try Lecture.tweetsMatching("foo", by: joe, after: Date(timeIntervalSinceNow: -60)) == [tweet])
        #expect(try Lecture.tweetsMatching("foo", by: joe, after: Date(timeIntervalSinceNow: 60)).isEmpty)
        #expect(try Lecture.tweets(byScreenName: name).count == 6)
        #expect(try Lecture.users(withTweetsContaining: "FOO today") == [joe])
        #expect(try Lecture.prolificUsers().contains(joe))
        let recent = try #require(Lecture.recentTweeters())
        #expect(recent.contains(joe))
        let names = recent.compactMap(\.name)
        #expect(names == names.sorted())
    }

    @Test func deletesATweetAndItLeavesItsTweeter() throws {
        let tweet = Lecture.createTweet(text: "to be deleted", by: "Deleter")
        let joe = try #require(tweet.tweeter)
        #expect(Lecture.save())
        let prepared = Tweet.preparedForDeletion.withLock { $0 }
        Lecture.delete(tweet)
        #expect(Lecture.save())
        #expect(Tweet.preparedForDeletion.withLock { $0 } == prepared + 1)
        #expect(joe.tweets?.count == 0)
        #expect(try Lecture.users(withTweetsContaining: "to be deleted").isEmpty)
    }

    @Test func savesInTheBackgroundAndOnTheContextsQueue() async throws {
        let text = "from the background \(UUID().uuidString)"
        await withCheckedContinuation { continuation in
            Lecture.backgroundInsert(text: text) { continuation.resume() }
        }
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.predicate = NSPredicate(format: "text = %@", text)
        #expect(try AppDelegate.viewContext.count(for: request) == 1)
        await withCheckedContinuation { continuation in
            Lecture.onContextQueue { continuation.resume() }
        }
    }

    @Test func fetchedResultsControllerAnswersTheTablesQuestions() throws {
        let name = "Table \(UUID().uuidString)"
        let first = Lecture.createTweet(text: "first", by: name)
        let joe = try #require(first.tweeter)
        let second = Tweet(context: AppDelegate.viewContext)
        second.text = "second"
        second.created = Date(timeInterval: 1, since: first.created!)
        joe.addToTweets(second)
        #expect(Lecture.save())

        let table = TweetsTable()
        table.show(tweetsBy: name, in: AppDelegate.viewContext)
        #expect(table.numberOfSections() == 1)
        #expect(table.numberOfRows(inSection: 0) == 2)
        #expect(table.text(at: IndexPath(item: 1, section: 0)) == "second")

        let third = Tweet(context: AppDelegate.viewContext)
        third.text = "third"
        third.created = Date(timeInterval: 2, since: first.created!)
        joe.addToTweets(third)
        #expect(Lecture.save())
        #expect(table.numberOfRows(inSection: 0) == 3)
        #expect(table.changeCount >= 1)
    }
}
