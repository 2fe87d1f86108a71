// Batch requests on an SQLite store against raw SQLite doing the same work:
//
// 1. batch insert of a million rows (`BatchInsertRequest` from dictionaries, and from a
//    dictionary handler) against one prepared INSERT run per row in one transaction, into the
//    same Core Data table layout: through GRDB's statements with arguments (the reference), and
//    bound with SQLite's C API (the floor: no per-row Swift work beyond the values);
// 2. batch delete of 100,000 of 200,000 rows by a predicate (`BatchDeleteRequest`, status and
//    object-ID results) against one raw `DELETE … WHERE` (and `… RETURNING Z_PK` for the IDs).
//
// Only the request (or the raw statements) is timed: the input rows are made beforehand and
// each run gets new files in a temporary directory. Both sides use a `DatabasePool` (WAL) on a
// file with incremental auto-vacuum, as the store makes it. Best of the runs; the sides
// alternate which goes first.
//
//   swift run -c release BatchBenchmark [insert rows] [delete rows] [runs]
import DataModel
import Foundation
import GRDB
import GRDBSQLite
import ManagedObjects

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let insertCount = arguments.count > 0 ? arguments[0] : 1_000_000
let deleteCount = arguments.count > 1 ? arguments[1] : 100_000
let runs = arguments.count > 2 ? arguments[2] : 3

let model = ManagedObjectModel(Model(entities: [
    Entity(name: "Item", attributes: [
        Attribute(name: "name", type: .string, isOptional: true),
        Attribute(name: "amount", type: .integer64, isOptional: false, defaultValueString: "0"),
        Attribute(name: "score", type: .double, isOptional: false, defaultValueString: "0"),
        Attribute(name: "created", type: .date, isOptional: true),
    ]),
]))

struct Failure: Error, CustomStringConvertible {
    var description: String
}

/// The rows both sides write: row `i` has amount `i`.
struct Rows {
    let names: [String]
    let scores: [Double]
    let created: [Date]

    init(count: Int) {
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        names = (0..<count).map { "item \($0)" }
        scores = (0..<count).map { Double($0 % 1_000) / 7 }
        created = (0..<count).map { start.addingTimeInterval(Double($0)) }
    }

    var count: Int { names.count }

