// Used only by PostgreSQLTwoProcessTests: one of two processes inserting into one PostgreSQL
// database at the same time. It inserts the items numbered `first..<first + count`, in saves of
// `batch`, each item's `code` constrained unique; the other process inserts an overlapping
// range. The merge policy upserts a code already stored; a code the other process stored between
// this one's check and its save fails the save (133021, from the unique index), which is saved
// again (the check then finds it). Prints `done <saves> <retries>`.
//
//     PostgreSQLInsertLoop <url> <writer> <first> <count> <batch>
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
guard arguments.count == 6, let url = URL(string: arguments[1]), let writer = Int64(arguments[2]),
      let first = Int(arguments[3]), let count = Int(arguments[4]), let batch = Int(arguments[5]), batch > 0 else {
    FileHandle.standardError.write(Data("usage: PostgreSQLInsertLoop <url> <writer> <first> <count> <batch>\n".utf8))
    exit(2)
}

let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
coordinator.addPersistentStore(try PostgreSQLStore(model: model, url: url))
let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
context.mergePolicy = .mergeByPropertyObjectTrump
var retries = 0
var saves = 0
try context.performAndWait {
    for start in stride(from: first, to: first + count, by: batch) {
        for number in start..<min(start + batch, first + count) {
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
