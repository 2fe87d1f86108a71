// A second hand-written class; its entity's representedClassName is ".TwitterUser" (Xcode's
// "Current Product Module").
import CoreData

public class TwitterUser: NSManagedObject {
    /// Its own `id`, as SwiftUI code often declares one: the screen name.
    public var id: String { screenName ?? "" }

    class func findOrCreateTwitterUser(matching screenName: String, in context: NSManagedObjectContext) throws -> TwitterUser {
        let request: NSFetchRequest<TwitterUser> = TwitterUser.fetchRequest()
        request.predicate = NSPredicate(format: "screenName = %@", screenName)
        let matches = try context.fetch(request)
        if let user = matches.first {
            return user
        }
        let twitterUser = NSEntityDescription.insertNewObject(forEntityName: "TwitterUser", into: context) as! TwitterUser
        twitterUser.screenName = screenName
        twitterUser.name = screenName.capitalized
        return twitterUser
    }
}

extension TwitterUser {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<TwitterUser> {
        return NSFetchRequest<TwitterUser>(entityName: "TwitterUser")
    }

    public var name: String? {
        get { value(forKey: "name") as? String }
        set { setValue(newValue, forKey: "name") }
    }
    public var screenName: String? {
        get { value(forKey: "screenName") as? String }
        set { setValue(newValue, forKey: "screenName") }
    }
    public var tweets: Set<NSManagedObject>? {
        get { value(forKey: "tweets") as? Set<NSManagedObject> }
        set { setValue(newValue, forKey: "tweets") }
    }
}
