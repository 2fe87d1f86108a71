// One of several processes writing into one PostgreSQL database at the same time, for
// PostgreSQLTwoProcessTests and PostgreSQLLoadBenchmark. It inserts the items numbered
// `first..<first + count`, in saves of `batch`, each item's `code` constrained unique; the other
// processes insert overlapping ranges. The merge policy upserts a code already stored, inside
// the store's transaction while it holds the save's codes, so another process cannot store one
// in between; a 133021 that still reaches the loop (it should not) is counted and saved again.
//
// Options: `--shuffle <seed>` inserts the items in an order shuffled by the seed (the codes of a
// save, and the saves, meet the other processes' in no common order: the interleaving that
// deadlocked); `--tally` also adds 1 to the shared `Tally` row named "shared" after each save, in
// a context of its own with the default merge policy (a stale version fails with 133020: it
// refreshes and adds again), and counts the additions that returned. `--start-on-go` prints
// `listening` once it observes the others' saves and starts on a line from standard input.
//
// Prints `done <saves> <133021 retries>`, `store-retries <n>` (transactions the store ran again,
// counted from its debug log), `tally <additions>` with --tally, `latencies <ms>…` (each
// save's) and `saved-at <seconds since 1970>` (when its saves ended). It observes the other processes' saves (LISTEN/NOTIFY) meanwhile: once the store
// holds `total` items, every item whose last writer is another process must have been announced
// to it as inserted or updated. Prints `seen <items>` then, or `unseen <items>` after 60 s.
//
//     PostgreSQLInsertLoop <url> <writer> <first> <count> <batch> <total> [--shuffle <seed>] [--tally] [--start-on-go]
import Foundation
import Logging
import ManagedObjects
import PostgreSQLStore
import StoreTestSupport

let model = InsertLoopModel.model

