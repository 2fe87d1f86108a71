// Used only by the crash-safety test (SQLiteCrashSafetyTests): opens the SQLite store at the
// path it is given and saves batches until it is killed. Each save inserts `batchSize` entries
// carrying the batch's sequence number; the number is written to stdout once `save()` has
// returned, so the test knows which saves a crash must not lose.
//
//     StoreSaveLoop <store path> <first sequence number>
//     StoreSaveLoop atomic <Binary|XML> <store path> <first sequence number>   (AtomicStoreTests)
//     StoreSaveLoop migrate <store path>      (SQLiteMigrationCrashTests: see MigrationMode.swift)
import DataModel
import Foundation
import ManagedObjects

/// Mirrors `SaveLoopModel` in the tests, which reads the file this writes.
let model = ManagedObjectModel(Model(entities: [
    Entity(name: "Entry", attributes: [
        Attribute(name: "batch", type: .integer64, isOptional: true),
        Attribute(name: "item", type: .integer64, isOptional: true),
    ]),
]))
let batchSize = 8

let arguments = CommandLine.arguments
// The migration mode (MigrationMode.swift), for the migration crash test.
if arguments.count == 3, arguments[1] == "migrate" {
    try runMigration(storePath: arguments[2])
    exit(0)
}
// The atomic-store mode (AtomicStoreTests): the same loop on a binary or XML store.
let isAtomic = arguments.count == 5 && arguments[1] == "atomic"
let storeType = isAtomic ? PersistentStoreType(rawValue: arguments[2]) : .sqlite
let storeArguments = Array(arguments.dropFirst(isAtomic ? 3 : 1))
guard storeArguments.count == 2, let firstSequence = Int64(storeArguments[1]) else {
    FileHandle.standardError.write(Data("usage: StoreSaveLoop [atomic Binary|XML] <store path> <first sequence number>\n".utf8))
    exit(2)
}

/// Unbuffered, so that a line the test reads was written before the kill.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: storeType, at: URL(fileURLWithPath: storeArguments[0]))
let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
report("open")
try context.performAndWait {
    var sequence = firstSequence
    while true {
        for item in 0..<batchSize {
            let entry = ManagedObject(entity: model["Entry"]!, insertInto: context)
            entry.setValue(sequence, forKey: "batch")
            entry.setValue(Int64(item), forKey: "item")
        }
        try context.save()
        report(String(sequence))
        context.reset()
        sequence += 1
    }
}
