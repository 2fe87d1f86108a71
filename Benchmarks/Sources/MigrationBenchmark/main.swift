// Lightweight migration of an SQLite store: a store of N objects (default 100,000) written with
// v1, opened with v2, which renames one attribute (`name` → `title`, by renaming identifier)
// and adds one (`flag`, required, default NO). Prints the median time of the migration (the
// container's load, which finds the version, migrates into a new file and swaps it in) beside
// the median time of copying the store file, the floor any migration into a new file pays.
//
//   swift run -c release MigrationBenchmark [object count] [runs]
import DataModel
import Foundation
import ManagedObjects

let arguments = Array(CommandLine.arguments.dropFirst())
let objectCount = arguments.first.flatMap(Int.init) ?? 100_000
let runs = arguments.dropFirst().first.flatMap(Int.init) ?? 5

let v1 = ManagedObjectModel(Model(entities: [
    Entity(name: "Entry", attributes: [
        Attribute(name: "name", type: .string),
        Attribute(name: "count", type: .integer64),
        Attribute(name: "created", type: .date, isOptional: true),
        Attribute(name: "note", type: .string, isOptional: true),
    ]),
]))
let v2 = ManagedObjectModel(Model(entities: [
    Entity(name: "Entry", attributes: [
        Attribute(name: "title", type: .string, renamingIdentifier: "name"),
        Attribute(name: "count", type: .integer64),
        Attribute(name: "created", type: .date, isOptional: true),
        Attribute(name: "note", type: .string, isOptional: true),
        Attribute(name: "flag", type: .boolean, defaultValueString: "NO"),
    ]),
]))
let versions = ManagedObjectModelVersions(versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MigrationBenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func container(_ model: ManagedObjectModel, at url: URL) throws -> PersistentContainer {
    let container = PersistentContainer(name: "Benchmark", managedObjectModel: model)
    var description = PersistentStoreDescription(url: url)
    description.modelVersions = versions
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    return container
}

// The v1 store, written once through the runtime and closed (its WAL checkpointed into the file).
let template = directory.appendingPathComponent("template.sqlite")
do {
    let context = try container(v1, at: template).newBackgroundContext()
    try context.performAndWait {
        let entity = v1["Entry"]!
        for number in 0..<objectCount {
            let entry = ManagedObject(entity: entity, insertInto: context)
            entry.setValue("entry \(number)", forKey: "name")
            entry.setValue(Int64(number), forKey: "count")
            entry.setValue(Date(timeIntervalSinceReferenceDate: Double(number)), forKey: "created")
            if number % 3 == 0 { entry.setValue("note \(number)", forKey: "note") }
        }
        try context.save()
    }
}
let templateSize = (try FileManager.default.attributesOfItem(atPath: template.path)[.size] as? Int) ?? 0

func copyStore(to url: URL) throws {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: template.path + suffix) {
        try FileManager.default.copyItem(atPath: template.path + suffix, toPath: url.path + suffix)
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

var copyTimes: [Double] = []
var migrationTimes: [Double] = []
let store = directory.appendingPathComponent("store.sqlite")
for _ in 0..<runs {
    let copyStart = Date()
    try copyStore(to: store)
    copyTimes.append(Date().timeIntervalSince(copyStart))

    let start = Date()
    let context = try container(v2, at: store).newBackgroundContext()
    migrationTimes.append(Date().timeIntervalSince(start))
    // Checked outside the timing: every object is there with its renamed and added values.
    let request = FetchRequest<ManagedObject>(entityName: "Entry")
    request.predicate = ObjectPredicate("title BEGINSWITH %@ AND flag == NO", "entry ")
    let migrated = try context.performAndWait { try context.count(for: request) }
    guard migrated == objectCount else {
        FileHandle.standardError.write(Data("migrated store has \(migrated) of \(objectCount) objects\n".utf8))
        exit(1)
    }
}

let copy = median(copyTimes)
let migration = median(migrationTimes)
print("MigrationBenchmark: \(objectCount) objects, store file \(templateSize / 1024) KiB, median of \(runs) runs")
print(String(format: "  copy of the store file (floor):        %8.1f ms", copy * 1000))
print(String(format: "  migration v1 → v2 (rename + add):     %8.1f ms   (%.1f× the copy)", migration * 1000, migration / copy))
