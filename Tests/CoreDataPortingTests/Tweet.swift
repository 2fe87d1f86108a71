// A model class written by hand for Core Data (codegen "Manual/None"), without `@NSManaged`
// (which Linux lacks): properties through key-value coding. The find-or-create follows
// Stanford CS193p's Smashtag (seed 000).
import CoreData

public class Tweet: NSManagedObject {
    class func findOrCreateTweet(matching identifier: String, text: String, postedBy screenName: String,
                                 in context: NSManagedObjectContext) throws -> Tweet {
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.predicate = NSPredicate(format: "unique = %@", identifier)
        do {
            let matches = try context.fetch(request)
            if matches.count > 0 {
                assert(matches.count == 1, "Tweet.findOrCreateTweet -- database inconsistency!")
                return matches[0]
            }
        } catch {
            throw error
        }
        let tweet = Tweet(context: context)
        tweet.unique = identifier
        tweet.text = text
        tweet.created = Date()
        tweet.tweeter = try? TwitterUser.findOrCreateTwitterUser(matching: screenName, in: context)
        return tweet
    }
}

extension Tweet {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Tweet> {
        return NSFetchRequest<Tweet>(entityName: "Tweet")
    }

    public var created: Date? {
        get { value(forKey: "created") as? Date }
        set { setValue(newValue, forKey: "created") }
    }
    public var text: String? {
        get { value(forKey: "text") as? String }
        set { setValue(newValue, forKey: "text") }
    }
    public var unique: String? {
        get { value(forKey: "unique") as? String }
        set { setValue(newValue, forKey: "unique") }
    }
    public var retweetCount: Int {
        get { value(forKey: "retweetCount") as? Int ?? 0 }
        set { setValue(newValue, forKey: "retweetCount") }
    }
    public var tweeter: TwitterUser? {
        get { value(forKey: "tweeter") as? TwitterUser }
        set { setValue(newValue, forKey: "tweeter") }
    }
}
