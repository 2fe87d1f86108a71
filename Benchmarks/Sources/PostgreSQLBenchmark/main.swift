// The PostgreSQL store against raw postgres-nio on the same server, in the same run:
//
// - insert + save of N objects (one context, one save) against the same rows inserted by hand:
//   one transaction on one connection, the INSERTs sent one after another without waiting
//   (postgres-nio pipelines them), as the store sends its own;
// - filtered fetches (`amount < N/10 AND name BEGINSWITH 'item-1'`, and `amount < N/2`, sorted by
//   amount) into managed objects whose values are read, against the same SELECT decoded into tuples.
//
//   export MANAGEDGEN_POSTGRES_URL=$(Scripts/postgres.sh start)
//   swift run -c release PostgreSQLBenchmark [object count]
import DataModel
import Foundation
import Logging
import ManagedObjects
import PostgresNIO
import PostgreSQLStore

enum BenchModel {
    static let model = Model(entities: [
        Entity(name: "Item", representedClassName: "Item", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "amount", type: .integer64, isOptional: false, defaultValueString: "0"),
            Attribute(name: "score", type: .double, isOptional: false, defaultValueString: "0"),
        ]),
    ])
    static let managedObjectModel = ManagedObjectModel(model, classes: ["Item": Item.self])
}

final class Item: ManagedObject {
    override class var entityName: String { "Item" }
    var name: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }
    var amount: Int64 {
        get { attributeValue(at: 1) ?? 0 }
        set { setAttributeValue(newValue, at: 1) }
    }
    var score: Double {
        get { attributeValue(at: 2) ?? 0 }
        set { setAttributeValue(newValue, at: 2) }
    }
}

guard let server = ProcessInfo.processInfo.environment["MANAGEDGEN_POSTGRES_URL"].flatMap(URL.init(string:)) else {
    print("set MANAGEDGEN_POSTGRES_URL: export MANAGEDGEN_POSTGRES_URL=$(Scripts/postgres.sh start)")
    exit(1)
}
let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
let runs = 3

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func url(schema: String) -> URL {
    URL(string: server.absoluteString + (server.query == nil ? "?" : "&") + "schema=\(schema)")!
}

// Raw postgres-nio: one connection, its own table.
let logger: Logger = {
    var logger = Logger(label: "PostgreSQLBenchmark")
    logger.logLevel = .critical
    return logger
}()
let user = server.user ?? "postgres"
let database = String(server.path.dropFirst())
let configuration = PostgresConnection.Configuration(
    host: server.host ?? "127.0.0.1", port: server.port ?? 5432, username: user, password: server.password,
    database: database, tls: .disable)
let connection = try PostgresConnection.connect(
    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger).wait()

@MainActor func raw(_ sql: String) throws {
    _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait()
}

