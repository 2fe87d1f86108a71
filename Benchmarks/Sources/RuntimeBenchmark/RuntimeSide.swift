// The ManagedObjects side: classes hand-written in the exact shape ManagedGen generates
// (Docs/GeneratedCode.md; the typed accessors of `@_spi(Generated)`, as generated code calls
// them), used through the public API only.
import DataModel
import Foundation
@_spi(Generated) import ManagedObjects

enum BenchModel {
    static let model = Model(entities: [
        Entity(name: "Tweet", representedClassName: "Tweet", codeGeneration: .class, attributes: [
            Attribute(name: "text", type: .string, isOptional: true),
            Attribute(name: "retweets", type: .integer64, usesScalarValueType: true, defaultValueString: "0"),
            Attribute(name: "created", type: .date, isOptional: true),
            Attribute(name: "likes", type: .integer32, usesScalarValueType: true, defaultValueString: "0"),
            Attribute(name: "score", type: .double, usesScalarValueType: true, defaultValueString: "0.0"),
        ], relationships: [
            Relationship(name: "user", destinationEntity: "User", inverseName: "tweets",
                         inverseEntity: "User", isOptional: true, deleteRule: .nullify),
        ]),
        Entity(name: "User", representedClassName: "User", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "tweets", destinationEntity: "Tweet", inverseName: "user",
                         inverseEntity: "Tweet", isToMany: true, isOptional: true, deleteRule: .cascade),
        ]),
    ])

    static let managedObjectModel = ManagedObjectModel(model, classes: ["Tweet": Tweet.self, "User": User.self])
}

final class Tweet: ManagedObject {
    override class var entityName: String { "Tweet" }

    class func fetchRequest() -> FetchRequest<Tweet> {
        FetchRequest<Tweet>(entityName: "Tweet")
    }
}

extension Tweet {
    var text: String? { get { _managedGen.string(at: 0) } set { _managedGen.setString(newValue, at: 0) } }
    var retweets: Int64 { get { _managedGen.int64(at: 1, default: 0) } set { _managedGen.setInt64(newValue, at: 1) } }
    var created: Date? { get { _managedGen.date(at: 2) } set { _managedGen.setDate(newValue, at: 2) } }
    var likes: Int32 { get { _managedGen.int32(at: 3, default: 0) } set { _managedGen.setInt32(newValue, at: 3) } }
    var score: Double { get { _managedGen.double(at: 4, default: 0) } set { _managedGen.setDouble(newValue, at: 4) } }
    var user: User? { get { _managedGen.toOne(at: 5) } set { _managedGen.setToOne(newValue, at: 5) } }
}

final class User: ManagedObject {
    override class var entityName: String { "User" }

    class func fetchRequest() -> FetchRequest<User> {
        FetchRequest<User>(entityName: "User")
    }
}

extension User {
    var name: String? { get { _managedGen.string(at: 0) } set { _managedGen.setString(newValue, at: 0) } }
    var tweets: Set<Tweet> { get { _managedGen.toMany(at: 1) } set { _managedGen.setToMany(newValue, at: 1) } }
    func addToTweets(_ value: Tweet) { _managedGen.addObject(value, at: 1) }
    func removeFromTweets(_ value: Tweet) { _managedGen.removeObject(value, at: 1) }
    func addToTweets(_ values: Set<Tweet>) { _managedGen.addObjects(values, at: 1) }
    func removeFromTweets(_ values: Set<Tweet>) { _managedGen.removeObjects(values, at: 1) }
}

/// Whether the runtime side uses an SQLite file: `RUNTIME_STORE=sqlite` in the environment,
/// which the side processes inherit.
let runtimeUsesSQLiteFile = ProcessInfo.processInfo.environment["RUNTIME_STORE"] == "sqlite"

