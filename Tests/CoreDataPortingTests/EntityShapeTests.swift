import CoreData
import Testing

/// Core Data's shapes of `NSEntityDescription` and `NSManagedObject.entity()` (MOCloner's
/// `guard let entityName = object.entity.name`, `inverseEntity == parentObject.entity`,
/// `entity().name ?? ""`), and the URL loading system beside `import CoreData` (Apple's
/// Earthquakes sample).
@Suite struct EntityShapeTests {
    @Test func entityNameIsOptionalAsInCoreData() throws {
        let model = NSPersistentContainer(name: "Twitter").managedObjectModel
        let entity = try #require(model.entitiesByName["Tweet"])
        let name: String? = entity.name
        guard let bound = entity.name else {
            Issue.record("an entity always has a name")
            return
        }
        #expect(name == "Tweet" && bound == "Tweet")
        #expect((entity.name ?? "") == "Tweet")
    }

    @Test func entitiesCompareWithEquals() throws {
        let model = NSPersistentContainer(name: "Twitter").managedObjectModel
        let tweet = try #require(model.entitiesByName["Tweet"])
        let user = try #require(model.entitiesByName["TwitterUser"])
        #expect(tweet.relationshipsByName["tweeter"]?.destinationEntity == user)
        #expect(tweet != user)
    }

    @Test func entityClassMethodFindsTheRegisteredModelsEntity() throws {
        let model = try #require(RegisteredTwitterModel.model)
        #expect(Tweet.entity() === model.entitiesByName["Tweet"])
        #expect(TwitterUser.entity().name == "TwitterUser")
        // Not a class any registered model binds: no entity (`entity()` would trap, as Core Data raises).
        #expect(RegisteredTwitterModel.entity(for: NSManagedObject.self) == nil)
    }

    /// MOCloner reads a to-many with `primitiveValue(forKey:) as? NSSet` (ordered: `NSOrderedSet`).
    @Test func primitiveValueOfAToManyIsAFoundationSet() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "hello", postedBy: "paul", in: context)
        let user = try #require(tweet.tweeter)
        let tweets = try #require(user.primitiveValue(forKey: "tweets") as? NSSet)
        #expect(tweets.allObjects.compactMap { $0 as? Tweet } == [tweet])
        #expect(tweet.primitiveValue(forKey: "tweeter") as? TwitterUser === user)
        #expect(tweet.primitiveValue(forKey: "text") as? String == "hello")
        #expect(tweet.primitiveValue(forKey: "noSuchKey") == nil)
    }

    @Test func urlLoadingSystemComesWithCoreData() throws {
        let session = URLSession(configuration: .default)
        let request = URLRequest(url: try #require(URL(string: "https://example.com/feed.json")))
        #expect(request.httpMethod == "GET")
        #expect(session.configuration.timeoutIntervalForRequest > 0)
        session.invalidateAndCancel()
    }
}
