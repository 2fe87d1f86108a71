// What persistent history costs on the SQLite store (issue 34's goal: insert + save with
// history on within 1.3× of history off; history off costs nothing, on costs one insert per
// transaction and one per change):
//
// - an insert of N objects saved in one save, with history off (the reference) and on;
// - fetching the history of those N changes (one transaction) through a context.
//
//   swift run -c release HistoryBenchmark [object count, default 100000] [runs, default 3]
import DataModel
import Foundation
import ManagedObjects

enum BenchModel {
    static let model = Model(entities: [
        Entity(name: "Item", representedClassName: "Item", codeGeneration: .class, attributes: [
            Attribute(name: "code", type: .string, isOptional: true),
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "amount", type: .integer64, isOptional: false, defaultValueString: "0"),
        ]),
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

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 100_000
let runs = arguments.dropFirst().first ?? 3
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("HistoryBenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func makeContainer(history: Bool) throws -> PersistentContainer {
    let container = PersistentContainer(name: "Bench", managedObjectModel: BenchModel.managedObjectModel)
    var description = PersistentStoreDescription(url: directory.appendingPathComponent("\(UUID().uuidString).sqlite"))
    description.persistentHistoryTracking = history
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    return container
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func ms(_ value: Double) -> String { String(format: "%9.1f ms", value * 1000) }

/// Inserts and saves `count` objects in a new store; the time of the inserts and the save, and
/// the container (its store kept for the history fetch).
func insertAndSave(history: Bool) throws -> (seconds: Double, container: PersistentContainer) {
    let container = try makeContainer(history: history)
    let context = container.newBackgroundContext()
    let time = try context.performAndWait {
        try seconds {
            for number in 0..<count {
                let item = Item(context: context)
                item.code = "item \(number)"
                item.name = "name \(number % 97)"
                item.amount = Int64(number)
            }
            try context.save()
        }
    }
    return (time, container)
}

print("HistoryBenchmark: \(count) objects inserted and saved in one save, SQLite store (best of \(runs))")
var off = Double.infinity
var on = Double.infinity
var fetch = Double.infinity
for _ in 0..<runs {
    // Alternated, so both sides see the same machine.
    off = min(off, try insertAndSave(history: false).seconds)
    let (time, container) = try insertAndSave(history: true)
    on = min(on, time)
    let reader = container.newBackgroundContext()
    var changes = 0
    fetch = min(fetch, try reader.performAndWait {
        try seconds {
            let transactions = try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions
            changes = transactions.reduce(0) { $0 + $1.changes.count }
        }
    })
    guard changes == count else { throw Failure(description: "the history holds \(changes) changes, not \(count)") }
}
print("insert + save, history off: \(ms(off))")
print("insert + save, history on:  \(ms(on))")
print(String(format: "ratio on/off: %.2f× (goal ≤ 1.30×)", on / off))
print("fetch the history of \(count) changes: \(ms(fetch))")
