// How much memory reading a million objects takes through ManagedObjects: in pages of 1,000
// (fetchOffset/fetchLimit, each page's objects let go before the next, as an export or a
// migration loop does), with one fetch using fetchBatchSize = 1,000, and holding them all.
// Each way runs in a process of its own (this executable with `--way NAME`): the store is
// filled, the peak resident set is reset (writing 5 to /proc/self/clear_refs), the objects are
// read, and the peak above the filled store's resident set is reported.
//
//   swift run -c release BatchMemoryBenchmark [object count] [page size]
import DataModel
import Foundation
import ManagedObjects

enum BenchModel {
    static let model = Model(entities: [
        Entity(name: "Item", representedClassName: "Item", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "amount", type: .integer64, isOptional: false, defaultValueString: "0"),
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
}

enum Way: String, CaseIterable {
    case pages, batchSize, holdAll

    var label: String {
        switch self {
        case .pages: "pages of fetchLimit, objects let go"
        case .batchSize: "one fetch, fetchBatchSize"
        case .holdAll: "one fetch, all held"
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

func statusKiB(_ field: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        if let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            return value
        }
    }
    throw Failure(description: "/proc/self/status has no \(field) line")
}

/// One way in this process: prints "<peak above the filled store in KiB> <seconds> <sum>".
func run(_ way: Way, count: Int, pageSize: Int) throws {
    let container = PersistentContainer(name: "Batch", managedObjectModel: BenchModel.managedObjectModel)
    container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
    try container.loadPersistentStores()
    let context = container.newBackgroundContext()
    try context.performAndWait {
        // Filled in saves of 10,000, the inserting context emptied after each.
        for start in stride(from: 0, to: count, by: 10_000) {
            for number in start..<min(count, start + 10_000) {
                let item = Item(context: context)
                item.name = "item \(number)"
                item.amount = Int64(number % 97)
            }
            try context.save()
            context.reset()
        }
    }
    let filled = try statusKiB("VmRSS")
    try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let reader = container.newBackgroundContext()
    let started = Date()
    let sum: Int64 = try reader.performAndWait {
        var sum: Int64 = 0
        switch way {
        case .pages:
            for offset in stride(from: 0, to: count, by: pageSize) {
                let request = FetchRequest<Item>(entityName: "Item")
                request.fetchOffset = offset
                request.fetchLimit = pageSize
                for item in try reader.fetch(request) { sum += item.amount }
            }
        case .batchSize:
            let request = FetchRequest<Item>(entityName: "Item")
            request.fetchBatchSize = pageSize
            for item in try reader.fetch(request) { sum += item.amount }
        case .holdAll:
            let items = try reader.fetch(FetchRequest<Item>(entityName: "Item"))
            for item in items { sum += item.amount }
            withExtendedLifetime(items) {}
        }
        return sum
    }
    let seconds = Date().timeIntervalSince(started)
    let peak = try statusKiB("VmHWM")
    print(peak - filled, seconds, sum)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--way", arguments.count >= 4, let way = Way(rawValue: arguments[1]),
       let count = Int(arguments[2]), let pageSize = Int(arguments[3]) {
        try run(way, count: count, pageSize: pageSize)
        exit(0)
    }
    let count = arguments.first.flatMap(Int.init) ?? 1_000_000
    let pageSize = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
    print("BatchMemoryBenchmark: \(count.formatted()) objects (2 attributes) in the in-memory store, read in pages of \(pageSize.formatted())")
    print("each way in its own process; memory: peak resident set (VmHWM, reset once the store is filled) above the filled store's resident set\n")
    var results: [Way: (kib: Int, seconds: Double, sum: String)] = [:]
    for way in Way.allCases {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--way", way.rawValue, String(count), String(pageSize)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard process.terminationStatus == 0, fields.count == 3, let kib = Int(fields[0]), let seconds = Double(fields[1]) else {
            throw Failure(description: "the \(way.rawValue) process failed (status \(process.terminationStatus))")
        }
        results[way] = (kib, seconds, fields[2])
    }
    guard Set(results.values.map(\.sum)).count == 1 else { throw Failure(description: "the ways read different sums") }
    let held = Double(results[.holdAll]!.kib)
    for way in Way.allCases {
        let result = results[way]!
        let share = String(format: "%5.1f%%", Double(result.kib) / held * 100)
        print(way.label.padding(toLength: 40, withPad: " ", startingAt: 0),
              String(format: "%8.1f MiB  %@ of holding all  %6.2f s", Double(result.kib) / 1024, share, result.seconds))
    }
} catch {
    FileHandle.standardError.write(Data("BatchMemoryBenchmark: \(error)\n".utf8))
    exit(1)
}
