// A file importing ManagedObjects beside CoreData (a target moving from one to the other) calls
// `value(forKey:)` and `primitiveValue(forKey:)` unambiguously: CoreData's, as in files that
// import it alone.
import CoreData
import ManagedObjects
import Testing

@Suite struct BothModulesImportedTests {
    @Test func keyValueCodingIsCoreDatas() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "hello", postedBy: "paul", in: context)
        let user = try #require(tweet.tweeter)
        #expect(user.value(forKey: "tweets") is NSSet)
        #expect(user.primitiveValue(forKey: "tweets") is NSSet)
        #expect(tweet.value(forKey: "text") as? String == "hello")
    }
}
