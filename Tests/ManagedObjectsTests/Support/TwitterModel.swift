// Hand-written in the exact shape ManagedGen generates (Docs/GeneratedCode.md) for the CS193p
// Tweet/TwitterUser model (seeds 000 and 003).
import DataModel
import Foundation
import ManagedObjects

public enum TwitterModel {
    public static let model = Model(entities: [
        Entity(name: "Tweet", representedClassName: "Tweet", codeGeneration: .class, attributes: [
            Attribute(name: "created", type: .date, isOptional: true),
            Attribute(name: "text", type: .string, isOptional: true),
            Attribute(name: "unique", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "tweeter", destinationEntity: "TwitterUser", inverseName: "tweets",
                         inverseEntity: "TwitterUser", isOptional: true, deleteRule: .nullify),
        ]),
        Entity(name: "TwitterUser", representedClassName: "TwitterUser", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "screenName", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "tweets", destinationEntity: "Tweet", inverseName: "tweeter",
                         inverseEntity: "Tweet", isToMany: true, isOptional: true, deleteRule: .cascade),
        ]),
    ])

    public static let managedObjectModel = ManagedObjectModel(
        model, classes: ["Tweet": Tweet.self, "TwitterUser": TwitterUser.self])
}

public final class Tweet: ManagedObject {
    public override class var entityName: String { "Tweet" }

    public class func fetchRequest() -> FetchRequest<Tweet> {
        FetchRequest<Tweet>(entityName: "Tweet")
    }
}

extension Tweet {
    public enum Keys {
        public static let created = "created"
        public static let text = "text"
        public static let unique = "unique"
        public static let tweeter = "tweeter"
    }

    public var created: Date? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var text: String? {
        get { attributeValue(at: 1) }
        set { setAttributeValue(newValue, at: 1) }
    }

    public var unique: String? {
        get { attributeValue(at: 2) }
        set { setAttributeValue(newValue, at: 2) }
    }

    public var tweeter: TwitterUser? {
        get { toOneRelationship(at: 3) }
        set { setToOneRelationship(newValue, at: 3) }
    }
}

public final class TwitterUser: ManagedObject {
    public override class var entityName: String { "TwitterUser" }

    public class func fetchRequest() -> FetchRequest<TwitterUser> {
        FetchRequest<TwitterUser>(entityName: "TwitterUser")
    }
}

extension TwitterUser {
    public enum Keys {
        public static let name = "name"
        public static let screenName = "screenName"
        public static let tweets = "tweets"
    }

    public var name: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var screenName: String? {
        get { attributeValue(at: 1) }
        set { setAttributeValue(newValue, at: 1) }
    }

    public var tweets: Set<Tweet> {
        get { relationship(at: 2) }
        set { setRelationship(newValue, at: 2) }
    }

    public func addToTweets(_ value: Tweet) { addToRelationship([value], at: 2) }
    public func removeFromTweets(_ value: Tweet) { removeFromRelationship([value], at: 2) }
    public func addToTweets(_ values: Set<Tweet>) { addToRelationship(values, at: 2) }
    public func removeFromTweets(_ values: Set<Tweet>) { removeFromRelationship(values, at: 2) }
}
