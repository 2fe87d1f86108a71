// The DogWalk chapter's app without its table view: find or create the dog "Fido", record
// walks in the ordered to-many `walks`, delete one, and show that the order holds. The walks
// are kept in the container's SQLite store, so the next run finds Fido and his walks.
//
//     DogWalk [store directory]    (default: PersistentContainer.defaultDirectoryURL())
//     DogWalk -com.apple.CoreData.SQLDebug 1 [store directory]    (and log the SQL it runs)
import Foundation
import ManagedObjects

let container = PersistentContainer(name: "DogWalk", managedObjectModel: DogWalkModel.managedObjectModel)
// Launch arguments (`-com.apple.CoreData.SQLDebug 1`) are a name and a value; the rest is the directory.
var arguments = Array(CommandLine.arguments.dropFirst())
while let name = arguments.firstIndex(where: { $0.hasPrefix("-") }) {
    arguments.removeSubrange(name..<min(name + 2, arguments.count))
}
if let directoryPath = arguments.first {
    // Elsewhere than the default directory, e.g. a temporary one, as CI runs it.
    let directory = URL(fileURLWithPath: directoryPath, isDirectory: true)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("DogWalk.sqlite"))]
}
try container.loadPersistentStores()
print("Store: \(container.persistentStoreCoordinator.persistentStores.first?.url?.path ?? "?")")
let context = container.viewContext

/// The chapter's fetch-or-create: fetch the dog by name, insert it if there is none.
func currentDog(named name: String) throws -> Dog {
    let request = Dog.fetchRequest()
    request.predicate = ObjectPredicate("%K == %@", Dog.Keys.name, name)
    if let dog = try context.fetch(request).first {
        return dog
    }
    let dog = Dog(context: context)
    dog.name = name
    return dog
}

let formatter = DateFormatter()
formatter.dateFormat = "yyyy-MM-dd HH:mm"
formatter.timeZone = TimeZone(identifier: "UTC")
func show(_ dog: Dog) {
    print("\(dog.name ?? "?") has \(dog.walks.count) walks:")
    for walk in dog.walks {
        print("  - \(walk.date.map(formatter.string(from:)) ?? "?")")
    }
}

let fido = try currentDog(named: "Fido")
// This run changes only its own walks: the earlier runs' stay as they were.
let earlierWalks = fido.walks.count
if fido.isInserted {
    print("Created Fido")
} else {
    print("Found Fido, saved by an earlier run, with \(earlierWalks) walks")
    show(fido)
}

// Tapping "+" three times: each walk is appended to the ordered relationship. This run's walks
// are on the day after the last stored walk.
let start = fido.walks.last?.date.map { $0.addingTimeInterval(24 * 3600) }
    ?? Date(timeIntervalSinceReferenceDate: 780_000_000)
for hour in 0..<3 {
    let walk = Walk(context: context)
    walk.date = start.addingTimeInterval(Double(hour) * 3600)
    fido.addToWalks(walk)
}
try context.save()
show(fido)

// The generated ordered accessors: an earlier walk goes before this run's first, the last is
// replaced.
let early = Walk(context: context)
early.date = start.addingTimeInterval(-3600)
fido.insertIntoWalks(early, at: earlierWalks)
let replacement = Walk(context: context)
replacement.date = start.addingTimeInterval(5 * 3600)
fido.replaceWalks(at: fido.walks.count - 1, with: replacement)
try context.save()
print("After inserting at \(earlierWalks) and replacing the last:")
show(fido)

// Swipe to delete: remove this run's second walk from the dog and delete it.
let deleted = fido.walks[earlierWalks + 1]
context.delete(deleted)
try context.save()
print("After deleting this run's second walk (walk.dog is nil: \(deleted.dog == nil)):")
show(fido)

// Fetching again finds the same dog instead of creating another; so does the next run.
let again = try currentDog(named: "Fido")
print("Fetched Fido again: same object: \(again === fido); dogs stored: \(try Dog.count(in: context))")
print("Walks stored: \(try Walk.count(in: context))")
