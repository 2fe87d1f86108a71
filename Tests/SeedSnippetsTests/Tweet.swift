// The lecture's own subclass (seed 000: "Since we've chosen to create only the extension here,
// we now need to write the code for the Tweet and TwitterUser subclasses ourself"), with the
// model's Codegen set to Category/Extension, and its `prepareForDeletion()`.
import CoreData
import Synchronization

class Tweet: NSManagedObject {
    /// How many tweets have been prepared for deletion, so a test can see the call.
    static let preparedForDeletion = Mutex(0)

    override func prepareForDeletion()
    {
        // if this method were in the Tweet class
        // we wouldn't have to remove ourselves from tweeter.tweets (that happens automatically)
        // but if TwitterUser had, for example, a "number of retweets" attribute,
        // and if this Tweet were a retweet
        // then we might adjust it down by one here (e.g. tweeter.retweetCount -= 1)
        Tweet.preparedForDeletion.withLock { $0 += 1 }
    }
}
