// What parent/child contexts and merge policies cost, on the in-memory and the SQLite store:
//
// - an import saved by one background context (the reference), against the same import made
//   in a child context, pushed into its parent and saved by the parent;
// - an upsert: importing objects whose uniqueness-constraint values are all stored already,
//   under mergeByPropertyObjectTrump (each becomes an update of the stored object), against
//   the plain import of as many new objects.
//
//   swift run -c release ContextBenchmark [object count]
import DataModel
import Foundation
import ManagedObjects

enum BenchModel {
    static let model = Model(entities: [
        Entity(name: "Item", representedClassName: "Item", codeGeneration: .class, attributes: [
            Attribute(name: "code", type: .string, isOptional: true),
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "amount", type: .integer64, isOptional: false, defaultValueString: "0"),
        ], uniquenessConstraints: [["code"]]),
    ])
    static let managedObjectModel = ManagedObjectModel(model, classes: ["Item": Item.self])
}

final class Item: ManagedObject {
    override class var entityName: String { "Item" }
    var code: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }
    var name: String? {
        get { attributeValue(at: 1) }
        set { setAttributeValue(newValue, at: 1) }
    }
    var amount: Int64 {
        get { attributeValue(at: 2) ?? 0 }
        set { setAttributeValue(newValue, at: 2) }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ContextBenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func makeContainer(sqlite: Bool) throws -> PersistentContainer {
    let container = PersistentContainer(name: "Bench", managedObjectModel: BenchModel.managedObjectModel)
    container.persistentStoreDescriptions = sqlite
        ? [PersistentStoreDescription(url: directory.appendingPathComponent("\(UUID().uuidString).sqlite"))]
        : [PersistentStoreDescription(type: .inMemory)]
    try container.loadPersistentStores()
    return container
}

func insertItems(_ context: ManagedObjectContext, codes: Range<Int>, name: String) {
    for number in codes {
        let item = Item(context: context)
        item.code = "item \(number)"
        item.name = name
        item.amount = Int64(number)
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func storedCount(_ container: PersistentContainer) throws -> Int {
    let reader = container.newBackgroundContext()
    return try reader.performAndWait { try reader.count(for: FetchRequest<Item>(entityName: "Item")) }
}

func ms(_ value: Double) -> String { String(format: "%8.1f ms", value * 1000) }

print("ContextBenchmark: \(count) objects per import (best of 3)")
for sqlite in [false, true] {
    print("\n\(sqlite ? "SQLite" : "in-memory") store")
    var direct = Double.infinity, throughChild = Double.infinity, plain = Double.infinity, upsert = Double.infinity
    for _ in 0..<3 {
        // The reference: one background context inserts and saves.
        let container = try makeContainer(sqlite: sqlite)
        let context = container.newBackgroundContext()
        direct = min(direct, try seconds {
            try context.performAndWait {
                insertItems(context, codes: 0..<count, name: "direct")
                try context.save()
            }
        })
        guard try storedCount(container) == count else { throw Failure(description: "direct import stored a wrong count") }

        // A child inserts and saves into its parent, which saves to the store.
        let childContainer = try makeContainer(sqlite: sqlite)
        let parent = childContainer.newBackgroundContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        throughChild = min(throughChild, try seconds {
            try child.performAndWait {
                insertItems(child, codes: 0..<count, name: "child")
                try child.save()
            }
            try parent.performAndWait { try parent.save() }
        })
        guard try storedCount(childContainer) == count else { throw Failure(description: "child import stored a wrong count") }

        // Plain import of new codes, then an upsert of codes all stored already.
        let upserting = container.newBackgroundContext()
        upserting.mergePolicy = .mergeByPropertyObjectTrump
        plain = min(plain, try seconds {
            try upserting.performAndWait {
                insertItems(upserting, codes: count..<2 * count, name: "new")
                try upserting.save()
                upserting.reset()
            }
        })
        upsert = min(upsert, try seconds {
            try upserting.performAndWait {
                insertItems(upserting, codes: 0..<count, name: "upserted")
                try upserting.save()
                upserting.reset()
            }
        })
        guard try storedCount(container) == 2 * count else { throw Failure(description: "the upsert inserted duplicates") }
    }
    print("  import, one context (reference) \(ms(direct))")
    print("  import, child pushed to parent  \(ms(throughChild))   ratio \(String(format: "%.2f", throughChild / direct))×")
    print("  insert of new objects           \(ms(plain))")
    print("  upsert of stored objects        \(ms(upsert))   ratio \(String(format: "%.2f", upsert / plain))×")
}
