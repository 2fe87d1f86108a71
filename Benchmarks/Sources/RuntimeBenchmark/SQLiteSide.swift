// The raw-SQLite side: GRDB's prepared statements and row cursors, no records or query
// interface, on a database file in a temporary directory.
import Foundation
import GRDB

/// One row of the fetch with the predicate.
struct TweetRow {
    let id: Int64
    let text: String?
    let retweets: Int64
    let created: Date?
    let likes: Int32
    let score: Double
    let userID: Int64?
}

enum SQLiteSide {
    static func run(_ workload: Workload) throws -> SideReport {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("RuntimeBenchmark-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try run(workload, databasePath: directory.appendingPathComponent("bench.sqlite").path)
    }

    private static func run(_ workload: Workload, databasePath: String) throws -> SideReport {
        var report = SideReport()
        report.startRSSKiB = try processStatusKiB("VmRSS")

        // 1. From no database to every row committed: open, create the schema, insert all
        // in one transaction. Dates are REAL seconds since 2001, as Core Data's SQLite store
        // keeps them (GRDB's default would be ISO 8601 text).
        let pool = try measure(.insertAndSave, into: &report) {
            let pool = try DatabasePool(path: databasePath)
            try pool.write { db in
                try db.execute(sql: """
                    CREATE TABLE user (id INTEGER PRIMARY KEY, name TEXT);
                    CREATE TABLE tweet (
                        id INTEGER PRIMARY KEY, text TEXT, retweets INTEGER NOT NULL, created REAL,
                        likes INTEGER NOT NULL, score REAL NOT NULL, user_id INTEGER REFERENCES user(id));
                    CREATE INDEX tweet_user_id ON tweet(user_id);
                    """)
                let insertUser = try db.makeStatement(sql: "INSERT INTO user (id, name) VALUES (?, ?)")
                for (index, name) in workload.userNames.enumerated() {
                    try insertUser.execute(arguments: [index + 1, name])
                }
                let insertTweet = try db.makeStatement(sql: """
                    INSERT INTO tweet (text, retweets, created, likes, score, user_id) VALUES (?, ?, ?, ?, ?, ?)
                    """)
                for seed in workload.tweets {
                    try insertTweet.execute(arguments: [
                        seed.text, seed.retweets, seed.created.timeIntervalSinceReferenceDate, seed.likes,
                        seed.score, seed.userIndex + 1,
                    ])
                }
            }
            return pool
        }
        // The writer's settings: synchronous is per connection, and only the writer commits.
        report.storeDescription = try pool.writeWithoutTransaction { db in
            let version = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?"
            let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?"
            let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            let synchronousNames = [0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"]
            return "SQLite \(version) via GRDB DatabasePool, a file in a temp directory, "
                + "journal_mode=\(journalMode), synchronous=\(synchronousNames[synchronous] ?? String(synchronous))"
        }

        let matching = "retweets > \(Workload.minimumRetweets) AND text LIKE '%\(Workload.searchedText)%'"

        // 2.
        let matches = try measure(.fetchMatching, into: &report) {
            try pool.read { db in
                let statement = try db.makeStatement(sql: """
                    SELECT id, text, retweets, created, likes, score, user_id FROM tweet
                    WHERE \(matching) ORDER BY created
                    """)
                var rows: [TweetRow] = []
                let cursor = try Row.fetchCursor(statement)
                while let row = try cursor.next() {
                    rows.append(TweetRow(
                        id: row[0], text: row[1], retweets: row[2],
                        created: (row[3] as Double?).map(Date.init(timeIntervalSinceReferenceDate:)),
                        likes: row[4], score: row[5], userID: row[6]))
                }
                return rows
            }
        }
        report.matchingFetched = matches.count

        // 3.
        report.allCounted = try measure(.countAll, into: &report) {
            try pool.read { db in
                try Int.fetchOne(db.makeStatement(sql: "SELECT COUNT(*) FROM tweet")) ?? 0
            }
        }

        // 4.
        report.matchingCounted = try measure(.countMatching, into: &report) {
            try pool.read { db in
                try Int.fetchOne(db.makeStatement(sql: "SELECT COUNT(*) FROM tweet WHERE \(matching)")) ?? 0
            }
        }

        // 5.
        report.checksum = try measure(.fetchAllAndRead, into: &report) {
            try pool.read { db in
                var checksum = 0
                let cursor = try Row.fetchCursor(db.makeStatement(
                    sql: "SELECT text, retweets, created, likes, score FROM tweet"))
                while let row = try cursor.next() {
                    checksum &+= Workload.checksum(
                        text: row[0], retweets: row[1],
                        created: (row[2] as Double?).map(Date.init(timeIntervalSinceReferenceDate:)),
                        likes: row[3], score: row[4])
                }
                return checksum
            }
        }

        // 6. As on the runtime side, the row is read first, untimed; then one UPDATE commits.
        let (id, retweets) = try pool.read { db -> (Int64, Int64) in
            guard let row = try Row.fetchOne(db.makeStatement(sql: "SELECT id, retweets FROM tweet LIMIT 1")) else {
                throw BenchmarkError(description: "no tweet to change")
            }
            return (row[0], row[1])
        }
        try measure(.changeOneAndSave, into: &report) {
            try pool.write { db in
                try db.makeStatement(sql: "UPDATE tweet SET retweets = ? WHERE id = ?")
                    .execute(arguments: [retweets + 1, id])
            }
        }

        report.peakRSSKiB = try processStatusKiB("VmHWM")
        return report
    }
}
