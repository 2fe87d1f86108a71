// The GRDB records side: `Codable` structs that are `FetchableRecord & PersistableRecord`,
// used through GRDB's query interface, as a GRDB app would, on the same schema and data as
// the raw-SQLite side.
import Foundation
import GRDB

struct UserRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"
    var id: Int64
    var name: String?
}

struct TweetRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "tweet"
    var id: Int64?
    var text: String?
    var retweets: Int64
    var created: Date?
    var likes: Int32
    var score: Double
    var userID: Int64?

    enum CodingKeys: String, CodingKey {
        case id, text, retweets, created, likes, score
        case userID = "user_id"
    }

    enum Columns {
        static let retweets = Column(CodingKeys.retweets)
        static let text = Column(CodingKeys.text)
        static let created = Column(CodingKeys.created)
    }

    // REAL seconds since 2001, as Core Data keeps dates and the raw-SQLite side stores them.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

enum RecordsSide {
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

        // 1. From no database to every record saved, in one transaction.
        let pool = try measure(.insertAndSave, into: &report) {
            let pool = try DatabasePool(path: databasePath)
            try pool.write { db in
                try db.create(table: UserRecord.databaseTableName) { table in
                    table.primaryKey("id", .integer)
                    table.column("name", .text)
                }
                try db.create(table: TweetRecord.databaseTableName) { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.column("text", .text)
                    table.column("retweets", .integer).notNull()
                    table.column("created", .double)
                    table.column("likes", .integer).notNull()
                    table.column("score", .double).notNull()
                    table.column("user_id", .integer).references(UserRecord.databaseTableName).indexed()
                }
                for (index, name) in workload.userNames.enumerated() {
                    try UserRecord(id: Int64(index + 1), name: name).insert(db)
                }
                for seed in workload.tweets {
                    var tweet = TweetRecord(
                        id: nil, text: seed.text, retweets: seed.retweets, created: seed.created, likes: seed.likes,
                        score: seed.score, userID: Int64(seed.userIndex + 1))
                    try tweet.insert(db)
                }
            }
            return pool
        }
        report.storeDescription = "GRDB Codable records (FetchableRecord & PersistableRecord) and the query interface, same database setup"

        let matching = TweetRecord.Columns.retweets > Workload.minimumRetweets
            && TweetRecord.Columns.text.like("%\(Workload.searchedText)%")

        // 2.
        let matches = try measure(.fetchMatching, into: &report) {
            try pool.read { db in
                try TweetRecord.filter(matching).order(TweetRecord.Columns.created).fetchAll(db)
            }
        }
        report.matchingFetched = matches.count

        // 3.
        report.allCounted = try measure(.countAll, into: &report) {
            try pool.read { db in try TweetRecord.fetchCount(db) }
        }

        // 4.
        report.matchingCounted = try measure(.countMatching, into: &report) {
            try pool.read { db in try TweetRecord.filter(matching).fetchCount(db) }
        }

        // 5.
        report.checksum = try measure(.fetchAllAndRead, into: &report) {
            try pool.read { db in
                var checksum = 0
                for tweet in try TweetRecord.fetchAll(db) {
                    checksum &+= Workload.checksum(
                        text: tweet.text, retweets: tweet.retweets, created: tweet.created,
                        likes: tweet.likes, score: tweet.score)
                }
                return checksum
            }
        }

        // 6. The record is read first, untimed; then its change is saved.
        guard var tweet = try pool.read({ db in try TweetRecord.fetchOne(db) }) else {
            throw BenchmarkError(description: "no tweet to change")
        }
        try measure(.changeOneAndSave, into: &report) {
            tweet.retweets += 1
            try pool.write { db in try tweet.update(db) }
        }

        report.peakRSSKiB = try processStatusKiB("VmHWM")
        return report
    }
}
