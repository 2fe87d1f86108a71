// fetchSnapshots against raw SQLite and against fetching objects then snapshot():
// 100,000 tweets (each with a tweeter) saved by the runtime in an SQLite store, then read
// whole three ways, each in a fresh context or on a connection opened before the clock starts,
// the median of several runs:
//
// - raw SQLite: GRDB's row cursor over the same columns (`Z_PK`, `ZCREATED`, `ZTEXT`,
//   `ZUNIQUE`, `ZTWEETER`) into structs;
// - `Tweet.fetchSnapshots(in:)`: the store's rows into `Tweet.Snapshot`s, no object made;
// - `Tweet.fetch(in:)` then `snapshot()` on each object.
//
//   swift run -c release SnapshotBenchmark [tweet count, default 100000] [runs, default 5]
import Foundation
import GRDB
import ManagedObjects

/// What the raw side reads each row into: the snapshot's fields, the related row by its key.
struct TweetRow {
    let id: Int64
    let created: Date?
    let text: String?
    let unique: String?
    let tweeterID: Int64?
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
}

let arguments = Array(CommandLine.arguments.dropFirst())
func number(at position: Int, default value: Int) throws -> Int {
    guard arguments.count > position else { return value }
    guard let parsed = Int(arguments[position]), parsed > 0 else {
        throw BenchmarkError(description: "'\(arguments[position])' is not a positive number")
    }
    return parsed
}
let tweetCount = try number(at: 0, default: 100_000)
let runs = try number(at: 1, default: 5)

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SnapshotBenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let storeURL = directory.appendingPathComponent("Tweets.sqlite")

func openContainer() throws -> PersistentContainer {
    let container = PersistentContainer(name: "Tweets", managedObjectModel: TweetsModel.managedObjectModel)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
    try container.loadPersistentStores()
    return container
}

// The store, written once.
do {
    let context = try openContainer().newBackgroundContext()
    try context.performAndWait {
        let users = (0..<100).map { index in
            let user = TwitterUser(context: context)
            user.name = "User \(index)"
            user.screenName = "user\(index)"
            return user
        }
        for index in 0..<tweetCount {
            let tweet = Tweet(context: context)
            tweet.text = "Tweet number \(index) about Swift on Linux"
            tweet.created = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index))
            tweet.unique = "t\(index)"
            tweet.tweeter = users[index % users.count]
        }
        try context.save()
    }
}

func seconds(_ body: () throws -> Int) rethrows -> (seconds: Double, count: Int) {
    let clock = ContinuousClock()
    var count = 0
    let elapsed = try clock.measure { count = try body() }
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, count)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

var raw: [Double] = []
var snapshots: [Double] = []
var objects: [Double] = []
for _ in 0..<runs {
    // Each side opens its connection or store before its clock starts.
    let queue = try DatabaseQueue(path: storeURL.path)
    let rawRun = try seconds {
        try queue.read { db in
            var rows: [TweetRow] = []
            let cursor = try Row.fetchCursor(db, sql: "SELECT Z_PK, ZCREATED, ZTEXT, ZUNIQUE, ZTWEETER FROM ZTWEET")
            while let row = try cursor.next() {
                let created: Double? = row[1]
                rows.append(TweetRow(
                    id: row[0], created: created.map(Date.init(timeIntervalSinceReferenceDate:)),
                    text: row[2], unique: row[3], tweeterID: row[4]))
            }
            return rows.count
        }
    }
    let container = try openContainer()
    let snapshotRun = try seconds {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try Tweet.fetchSnapshots(in: context).count }
    }
    let objectRun = try seconds {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try Tweet.fetch(in: context).map { $0.snapshot() }.count }
    }
    guard rawRun.count == tweetCount, snapshotRun.count == tweetCount, objectRun.count == tweetCount else {
        throw BenchmarkError(description: "read \(rawRun.count), \(snapshotRun.count), \(objectRun.count) tweets of \(tweetCount)")
    }
    raw.append(rawRun.seconds)
    snapshots.append(snapshotRun.seconds)
    objects.append(objectRun.seconds)
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
let rawMedian = median(raw), snapshotMedian = median(snapshots), objectMedian = median(objects)
print("SnapshotBenchmark: \(tweetCount) tweets, median of \(runs) runs")
print("  raw SQLite rows into structs:          \(milliseconds(rawMedian))")
print("  Tweet.fetchSnapshots(in:):             \(milliseconds(snapshotMedian))  \(String(format: "%.2fx", snapshotMedian / rawMedian)) raw (goal <= 1.5x)")
print("  Tweet.fetch(in:) then snapshot():      \(milliseconds(objectMedian))  \(String(format: "%.2fx", objectMedian / rawMedian)) raw, \(String(format: "%.2fx", objectMedian / snapshotMedian)) fetchSnapshots")
