// The Core Data code of the CS193p lecture (seed 000, the slides, and seed 003, the notes), in
// the order the lecture shows it, with Xcode's generated `Tweet` and `TwitterUser` (here: the
// build plugin's). Where a slide's code does not compile with Apple's Core Data either (Swift 3
// era slips: `if let` on a non-optional, `NSDate` into a `Date?`, an optional not unwrapped),
// the line is as it compiles there, and a comment quotes the slide.
import CoreData
import Foundation

@MainActor
enum Lecture {
    static func containerAndContext() -> (NSPersistentContainer, NSManagedObjectContext) {
        let container = AppDelegate.shared.persistentContainer
        let context: NSManagedObjectContext = container.viewContext
        let coreDataContainer = AppDelegate.persistentContainer
        precondition(coreDataContainer === container)
        return (container, context)
    }

    static func insertWithEntityDescription() -> NSManagedObject {
        let context = AppDelegate.viewContext
        let tweet: NSManagedObject = NSEntityDescription.insertNewObject(forEntityName: "Tweet", into: context)
        return tweet
    }

    static func tweeterName(of tweet: NSManagedObject) -> String? {
        let username = tweet.value(forKeyPath: "tweeter.name") as? String
        return username
    }

    static func save() -> Bool {
        let context = AppDelegate.viewContext
        do {
            try context.save()
        } catch {   // note, by default catch catches any error into a local variable called error
            // deal with error
            return false
        }
        return true
    }

    /// "let's create an instance of the Tweet Entity in the database …"
    static func createTweet(text: String, by name: String) -> Tweet {
        let context = AppDelegate.viewContext
        // Slide: `if let tweet = Tweet(context: context) {`
        let tweet = Tweet(context: context)
        tweet.text = text
        // Slide: `Date() as NSDate` (Xcode 8 typed dates `NSDate?`); the notes write `Date()`.
        tweet.created = Date()
        // Slide: `TwitterUser(context: tweet.managedObjectContext)`.
        let joe = TwitterUser(context: tweet.managedObjectContext!)
        tweet.tweeter = joe // is the same as joe.addToTweets(tweet)
        // Slide: `tweet.tweeter.name = …`.
        tweet.tweeter?.name = name
        if let joesTweets = joe.tweets as? Set<Tweet> { // joe.tweets is an NSSet, thus as
            if joesTweets.contains(tweet) { print("yes!") } // yes!
        }
        return tweet
    }

    static func addToTweets(_ tweet: Tweet, of joe: TwitterUser) {
        joe.addToTweets(tweet)
    }

    static func delete(_ tweet: Tweet) {
        let managedObjectContext = AppDelegate.viewContext
        // Slide: `managedObjectContext.delete(_ object: tweet)`.
        managedObjectContext.delete(tweet)
    }

    static func tweetsMatching(_ searchString: String, by joe: TwitterUser, after aDate: Date) throws -> [Tweet] {
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        // Slide: `NSSortDescriptor(key: "screenName", ascending: true, selector:
        // #selector(NSString.localizedStandardCompare(_:)))`: there are no selectors on Linux.
        let sortDescriptor = NSSortDescriptor(key: "created", ascending: true)
        request.sortDescriptors = [sortDescriptor]
        let predicate1 = NSPredicate(format: "text contains[c] %@", searchString)
        let predicate2 = NSPredicate(format: "tweeter = %@ && created > %@", joe, aDate as NSDate)
        let predicates = [predicate1, predicate2]
        let andPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: predicates)
        request.predicate = andPredicate
        return try AppDelegate.viewContext.fetch(request)
    }

    static func tweets(byScreenName screenName: String) throws -> [Tweet] {
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.predicate = NSPredicate(format: "tweeter.screenName = %@", screenName)
        return try AppDelegate.viewContext.fetch(request)
    }

    static func users(withTweetsContaining searchString: String) throws -> [TwitterUser] {
        let request: NSFetchRequest<TwitterUser> = TwitterUser.fetchRequest()
        request.predicate = NSPredicate(format: "tweets.text contains %@", searchString)
        return try AppDelegate.viewContext.fetch(request)
    }

    static func prolificUsers() throws -> [TwitterUser] {
        let request: NSFetchRequest<TwitterUser> = TwitterUser.fetchRequest()
        request.predicate = NSPredicate(format: "tweets.@count > 5")
        return try AppDelegate.viewContext.fetch(request)
    }

    /// "Putting it all together": TwitterUsers who tweeted in the last 24 hours, by name.
    static func recentTweeters() -> [TwitterUser]? {
        let request: NSFetchRequest<TwitterUser> = TwitterUser.fetchRequest()
        let yesterday = Date(timeIntervalSinceNow: -24*60*60) as NSDate
        request.predicate = NSPredicate(format: "any tweets.created > %@", yesterday)
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let context = AppDelegate.viewContext
        let recentTweeters = try? context.fetch(request)
        for user in recentTweeters ?? [] {
            print("fetched user \(user)")
        }
        for user in recentTweeters ?? [] {
            // Slide: `\(user.name)`, which Swift warns about for an optional.
            print("fetched user named \(user.name ?? "")")
        }
        return recentTweeters
    }

    static func backgroundInsert(text: String, done: @escaping @Sendable () -> Void) {
        AppDelegate.persistentContainer.performBackgroundTask { context in
            // do some CoreData stuff using the passed-in context
            let tweet = Tweet(context: context)
            tweet.text = text
            tweet.created = Date()
            try? context.save() // don't forget this (and catch errors if needed)
            done()
        }
    }

    static func onContextQueue(_ work: @escaping @Sendable () -> Void) {
        let context = AppDelegate.viewContext
        // Notes: `context.performBlock {`, Objective-C's name; Swift's is `perform`.
        context.perform {
            work()
        }
    }
}
