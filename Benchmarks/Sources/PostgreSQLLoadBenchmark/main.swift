// PostgreSQL under load: N processes (`PostgreSQLInsertLoop`, built beside this program) each
// upsert the same number of `Item`s with codes overlapping the next process's by half, in an
// order of their own, saving every 500 with `mergeByPropertyObjectTrump`, and after each save
// add 1 to one shared `Tally` row under optimistic locking. For each N it prints the time until
// the last process's saves ended, saves and objects per second, the transactions the store ran again (deadlocks, serialization
// failures), the saves the processes ran again (133021), the p50 and p99 save latency, and
// checks every code stored exactly once and the tally equal to the additions that returned.
// Each process then waits until it has been told (LISTEN/NOTIFY) of every item the others wrote
// last: when all were is printed apart, and one that was not fails the run.
// The throughput of N processes is then given as a ratio to one process's.
//
//   export MANAGEDGEN_POSTGRES_URL=$(Scripts/postgres.sh start)
//   swift build -c release && .build/release/PostgreSQLLoadBenchmark [objects per process] [process counts…]
import Foundation
import ManagedObjects
import PostgreSQLStore
import StoreTestSupport

let model = InsertLoopModel.model

guard let server = ProcessInfo.processInfo.environment["MANAGEDGEN_POSTGRES_URL"].flatMap(URL.init(string:)) else {
    print("set MANAGEDGEN_POSTGRES_URL: export MANAGEDGEN_POSTGRES_URL=$(Scripts/postgres.sh start)")
    exit(1)
}
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let perProcess = arguments.first ?? 10_000
let processCounts = arguments.count > 1 ? Array(arguments.dropFirst()) : [1, 2, 4, 8]
let batch = 500
let insertLoop = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("PostgreSQLInsertLoop")
guard FileManager.default.isExecutableFile(atPath: insertLoop.path) else {
    print("build PostgreSQLInsertLoop beside this program first (swift build -c release)")
    exit(1)
}
PostgreSQLStore.registerStoreType()

/// What one process printed.
struct LoopReport {
    var saves = 0, conflictRetries = 0, storeRetries = 0, additions = 0
    var latencies: [Double] = []
    /// When its saves ended (seconds since 1970), and whether it then saw every other process's items.
    var savedAt: Double?
    var sawOthers = false

    init(_ printed: String) throws {
        for line in printed.split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "done": saves = Int(fields[1]) ?? 0; conflictRetries = Int(fields[2]) ?? 0
            case "store-retries": storeRetries = Int(fields[1]) ?? 0
            case "tally": additions = Int(fields[1]) ?? 0
            case "latencies": latencies = fields.dropFirst().compactMap { Double($0) }
            case "saved-at": savedAt = Double(fields[1])
            case "seen": sawOthers = true
            default: break
            }
        }
    }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

print("PostgreSQLLoadBenchmark: \(perProcess) objects a process, codes overlapping the next process's by half, saves of \(batch)")
var singleThroughput: Double?
var failed = false
for count in processCounts {
    let schema = "load_\(count)_\(UUID().uuidString.prefix(8).lowercased())"
    let url = URL(string: server.absoluteString + (server.query == nil ? "?" : "&") + "schema=\(schema)")!
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .postgreSQL, at: url)
    let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    try context.performAndWait {
        let tally = ManagedObject(entity: model["Tally"]!, insertInto: context)
        tally.setValue("shared", forKey: "name")
        tally.setValue(Int64(0), forKey: "hits")
        try context.save()
    }
    let offset = perProcess / 2
    let total = perProcess + (count - 1) * offset
    let processes = try InsertLoopProcesses(executable: insertLoop, argumentLists: (1...count).map { writer in
        [url.absoluteString, String(writer), String((writer - 1) * offset), String(perProcess), String(batch),
         String(total), "--shuffle", String(writer), "--tally"]
    })
    // Timed from when all of them listen and are told to go.
    let start = DispatchTime.now().uptimeNanoseconds
    let startedAt = Date().timeIntervalSince1970
    try processes.go()
    let finished = processes.waitForAll()
    let exits = finished.map(\.status)
    let reports = try finished.map { try LoopReport($0.printed) }
    // Throughput is of the saves: from the start to the last process's last save. Each process
    // then waits until it has been told of every item the others wrote (`seen`): timed apart.
    let untilAllSeen = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let seconds = reports.compactMap(\.savedAt).max().map { $0 - startedAt } ?? untilAllSeen
    let allSeen = reports.allSatisfy(\.sawOthers)
    let (codes, distinct, hits) = try context.performAndWait { () throws -> (Int, Int, Int64) in
        context.reset()
        let codes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "code") as? String }
        let hits = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tally")).first?.value(forKey: "hits") as? Int64
        return (codes.count, Set(codes).count, hits ?? -1)
    }
    let saves = reports.map(\.saves).reduce(0, +)
    let additions = reports.map(\.additions).reduce(0, +)
    let latencies = reports.flatMap(\.latencies).sorted()
    let objectsPerSecond = Double(count * perProcess) / seconds
    let ok = exits.allSatisfy { $0 == 0 } && allSeen && reports.allSatisfy { $0.savedAt != nil }
        && codes == total && distinct == total && hits == Int64(additions)
        && saves == count * ((perProcess + batch - 1) / batch)
    failed = failed || !ok
    if count == 1 { singleThroughput = objectsPerSecond }
    let ratio = singleThroughput.map { String(format: "%.2f× one process's", objectsPerSecond / $0) } ?? "-"
    func figure(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
    let storeRetries = reports.map(\.storeRetries).reduce(0, +)
    let conflictRetries = reports.map(\.conflictRetries).reduce(0, +)
    let checks = ok ? "every code once, tally \(hits) = additions \(additions)"
        : "FAILED: exits \(exits), all told of the others' items: \(allSeen), \(codes) codes (\(distinct) distinct, \(total) expected), tally \(hits), additions \(additions)"
    print("\(count) processes: \(figure(seconds, 2)) s, \(figure(Double(saves) / seconds)) saves/s, \(figure(objectsPerSecond, 0)) objects/s (\(ratio)); "
        + "store retries \(storeRetries), 133021 retries \(conflictRetries); "
        + "save latency p50 \(figure(percentile(latencies, 0.5))) ms, p99 \(figure(percentile(latencies, 0.99))) ms; "
        + "every process told of the others' items \(figure(untilAllSeen, 2)) s after the start; \(checks)")
}
exit(failed ? 1 : 0)