let usage = "usage: PostgreSQLInsertLoop <url> <writer> <first> <count> <batch> <total> [--shuffle <seed>] [--tally] [--start-on-go]\n"
var arguments = Array(CommandLine.arguments.dropFirst())
var shuffleSeed: UInt64?
var tallies = false
var startsOnGo = false
while let option = arguments.last(where: { $0.hasPrefix("--") }), let position = arguments.lastIndex(of: option) {
    switch option {
    case "--tally":
        tallies = true
        arguments.remove(at: position)
    case "--start-on-go":
        startsOnGo = true
        arguments.remove(at: position)
    case "--shuffle" where position + 1 < arguments.count && UInt64(arguments[position + 1]) != nil:
        shuffleSeed = UInt64(arguments[position + 1])
        arguments.removeSubrange(position...(position + 1))
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
}
guard arguments.count == 6, let url = URL(string: arguments[0]), let writer = Int64(arguments[1]),
      let first = Int(arguments[2]), let count = Int(arguments[3]), let batch = Int(arguments[4]), batch > 0,
      let total = Int(arguments[5]) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
var numbers = Array(first..<first + count)
if let shuffleSeed {
    var generator = SplitMix64(seed: shuffleSeed)
    numbers.shuffle(using: &generator)
}
let storeRetries = RetryCount()
LoggingSystem.bootstrap { label -> any LogHandler in
    label == "ManagedObjects.PostgreSQLStore.transactions" ? RetryCountingHandler(count: storeRetries) : SwiftLogNoOpLogHandler()
}

// A container, as a server process has, its store description naming the database.
PostgreSQLStore.registerStoreType()
let container = PersistentContainer(name: "Items", managedObjectModel: model)
container.persistentStoreDescriptions = [PersistentStoreDescription(type: .postgreSQL, url: url)]
try container.loadPersistentStores()
guard let store = container.persistentStoreCoordinator.persistentStores.first as? PostgreSQLStore else {
    FileHandle.standardError.write(Data("the container has no PostgreSQL store\n".utf8))
    exit(1)
}
/// The IDs the other process's saves announced.
let announced = LockedIDs()
try store.startObservingRemoteChanges { changes in announced.add(changes.inserted + changes.updated) }
if startsOnGo {
    // The other processes start saving once every one of them listens (InsertLoopProcesses).
    // Written straight to the pipe: `print` would keep it in its buffer.
    FileHandle.standardOutput.write(Data("listening\n".utf8))
    _ = readLine()
}
let coordinator = container.persistentStoreCoordinator
let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
context.mergePolicy = .mergeByPropertyObjectTrump
var retries = 0
var saves = 0
var latencies: [Double] = []
var additions = 0
let tallyContext = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
try context.performAndWait {
    for start in stride(from: 0, to: count, by: batch) {
        let started = Date()
        for number in numbers[start..<min(start + batch, count)] {
            let item = ManagedObject(entity: model["Item"]!, insertInto: context)
            item.setValue("item-\(number)", forKey: "code")
            item.setValue(writer, forKey: "writer")
        }
        var attempts = 0
        while true {
            do {
                try context.save()
                break
            } catch let error as ManagedObjectError where error.code == .constraintConflict && attempts < 20 {
                attempts += 1
                retries += 1
            }
        }
        latencies.append(Date().timeIntervalSince(started) * 1000)
        saves += 1
        context.reset()
        if tallies { additions += try addToTally() }
    }
}

/// Adds 1 to the shared tally under optimistic locking: 1 when an addition returned.
func addToTally() throws -> Int {
    try tallyContext.performAndWait {
        for _ in 0..<50 {
            let request = FetchRequest<ManagedObject>(entityName: "Tally")
            request.predicate = ObjectPredicate("name == %@", "shared")
            guard let tally = try tallyContext.fetch(request).first else { return 0 }
            tally.setValue((tally.value(forKey: "hits") as? Int64 ?? 0) + 1, forKey: "hits")
            do {
                try tallyContext.save()
                return 1
            } catch let error as ManagedObjectError where error.code == .mergeConflict {
                tallyContext.reset()
            }
        }
        return 0
    }
}
print("done \(saves) \(retries)")
print("store-retries \(storeRetries.value)")
if tallies { print("tally \(additions)") }
print("latencies " + latencies.map { String(format: "%.1f", $0) }.joined(separator: " "))
// When this process's saves (and additions) ended, before it waits to see the others': the load
// benchmark's throughput is of the saves alone.
print(String(format: "saved-at %.6f", Date().timeIntervalSince1970))

let deadline = Date().addingTimeInterval(60)
var unseen = -1
while Date() < deadline {
    let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    let (stored, byOther) = try reader.performAndWait { () throws -> (Int, [ManagedObjectID]) in
        let all = FetchRequest<ManagedObject>(entityName: "Item")
        let others = FetchRequest<ManagedObject>(entityName: "Item")
        others.predicate = ObjectPredicate("writer != %@", writer)
        return (try reader.count(for: all), try reader.fetch(others).map(\.objectID))
    }
    if stored == total {
        let seen = announced.all
        unseen = byOther.filter { !seen.contains($0) }.count
        if unseen == 0 {
            print("seen \(byOther.count)")
            exit(0)
        }
    }
    Thread.sleep(forTimeInterval: 0.2)
}
print("unseen \(unseen)")

/// IDs collected on the observer's queue, read on the main thread.
final class LockedIDs: @unchecked Sendable {
    // Unchecked: `ids` is only touched under `lock`.
    private let lock = NSLock()
    private var ids: Set<ManagedObjectID> = []
    func add(_ more: [ManagedObjectID]) { lock.withLock { ids.formUnion(more) } }
    var all: Set<ManagedObjectID> { lock.withLock { ids } }
}

/// A seeded generator, so that a run's order can be made again.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Transactions the store ran again, as its debug log told.
final class RetryCount: @unchecked Sendable {
    // Unchecked: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Counts the store's "transaction run again" messages.
struct RetryCountingHandler: LogHandler {
    let count: RetryCount
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { count.add() }
}
