// `managedgen export` of a large store: time and peak memory. A store of <count> Items (a
// string, an integer, a double, a date, 16 bytes of binary data, a to-one to one of 1,000
// Owners, whose to-many lists their items) is made with the runtime; then the export runs in a
// process of its own (this executable with `--export …`), through the same code as
// `managedgen export` (StoreTools' StoreExporter), into a file; the child reports its time and
// its peak resident set (VmHWM), and the output is checked: one line per object (jsonl), or a
// header and a line each (csv), or an array of them (json).
//
//   swift run -c release ExportBenchmark [object count, default 1000000] [format: jsonl, json, csv]
import Foundation
import ManagedObjects
import ModelFileLoading
import StoreTools

struct Failure: Error, CustomStringConvertible {
    var description: String
}

let modelContents = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Owner" representedClassName="Owner" syncable="YES" codeGenerationType="class">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
        </entity>
        <entity name="Item" representedClassName="Item" syncable="YES" codeGenerationType="class">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="amount" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="price" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            <attribute name="payload" optional="YES" attributeType="Binary"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
        </entity>
    </model>
    """

func statusKiB(_ field: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        if let value = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") { return value }
    }
    throw Failure(description: "/proc/self/status has no \(field) line")
}

/// Writes the model bundle and a store of `count` items into `folder`.
func makeStore(in folder: URL, count: Int) throws -> (store: URL, bundle: URL) {
    let bundle = folder.appendingPathComponent("Export.xcdatamodeld")
    let version = bundle.appendingPathComponent("Export.xcdatamodel")
    try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
    try modelContents.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
    let model = try ManagedObjectModel(contentsOf: bundle)
    let store = folder.appendingPathComponent("Export.sqlite")
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .sqlite, at: store)
    let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    try context.performAndWait {
        let ownerEntity = try model["Owner"].orThrow("Owner"), itemEntity = try model["Item"].orThrow("Item")
        var owners: [ManagedObjectID] = []
        for number in 0..<1000 {
            let owner = ManagedObject(entity: ownerEntity, insertInto: context)
            owner.setValue("owner \(number)", forKey: "name")
            try context.obtainPermanentIDs(for: [owner])
            owners.append(owner.objectID)
        }
        try context.save()
        context.reset()
        // Saves of 10,000, the context emptied after each.
        for start in stride(from: 0, to: count, by: 10_000) {
            for number in start..<min(count, start + 10_000) {
                let item = ManagedObject(entity: itemEntity, insertInto: context)
                item.setValue("item \(number), \"quoted\"", forKey: "name")
                item.setValue(Int64(number), forKey: "amount")
                item.setValue(Double(number) / 7, forKey: "price")
                item.setValue(Date(timeIntervalSinceReferenceDate: Double(number)), forKey: "created")
                item.setValue(Data((0..<16).map { UInt8(truncatingIfNeeded: number &+ $0) }), forKey: "payload")
                item.setValue(try context.existingObject(with: owners[number % owners.count]), forKey: "owner")
            }
            try context.save()
            context.reset()
        }
    }
    try coordinator.remove(coordinator.persistentStores[0])
    return (store, bundle)
}

extension Optional {
    func orThrow(_ what: String) throws -> Wrapped {
        guard let self else { throw Failure(description: "no \(what)") }
        return self
    }
}

/// The child: exports and prints "<seconds> <peak KiB> <objects>".
func exportInThisProcess(store: String, bundle: String, format: ExportFormat, output: String) throws {
    let start = Date()
    let summary = try ExportCommand.export(StoreExporter(storeAt: store, bundle: bundle, format: format), toFile: output)
    let seconds = Date().timeIntervalSince(start)
    print("\(seconds) \(try statusKiB("VmHWM")) \(summary.total)")
}

/// Lines of the export that are objects.
func objectLines(in path: String, format: ExportFormat) throws -> Int {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(description: "cannot read \(path)") }
    defer { try? handle.close() }
    var lines = 0
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        lines += chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
    return switch format {
    case .jsonl: lines
    case .csv: lines - 1
    case .json: lines - 2
    }
}

let arguments = CommandLine.arguments
do {
    if arguments.count == 6, arguments[1] == "--export" {
        try exportInThisProcess(
            store: arguments[2], bundle: arguments[3], format: try ExportFormat(rawValue: arguments[4]).orThrow("format \(arguments[4])"),
            output: arguments[5])
        exit(0)
    }
    let count = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
    let format = try ExportFormat(rawValue: arguments.count > 2 ? arguments[2] : "jsonl").orThrow("format")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ExportBenchmark-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let made = Date()
    let (store, bundle) = try makeStore(in: folder, count: count)
    let storeBytes = (try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
    print("store: \(count) items + 1,000 owners, \(storeBytes / 1_048_576) MiB, made in \(String(format: "%.1f", Date().timeIntervalSince(made))) s")

    let output = folder.appendingPathComponent("export.\(format.rawValue)").path
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--export", store.path, bundle.path, format.rawValue, output]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    guard child.terminationStatus == 0 else { throw Failure(description: "the export process failed (\(child.terminationStatus))") }
    let fields = report.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
    guard fields.count == 3, let seconds = Double(fields[0]), let peak = Int(fields[1]), let objects = Int(fields[2]) else {
        throw Failure(description: "the export process printed \(report)")
    }
    let outputBytes = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
    let lines = try objectLines(in: output, format: format)
    guard objects == count + 1000, lines == objects else {
        throw Failure(description: "exported \(objects) objects in \(lines) lines, expected \(count + 1000)")
    }
    print("export (\(format.rawValue)): \(objects) objects, \(outputBytes / 1_048_576) MiB written")
    print(String(format: "time %.2f s (%.0f objects/s), peak RSS (VmHWM) %.1f MiB", seconds, Double(objects) / seconds, Double(peak) / 1024))
} catch {
    FileHandle.standardError.write(Data("ExportBenchmark: \(error)\n".utf8))
    exit(1)
}