/// The runtime's stack, the one place to change to measure another store type: an in-memory
/// store, or (`runtimeUsesSQLiteFile`) an SQLite file in a new temporary directory.
func makeRuntimeContainer() throws -> PersistentContainer {
    let container = PersistentContainer(name: "Bench", managedObjectModel: BenchModel.managedObjectModel)
    if runtimeUsesSQLiteFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("RuntimeBenchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Bench.sqlite"))]
    } else {
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
    }
    try container.loadPersistentStores()
    return container
}

enum RuntimeSide {
    static func run(_ workload: Workload) throws -> SideReport {
        var report = SideReport()
        report.startRSSKiB = try processStatusKiB("VmRSS")

        // 1. From no store to every object saved. The inserting context stays alive to the
        // end, as an app's context would after saving.
        let (container, insertingContext) = try measure(.insertAndSave, into: &report) {
            let container = try makeRuntimeContainer()
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let users = workload.userNames.map { name in
                    let user = User(context: context)
                    user.name = name
                    return user
                }
                for seed in workload.tweets {
                    let tweet = Tweet(context: context)
                    tweet.text = seed.text
                    tweet.retweets = seed.retweets
                    tweet.created = seed.created
                    tweet.likes = seed.likes
                    tweet.score = seed.score
                    tweet.user = users[seed.userIndex]
                }
                try context.save()
            }
            return (container, context)
        }
        report.storeDescription = container.persistentStoreDescriptions.map(\.description).joined(separator: ", ")
        // An SQLite file's temporary directory goes at the end of the run, as the SQLite side's does.
        defer {
            if runtimeUsesSQLiteFile, let file = container.persistentStoreDescriptions.first?.url {
                try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
            }
        }

        let matching = ObjectPredicate("retweets > %@ AND text CONTAINS[c] %@", Workload.minimumRetweets, Workload.searchedText)

        // Each read step gets a new context, so it starts from the store, as a fresh Core Data
        // context would, rather than from objects an earlier step left registered.
        // 2.
        let matchingContext = container.newBackgroundContext()
        let matches = try matchingContext.performAndWait {
            try measure(.fetchMatching, into: &report) {
                let request = Tweet.fetchRequest()
                request.predicate = matching
                request.sortDescriptors = [ObjectSortDescriptor(key: "created")]
                return try matchingContext.fetch(request)
            }
        }
        report.matchingFetched = matches.count

        // 3.
        let countingContext = container.newBackgroundContext()
        report.allCounted = try countingContext.performAndWait {
            try measure(.countAll, into: &report) {
                try countingContext.count(for: Tweet.fetchRequest())
            }
        }

        // 4.
        let predicateCountingContext = container.newBackgroundContext()
        report.matchingCounted = try predicateCountingContext.performAndWait {
            try measure(.countMatching, into: &report) {
                let request = Tweet.fetchRequest()
                request.predicate = matching
                return try predicateCountingContext.count(for: request)
            }
        }

        // 5.
        let readingContext = container.newBackgroundContext()
        report.checksum = try readingContext.performAndWait {
            try measure(.fetchAllAndRead, into: &report) {
                var checksum = 0
                for tweet in try readingContext.fetch(Tweet.fetchRequest()) {
                    checksum &+= Workload.checksum(
                        text: tweet.text, retweets: tweet.retweets, created: tweet.created,
                        likes: tweet.likes, score: tweet.score)
                }
                return checksum
            }
        }

        // 6. Only the change and the save are timed, not the fetch of the object.
        let changingContext = container.newBackgroundContext()
        try changingContext.performAndWait {
            let request = Tweet.fetchRequest()
            request.fetchLimit = 1
            guard let tweet = try changingContext.fetch(request).first else {
                throw BenchmarkError(description: "no tweet to change")
            }
            try measure(.changeOneAndSave, into: &report) {
                tweet.retweets += 1
                try changingContext.save()
            }
        }

        report.peakRSSKiB = try processStatusKiB("VmHWM")
        withExtendedLifetime(insertingContext) {}
        return report
    }
}
