// What a Transformable `[String]` costs an SQLite store: insert + save of N objects (default
// 100,000) each with one `[String]` of 5 strings (archived by Core Data's default transformer,
// NSSecureUnarchiveFromData, into a keyed archive per object), beside the same objects keeping
// the 5 strings joined in one String attribute. Each side runs `runs` times (default 5) on a
// new store file, taking turns; the medians and their ratio are printed (goal: at most 2x).
// Five runs by default: a median of three moved by 0.3x between invocations on this shared machine.
//
//   swift run -c release TransformableBenchmark [object count] [runs]
import DataModel
import Foundation
import ManagedObjects

enum BenchModel {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Tagged", attributes: [
            Attribute(name: "tags", type: .transformable, isOptional: true, customClassName: "[String]",
                      valueTransformerName: "NSSecureUnarchiveFromData"),
        ]),
        Entity(name: "Joined", attributes: [
            Attribute(name: "tags", type: .string, isOptional: true),
        ]),
    ]))
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap { Int($0) } ?? 100_000
let runs = arguments.dropFirst().first.flatMap { Int($0) } ?? 5
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TransformableBenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

/// The 5 strings of object `number`: different per object, as real tags are.
func tags(_ number: Int) -> [String] {
    ["swift", "linux", "tag\(number % 97)", "user\(number % 1009)", "item-\(number)"]
}

/// Inserts `count` objects of `entity` on a new SQLite store and saves; the milliseconds taken
/// (opening the store not included). Checks the store then counts them all and, for the
/// Transformable side, that a new stack reads an object's strings back.
func insertAndSave(entity: String, joined: Bool) throws -> Double {
    let url = directory.appendingPathComponent("\(UUID().uuidString).sqlite")
    let container = PersistentContainer(name: "Bench", managedObjectModel: BenchModel.model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
    try container.loadPersistentStores()
    let context = container.newBackgroundContext()
    let description = BenchModel.model[entity]!
    let milliseconds = try context.performAndWait {
        let start = DispatchTime.now()
        for number in 0..<count {
            let object = ManagedObject(entity: description, insertInto: context)
            let strings = tags(number)
            object.setValue(joined ? strings.joined(separator: "\u{1F}") : strings, forKey: "tags")
        }
        try context.save()
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
    }
    let stored = try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: entity)) }
    guard stored == count else { throw Failure(description: "\(entity): \(stored) objects stored, \(count) inserted") }
    if !joined {
        // One object read back by a new stack: the archive holds the strings.
        let reader = PersistentContainer(name: "Bench", managedObjectModel: BenchModel.model)
        reader.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try reader.loadPersistentStores()
        let context = reader.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(entityName: entity)
        request.fetchLimit = 1
        let first = try context.performAndWait { try context.fetch(request).first?.value(forKey: "tags") as? [String] }
        // Object N's last string is "item-N", so the whole list is known from it.
        guard let first, let number = first.last.flatMap({ Int($0.dropFirst(5)) }), first == tags(number) else {
            throw Failure(description: "the tags did not read back: \(String(describing: first))")
        }
    }
    return milliseconds
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var transformable: [Double] = []
var joined: [Double] = []
for run in 0..<runs {
    // Taking turns going first.
    if run % 2 == 0 {
        transformable.append(try insertAndSave(entity: "Tagged", joined: false))
        joined.append(try insertAndSave(entity: "Joined", joined: true))
    } else {
        joined.append(try insertAndSave(entity: "Joined", joined: true))
        transformable.append(try insertAndSave(entity: "Tagged", joined: false))
    }
}
func format(_ milliseconds: Double) -> String { String(format: "%8.0f ms", milliseconds) }
print("insert + save of \(count) objects on SQLite, median of \(runs) runs")
print("one Transformable [String] (5 strings)    \(format(median(transformable)))   runs: \(transformable.map { String(format: "%.0f", $0) }.joined(separator: ", "))")
print("the 5 strings joined in one String        \(format(median(joined)))   runs: \(joined.map { String(format: "%.0f", $0) }.joined(separator: ", "))")
print(String(format: "ratio                                       %.2fx (goal <= 2x)", median(transformable) / median(joined)))
