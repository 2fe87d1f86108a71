// Used only by PostgreSQLTwoProcessTests: one of two processes inserting into one PostgreSQL
// database at the same time. It inserts the items numbered `first..<first + count`, in saves of
// `batch`, each item's `code` constrained unique; the other process inserts an overlapping
// range. The merge policy upserts a code already stored; a code the other process stored between
// this one's check and its save fails the save (133021, from the unique index), which is saved
// again (the check then finds it). Prints `done <saves> <retries>`.
//
// It observes the other process's saves (LISTEN/NOTIFY) meanwhile: once the store holds
// `total` items, every item whose last writer is the other process must have been announced
// to it as inserted or updated. Prints `seen <items>` then, or `unseen <items>` after 60 s.
//
// With a seed, the items are inserted in an order shuffled by it (the codes of a save, and the
// saves, meet the other process's in no common order: the interleaving that deadlocked).
//
//     PostgreSQLInsertLoop <url> <writer> <first> <count> <batch> <total> [<shuffle seed>]
import Foundation
import ManagedObjects
import PostgreSQLStore

/// Mirrors `TwoProcessModel` in the tests, which read what both processes wrote.
let model = ManagedObjectModel(Model(entities: [
    Entity(
        name: "Item",
        attributes: [
            Attribute(name: "code", type: .string, isOptional: true),
            Attribute(name: "writer", type: .integer64, isOptional: true),
        ],
        uniquenessConstraints: [["code"]]),
]))

let arguments = CommandLine.arguments
guard arguments.count == 7 || arguments.count == 8, let url = URL(string: arguments[1]), let writer = Int64(arguments[2]),
      let first = Int(arguments[3]), let count = Int(arguments[4]), let batch = Int(arguments[5]), batch > 0,
      let total = Int(arguments[6]), arguments.count == 7 || UInt64(arguments[7]) != nil else {
    FileHandle.standardError.write(Data("usage: PostgreSQLInsertLoop <url> <writer> <first> <count> <batch> <total> [<shuffle seed>]\n".utf8))
    exit(2)
}
var numbers = Array(first..<first + count)
if arguments.count == 8 {
    var generator = SplitMix64(seed: UInt64(arguments[7])!)
    numbers.shuffle(using: &generator)
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
let coordinator = container.persistentStoreCoordinator
let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
context.mergePolicy = .mergeByPropertyObjectTrump
var retries = 0
var saves = 0
try context.performAndWait {
    for start in stride(from: 0, to: count, by: batch) {
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
        saves += 1
        context.reset()
    }
}
print("done \(saves) \(retries)")

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
