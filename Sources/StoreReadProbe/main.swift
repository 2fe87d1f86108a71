// Used only by the hostile-store tests (HostileStoreTests): opens the SQLite store at the path
// it is given with a model read from a file, reads every property of every object, and prints
// one JSON line: what happened, how long it took and the process's peak resident memory. A
// thrown error is an outcome like any other (exit 0); only a crash ends it otherwise, which is
// what running it in a process of its own catches.
//
//     StoreReadProbe <store path> <model path> <version name>
import ModelFileLoading
import Foundation
import ManagedObjects

struct Report: Codable {
    /// "read N values", or "open: CODE message", or "read: CODE message".
    var outcome: String
    var milliseconds: Double
    var peakKiB: Int
}

/// VmHWM from /proc/self/status: the peak resident set so far.
func peakKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
}

func describe(_ error: Error) -> String {
    if let error = error as? ManagedObjectError { "\(error.code.rawValue) \(error)" } else { "\(error)" }
}

/// Every property of every object of every entity, read; the number of values read.
func readEverything(through coordinator: PersistentStoreCoordinator) throws -> Int {
    let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    return try context.performAndWait {
        var read = 0
        for entity in coordinator.managedObjectModel.entities {
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                for name in entity.propertiesByName.keys {
                    // A related object is read too: a key pointing nowhere must not trap.
                    if let related = object.value(forKey: name) as? ManagedObject {
                        _ = related.entity.propertiesByName.keys.map { related.value(forKey: $0) }
                    }
                    read += 1
                }
            }
        }
        return read
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: StoreReadProbe <store path> <model path> <version name>\n".utf8))
    exit(2)
}
let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[2]), versionName: arguments[3])
let start = Date()
let outcome: String
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
do {
    try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[1]))
    do {
        outcome = "read \(try readEverything(through: coordinator)) values"
    } catch {
        outcome = "read: " + describe(error)
    }
} catch {
    outcome = "open: " + describe(error)
}
let report = Report(outcome: outcome, milliseconds: Date().timeIntervalSince(start) * 1000, peakKiB: peakKiB())
FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
