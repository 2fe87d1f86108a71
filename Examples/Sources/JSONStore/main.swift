// Core Data code over a custom store: notes kept in a JSON file by JSONFileStore (an
// NSIncrementalStore subclass), with the classes the build plugin generates from Notes.xcdatamodeld.
// Each run adds two notes to the notebook "Ideas" and pins the oldest; run it again on the same
// directory and it finds what the earlier runs saved.
//
//     JSONStore [directory]    (default: the current directory; the file is Notes.json)
import CoreData
import Foundation

JSONFileStore.register()
let directory = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0, isDirectory: true) }
    ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
let storeURL = directory.appendingPathComponent("Notes.json")

let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NotesModel.managedObjectModel)
try coordinator.addPersistentStore(ofType: JSONFileStore.type, configurationName: nil, at: storeURL, options: nil)
print("Store: \(storeURL.lastPathComponent), type \(JSONFileStore.type)")

let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
context.persistentStoreCoordinator = coordinator

// Find or create the notebook.
let notebooks = NSFetchRequest<Notebook>(entityName: "Notebook")
notebooks.predicate = NSPredicate(format: "name == %@", "Ideas")
let notebook: Notebook
if let found = try context.fetch(notebooks).first {
    notebook = found
    print("Found notebook Ideas, saved by an earlier run, with \(found.notes?.count ?? 0) notes")
} else {
    notebook = Notebook(context: context)
    notebook.name = "Ideas"
    print("Created notebook Ideas")
}

// Two new notes, one minute apart, after the notes already there.
let earlier = notebook.notes?.count ?? 0
let run = earlier / 2 + 1
for (offset, title) in ["Buy milk", "Call Ada"].enumerated() {
    let note = Note(context: context)
    note.title = "\(title) (run \(run))"
    note.created = Date(timeIntervalSinceReferenceDate: 780_000_000 + Double(earlier + offset) * 60)
    note.notebook = notebook
}
try context.save()

// Read back in a new context: the notes come from the store (newValuesForObject), the
// notebook's notes through newValue(forRelationship:).
let reader = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
reader.persistentStoreCoordinator = coordinator
let notes = NSFetchRequest<Note>(entityName: "Note")
notes.predicate = NSPredicate(format: "notebook.name == %@", "Ideas")
notes.sortDescriptors = [NSSortDescriptor(key: "created", ascending: true)]
let fetched = try reader.fetch(notes)
if let oldest = fetched.first, !oldest.pinned {
    oldest.pinned = true
    try reader.save()
}
print("Notes in Ideas, oldest first:")
for note in fetched {
    print("  - \(note.title ?? "?")\(note.pinned ? " (pinned)" : "")")
}
let stored = try reader.count(for: NSFetchRequest<Note>(entityName: "Note"))
let inNotebook = (reader.object(with: notebook.objectID) as? Notebook)?.notes?.count ?? 0
print("Notes stored: \(stored); in the notebook: \(inNotebook)")