    var dictionaries: [[String: Any]] {
        (0..<count).map { ["name": names[$0], "amount": Int64($0), "score": scores[$0], "created": created[$0]] }
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("BatchBenchmark-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

// MARK: The runtime side

func storeContext(in directory: URL) throws -> ManagedObjectContext {
    let container = PersistentContainer(name: "Batch", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Batch.sqlite"))]
    try container.loadPersistentStores()
    return container.newBackgroundContext()
}

func runtimeInsert(_ rows: Rows, handler: Bool) throws -> Double {
    try withDirectory { directory in
        let context = try storeContext(in: directory)
        return try context.performAndWait {
            let request: BatchInsertRequest
            if handler {
                var next = 0
                request = BatchInsertRequest(entityName: "Item", dictionaryHandler: { dictionary in
                    guard next < rows.count else { return true }
                    dictionary["name"] = rows.names[next]
                    dictionary["amount"] = Int64(next)
                    dictionary["score"] = rows.scores[next]
                    dictionary["created"] = rows.created[next]
                    next += 1
                    return false
                })
            } else {
                request = BatchInsertRequest(entityName: "Item", objects: rows.dictionaries)
            }
            request.resultType = .count
            var inserted = 0
            let time = try seconds { inserted = try context.execute(request).count ?? 0 }
            guard inserted == rows.count, try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == rows.count else {
                throw Failure(description: "the batch insert wrote \(inserted) rows, not \(rows.count)")
            }
            return time
        }
    }
}

func runtimeDelete(_ rows: Rows, deleting: Int, resultType: BatchDeleteRequestResultType) throws -> Double {
    try withDirectory { directory in
        let context = try storeContext(in: directory)
        return try context.performAndWait {
            try context.execute(BatchInsertRequest(entityName: "Item", objects: rows.dictionaries))
            let fetch = FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("amount >= %lld", Int64(rows.count - deleting)))
            let request = BatchDeleteRequest(fetchRequest: fetch)
            request.resultType = resultType
            let time = try seconds { try context.execute(request) }
            let left = try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
            guard left == rows.count - deleting else { throw Failure(description: "the batch delete left \(left) rows") }
            return time
        }
    }
}

// MARK: The raw SQLite side

func rawPool(in directory: URL) throws -> DatabasePool {
    let pool = try DatabasePool(path: directory.appendingPathComponent("raw.sqlite").path)
    try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA auto_vacuum = 2") }
    try pool.write { db in
        try db.execute(sql: """
            CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZAMOUNT INTEGER, \
            ZSCORE FLOAT, ZCREATED TIMESTAMP )
            """)
    }
    return pool
}

func rawInsert(_ rows: Rows, into pool: DatabasePool) throws {
    try pool.write { db in
        let statement = try db.makeStatement(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAMOUNT, ZSCORE, ZCREATED) VALUES (?, ?, ?, ?, ?, ?, ?)")
        for index in 0..<rows.count {
            try statement.execute(arguments: [
                index + 1, 1, 1, rows.names[index], index, rows.scores[index], rows.created[index].timeIntervalSinceReferenceDate,
            ])
        }
    }
}

/// The same inserts bound with SQLite's C API on GRDB's prepared statement.
func rawCInsert(_ rows: Rows, into pool: DatabasePool) throws {
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    try pool.write { db in
        let statement = try db.makeStatement(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAMOUNT, ZSCORE, ZCREATED) VALUES (?, ?, ?, ?, ?, ?, ?)")
        let handle = statement.sqliteStatement
        for index in 0..<rows.count {
            sqlite3_reset(handle)
            sqlite3_bind_int64(handle, 1, Int64(index + 1))
            sqlite3_bind_int64(handle, 2, 1)
            sqlite3_bind_int64(handle, 3, 1)
            sqlite3_bind_text(handle, 4, rows.names[index], -1, transient)
            sqlite3_bind_int64(handle, 5, Int64(index))
            sqlite3_bind_double(handle, 6, rows.scores[index])
            sqlite3_bind_double(handle, 7, rows.created[index].timeIntervalSinceReferenceDate)
            guard sqlite3_step(handle) == SQLITE_DONE else { throw Failure(description: "sqlite3_step failed at row \(index)") }
        }
        sqlite3_reset(handle)
    }
}

func rawInsertTime(_ rows: Rows, cAPI: Bool = false) throws -> Double {
    try withDirectory { directory in
        let pool = try rawPool(in: directory)
        let time = try seconds { try cAPI ? rawCInsert(rows, into: pool) : rawInsert(rows, into: pool) }
        let count = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM") ?? 0 }
        guard count == rows.count else { throw Failure(description: "raw insert wrote \(count) rows") }
        return time
    }
}

func rawDeleteTime(_ rows: Rows, deleting: Int, returningKeys: Bool = false) throws -> Double {
    try withDirectory { directory in
        let pool = try rawPool(in: directory)
        try rawInsert(rows, into: pool)
        let time = try seconds {
            try pool.write { db in
                if returningKeys {
                    let keys = try Int64.fetchAll(db, sql: "DELETE FROM ZITEM WHERE ZAMOUNT >= ? RETURNING Z_PK", arguments: [rows.count - deleting])
                    guard keys.count == deleting else { throw Failure(description: "raw delete returned \(keys.count) keys") }
                } else {
                    try db.execute(sql: "DELETE FROM ZITEM WHERE ZAMOUNT >= ?", arguments: [rows.count - deleting])
                }
            }
        }
        let left = try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM") ?? 0 }
        guard left == rows.count - deleting else { throw Failure(description: "raw delete left \(left) rows") }
        return time
    }
}

// MARK: Running

/// The best time of `runs` runs of each side, alternating which goes first.
func best(_ sides: [(name: String, run: () throws -> Double)]) throws -> [String: Double] {
    var times: [String: [Double]] = [:]
    for round in 0..<runs {
        let order = round % 2 == 0 ? sides : sides.reversed()
        for side in order { times[side.name, default: []].append(try side.run()) }
    }
    return times.mapValues { $0.min() ?? .nan }
}

/// Each time and its ratio to `reference`; the names in `judged` are checked against `target`.
func report(_ title: String, reference: String, target: Double, judged: Set<String>, _ times: [String: Double], order: [String]) {
    print("\n\(title)")
    let base = times[reference] ?? .nan
    for name in order {
        let time = times[name] ?? .nan
        let ratio = time / base
        var verdict = name == reference ? "reference" : String(format: "%.2f× the reference", ratio)
        if judged.contains(name) { verdict += ratio <= target ? " (target ≤ \(target)×: met)" : " (target ≤ \(target)×: NOT met)" }
        let padded = name.padding(toLength: 46, withPad: " ", startingAt: 0)
        print("  \(padded) \(String(format: "%8.3f", time)) s   \(verdict)")
    }
}

do {
    print("BatchBenchmark: \(insertCount) rows inserted, \(deleteCount) of \(2 * deleteCount) deleted, best of \(runs) runs")
    let insertRows = Rows(count: insertCount)
    let inserts = try best([
        ("raw SQLite: prepared INSERT, one transaction", { try rawInsertTime(insertRows) }),
        ("raw SQLite, C API binding (floor)", { try rawInsertTime(insertRows, cAPI: true) }),
        ("BatchInsertRequest(objects:)", { try runtimeInsert(insertRows, handler: false) }),
        ("BatchInsertRequest(dictionaryHandler:)", { try runtimeInsert(insertRows, handler: true) }),
    ])
    report("Batch insert of \(insertCount) rows", reference: "raw SQLite: prepared INSERT, one transaction", target: 1.3,
           judged: ["BatchInsertRequest(objects:)", "BatchInsertRequest(dictionaryHandler:)"], inserts,
           order: ["raw SQLite: prepared INSERT, one transaction", "raw SQLite, C API binding (floor)", "BatchInsertRequest(objects:)",
                  "BatchInsertRequest(dictionaryHandler:)"])
    let floor = inserts["raw SQLite, C API binding (floor)"] ?? .nan
    print(String(format: "  against the C API floor: objects %.2f×, dictionary handler %.2f×",
                 (inserts["BatchInsertRequest(objects:)"] ?? .nan) / floor, (inserts["BatchInsertRequest(dictionaryHandler:)"] ?? .nan) / floor))

    let deleteRows = Rows(count: 2 * deleteCount)
    let deletes = try best([
        ("raw SQLite: DELETE … WHERE", { try rawDeleteTime(deleteRows, deleting: deleteCount) }),
        ("raw SQLite: DELETE … WHERE … RETURNING Z_PK", { try rawDeleteTime(deleteRows, deleting: deleteCount, returningKeys: true) }),
        ("BatchDeleteRequest, status result", { try runtimeDelete(deleteRows, deleting: deleteCount, resultType: .resultTypeStatusOnly) }),
        ("BatchDeleteRequest, object IDs result", { try runtimeDelete(deleteRows, deleting: deleteCount, resultType: .resultTypeObjectIDs) }),
    ])
    report("Batch delete of \(deleteCount) of \(2 * deleteCount) rows", reference: "raw SQLite: DELETE … WHERE", target: 1.5,
           judged: ["BatchDeleteRequest, status result"], deletes,
           order: ["raw SQLite: DELETE … WHERE", "BatchDeleteRequest, status result", "raw SQLite: DELETE … WHERE … RETURNING Z_PK",
                  "BatchDeleteRequest, object IDs result"])
    let returning = deletes["raw SQLite: DELETE … WHERE … RETURNING Z_PK"] ?? .nan
    print(String(format: "  object IDs result against raw DELETE … RETURNING: %.2f×", (deletes["BatchDeleteRequest, object IDs result"] ?? .nan) / returning))
} catch {
    print("BatchBenchmark failed: \(error)")
    exit(1)
}
