import Foundation

/// A fixed pseudo-random sequence, so every run and both sides work on the same data.
struct SeededGenerator {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// The values of one tweet to insert; `userIndex` picks its user from `Workload.userNames`.
struct TweetSeed {
    let text: String
    let retweets: Int64
    let created: Date
    let likes: Int32
    let score: Double
    let userIndex: Int
}

/// The objects both sides insert: `tweetCount` tweets spread over 1,000 users.
struct Workload {
    static let userCount = 1_000
    /// What the fetch and the predicate count look for, on both sides.
    static let minimumRetweets: Int64 = 50
    static let searchedText = "swift"

    let userNames: [String]
    let tweets: [TweetSeed]

    init(tweetCount: Int) {
        var generator = SeededGenerator()
        userNames = (0..<Self.userCount).map { "user\($0)" }
        // None of these contain "swift": only the variants below make a tweet match. ASCII only,
        // so SQLite's LIKE (case-insensitive for ASCII alone) and CONTAINS[c] agree.
        let words = [
            "the", "a", "release", "compiler", "build", "today", "new", "code", "bug", "fix",
            "package", "linux", "server", "fast", "coffee", "weekend", "talk", "demo", "review",
            "rust", "kotlin", "python", "types", "async", "actor", "memory", "test", "ship",
        ]
        let searchedVariants = ["Swift", "swift", "SWIFT", "#SwiftLang", "swiftly", "@swiftlang"]
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        tweets = (0..<tweetCount).map { _ in
            var textWords = (0..<(4 + generator.next(9))).map { _ in words[generator.next(words.count)] }
            // One tweet in five mentions Swift; with three in four above the retweet threshold,
            // about 15% match the predicate.
            if generator.next(5) == 0 {
                textWords.insert(searchedVariants[generator.next(searchedVariants.count)],
                                 at: generator.next(textWords.count + 1))
            }
            return TweetSeed(
                text: textWords.joined(separator: " "),
                retweets: Int64(generator.next(200)),
                created: start.addingTimeInterval(Double(generator.next(100_000_000)) + Double(generator.next(1000)) / 1000),
                likes: Int32(generator.next(10_000)),
                score: Double(generator.next(100_000)) / 100,
                userIndex: generator.next(Self.userCount))
        }
    }

    /// What step 5 sums over every tweet's five attributes; both sides must agree on it.
    static func checksum(text: String?, retweets: Int64, created: Date?, likes: Int32, score: Double) -> Int {
        (text?.utf8.count ?? 0) + Int(retweets) + Int(created?.timeIntervalSinceReferenceDate ?? 0)
            + Int(likes) + Int(score * 100)
    }
}