var schemas: [String] = []
@MainActor func freshSchema() -> String {
    let name = "bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    schemas.append(name)
    return name
}
defer {
    for schema in schemas { try? raw("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
    try? connection.close().wait()
}

@MainActor func rawInsert() throws -> Double {
    let schema = freshSchema()
    try raw("CREATE SCHEMA \(schema)")
    try raw("CREATE TABLE \(schema).items (Z_PK BIGINT PRIMARY KEY, Z_ENT BIGINT, Z_OPT BIGINT, ZNAME TEXT, ZAMOUNT BIGINT, ZSCORE DOUBLE PRECISION)")
    return try seconds {
        try raw("BEGIN")
        var pending: [EventLoopFuture<PostgresQueryResult>] = []
        pending.reserveCapacity(count)
        for number in 0..<count {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(Int64(number + 1))
            bindings.append(Int64(1))
            bindings.append(Int64(1))
            bindings.append("item-\(number)")
            bindings.append(Int64(number))
            bindings.append(Double(number) / 2)
            pending.append(connection.query(PostgresQuery(
                unsafeSQL: "INSERT INTO \(schema).items (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAMOUNT, ZSCORE) VALUES ($1, $2, $3, $4, $5, $6)",
                binds: bindings), logger: logger))
        }
        for future in pending { _ = try future.wait() }
        try raw("COMMIT")
    }
}

@MainActor func storeInsert() throws -> (seconds: Double, store: URL) {
    let storeURL = url(schema: freshSchema())
    let coordinator = PersistentStoreCoordinator(managedObjectModel: BenchModel.managedObjectModel)
    coordinator.addPersistentStore(try PostgreSQLStore(model: BenchModel.managedObjectModel, url: storeURL))
    let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    let time = try seconds {
        try context.performAndWait {
            for number in 0..<count {
                let item = Item(context: context)
                item.name = "item-\(number)"
                item.amount = Int64(number)
                item.score = Double(number) / 2
            }
            try context.save()
        }
    }
    return (time, storeURL)
}

var rawInserts: [Double] = []
var storeInserts: [Double] = []
var lastStore: URL?
for _ in 0..<runs {
    rawInserts.append(try rawInsert())
    let (time, store) = try storeInsert()
    storeInserts.append(time)
    lastStore = store
}

// Filtered fetches over the last store's rows: a selective one and one of half the rows.
let storeSchema = schemas[schemas.count - 1]
let coordinator = PersistentStoreCoordinator(managedObjectModel: BenchModel.managedObjectModel)
coordinator.addPersistentStore(try PostgreSQLStore(model: BenchModel.managedObjectModel, url: lastStore!))

@MainActor func fetches(limit: Int64, prefix: String) throws -> (store: [Double], raw: [Double], matched: Int) {
    var rawFetches: [Double] = []
    var storeFetches: [Double] = []
    var matched = (raw: 0, store: 0)
    for _ in 0..<runs {
        rawFetches.append(try seconds {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(limit)
            bindings.append(prefix + "%")
            let rows = try connection.query(PostgresQuery(
                unsafeSQL: "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZAMOUNT, ZSCORE FROM \(storeSchema).zitem WHERE ZAMOUNT < $1 AND ZNAME LIKE $2 ORDER BY ZAMOUNT, Z_PK",
                binds: bindings), logger: logger).wait()
            var decoded: [(Int64, Int64, Int64, String, Int64, Double)] = []
            for row in rows { decoded.append(try row.decode((Int64, Int64, Int64, String, Int64, Double).self)) }
            matched.raw = decoded.count
        })
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        storeFetches.append(try seconds {
            matched.store = try context.performAndWait {
                let request = FetchRequest<Item>(entityName: "Item")
                request.predicate = ObjectPredicate("amount < %@ AND name BEGINSWITH %@", limit, prefix)
                request.sortDescriptors = [ObjectSortDescriptor(key: "amount", ascending: true)]
                let items = try context.fetch(request)
                var total = 0.0
                for item in items { total += item.score }  // fire the faults: values read, as the raw side decodes them
                precondition(total >= 0)
                return items.count
            }
        })
    }
    guard matched.raw == matched.store else {
        print("the fetches disagree: raw \(matched.raw), store \(matched.store)")
        exit(1)
    }
    return (storeFetches, rawFetches, matched.store)
}

func report(_ name: String, store: [Double], raw: [Double], target: Double) {
    let best = (store: store.min() ?? 0, raw: raw.min() ?? 0)
    let ratio = best.store / best.raw
    print(String(format: "%@: store %.3f s, raw postgres-nio %.3f s, ratio %.2f× (target ≤ %.1f×) %@",
                 name, best.store, best.raw, ratio, target, ratio <= target ? "met" : "NOT MET"))
}
print("PostgreSQL store against raw postgres-nio, \(count) objects, best of \(runs), server \(server.host ?? "")")
report("insert + save", store: storeInserts, raw: rawInserts, target: 1.5)
let selective = try fetches(limit: Int64(count / 10), prefix: "item-1")
report("filtered fetch (\(selective.matched) objects)", store: selective.store, raw: selective.raw, target: 2)
let half = try fetches(limit: Int64(count / 2), prefix: "item-")
report("filtered fetch (\(half.matched) objects)", store: half.store, raw: half.raw, target: 2)
// The store alone (rows to snapshots, no context): where the fetch's time goes.
let snapshotsOnly = try (0..<runs).map { _ in
    try seconds {
        let request = StoreRequest(
            entity: BenchModel.managedObjectModel["Item"]!, predicate: ObjectPredicate("amount < %@ AND name BEGINSWITH %@", Int64(count / 2), "item-"),
            sortDescriptors: [ObjectSortDescriptor(key: "amount", ascending: true)], resultType: .snapshots)
        guard case .snapshots(let rows) = try coordinator.persistentStores[0].execute(request), rows.count == half.matched else { exit(1) }
    }
}
report("  of which the store's snapshots", store: snapshotsOnly, raw: half.raw, target: 2)
