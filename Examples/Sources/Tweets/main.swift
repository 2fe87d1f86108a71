// CS193p's Core Data lecture, run end to end: Tweet and TwitterUser, relationships set from
// either side, the lecture's queries and sorting, and deletion with its rules.
import Foundation
import ManagedObjects

let container = PersistentContainer(name: "Tweets", managedObjectModel: TweetsModel.managedObjectModel)
// In memory: the example inserts the same objects on every run.
container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
try container.loadPersistentStores()
let context = container.viewContext
let now = Date(timeIntervalSinceReferenceDate: 780_000_000)

// Insert, and set the relationship from the tweet's side: joe.tweets follows.
let tweet = Tweet(context: context)
tweet.text = "140 characters of pure joy"
tweet.created = now
let joe = TwitterUser(context: context)
joe.name = "Joe"
joe.screenName = "joe"
tweet.tweeter = joe
print("tweet.tweeter = joe puts it in joe.tweets: \(joe.tweets.contains(tweet))")

// …and from the user's side with the generated accessor: tweet.tweeter follows.
let cs193p = TwitterUser(context: context)
cs193p.name = "Stanford CS193p"
cs193p.screenName = "CS193p"
for (index, text) in ["Lecture 10: Core Data", "Homework is posted", "Swift is fun"].enumerated() {
    let lectureTweet = Tweet(context: context)
    lectureTweet.text = text
    lectureTweet.created = now.addingTimeInterval(Double(index - 2) * 24 * 3600)
    cs193p.addToTweets(lectureTweet)
}
print("addToTweets sets tweeter: \(cs193p.tweets.allSatisfy { $0.tweeter === cs193p })")

// Key-value coding, as on the slides.
print("value(forKeyPath: \"tweeter.screenName\") = \(tweet.value(forKeyPath: "tweeter.screenName") ?? "nil")")
try context.save()

// Queries from the slides.
func texts(_ predicate: ObjectPredicate) throws -> [String] {
    try Tweet.fetch(predicate, sortedBy: [ObjectSortDescriptor(key: Tweet.Keys.created)], in: context)
        .compactMap(\.text)
}
let yesterday = now.addingTimeInterval(-24 * 3600)
print("text contains[c] \"swift\": \(try texts(ObjectPredicate("text contains[c] %@", "swift")))")
print("tweeter = joe && created > yesterday: \(try texts(ObjectPredicate("tweeter = %@ && created > %@", joe, yesterday)))")
print("tweeter.screenName = \"CS193p\": \(try texts(ObjectPredicate("tweeter.screenName = %@", "CS193p")))")

let sortByScreenName = ObjectSortDescriptor(key: "screenName", ascending: true, comparison: .localizedStandard)
func screenNames(_ predicate: ObjectPredicate?) throws -> [String] {
    try TwitterUser.fetch(predicate, sortedBy: [sortByScreenName], in: context).compactMap(\.screenName)
}
print("users, sorted: \(try screenNames(nil))")
print("users with tweets.text contains \"Homework\": \(try screenNames(ObjectPredicate("tweets.text contains %@", "Homework is posted")))")
print("users with tweets.@count > 2: \(try screenNames(ObjectPredicate("tweets.@count > 2")))")
print("users who tweeted in the last 24 hours: \(try screenNames(ObjectPredicate("any tweets.created > %@", yesterday)))")

// The same queries typed: `#Predicate` and `SortDescriptor` on the generated classes become the
// format strings above (`tweeter.screenName == "CS193p"`, `tweets.@count > 2`), run the same way.
let typedTexts = try Tweet.fetch(
    where: #Predicate { $0.tweeter?.screenName == "CS193p" }, sortedBy: [SortDescriptor(\.created)], in: context)
print("typed, tweeter?.screenName == \"CS193p\": \(typedTexts.compactMap(\.text))")
let busyUsers = try TwitterUser.fetch(where: #Predicate { $0.tweets.count > 2 }, in: context)
print("typed, tweets.count > 2: \(busyUsers.compactMap(\.screenName))")

// Deleting a user cascades to its tweets (the model's delete rule); each tweet's
// prepareForDeletion runs.
context.delete(cs193p)
try context.save()
print("after deleting CS193p: \(try Tweet.count(in: context)) tweet(s) left, \(Tweet.deletedCount) prepareForDeletion call(s)")
