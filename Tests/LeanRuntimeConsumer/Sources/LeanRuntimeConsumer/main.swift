// A model as Swift values (what generated code carries), an SQLite store, a save and a fetch:
// the runtime's whole path, with no model file and no libxml2.
import DataModel
import Foundation
import ManagedObjects

let model = ManagedObjectModel(Model(entities: [
    Entity(name: "Note", attributes: [
        Attribute(name: "title", type: .string, isOptional: true),
        Attribute(name: "stars", type: .integer64, isOptional: true, usesScalarValueType: true, defaultValueString: "0"),
    ]),
]))
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lean-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let container = PersistentContainer(name: "Notes", managedObjectModel: model)
container.persistentStoreDescriptions = [PersistentStoreDescription(type: .sqlite, url: directory.appendingPathComponent("Notes.sqlite"))]
try container.loadPersistentStores()
let context = container.viewContext
try context.performAndWait {
    for stars in 1...5 {
        let note = ManagedObject(entity: model["Note"]!, insertInto: context)
        note.setValue("note \(stars)", forKey: "title")
        note.setValue(stars, forKey: "stars")
    }
    try context.save()
    let request = FetchRequest<ManagedObject>(entityName: "Note")
    request.predicate = ObjectPredicate(format: "stars >= %d", 4)
    let titles = try context.fetch(request).compactMap { $0.value(forKey: "title") as? String }.sorted()
    print("Fetched \(titles.joined(separator: ", ")) from SQLite with the runtime alone")
}
