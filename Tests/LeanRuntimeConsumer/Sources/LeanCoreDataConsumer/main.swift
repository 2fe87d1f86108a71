// Core Data-style code on the lean CoreData module (the ModelFiles trait off): the model comes
// as Swift values, as generated code carries it, through Core Data's own initializer.
import CoreData
import DataModel

let model = NSManagedObjectModel(Model(entities: [
    Entity(name: "Note", attributes: [Attribute(name: "title", type: .string, isOptional: true)]),
]))
let container = NSPersistentContainer(name: "Notes", managedObjectModel: model)
container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
container.loadPersistentStores { _, error in
    if let error { fatalError("\(error)") }
}
let context = container.viewContext
try context.performAndWait {
    let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
    note.setValue("lean", forKey: "title")
    try context.save()
    let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
    request.predicate = NSPredicate(format: "title == %@", "lean")
    print("CoreData without model files fetched \(try context.count(for: request)) note")
}
// Without the trait, a container looked up by name says why it has no model.
NSPersistentContainer(name: "Notes").loadPersistentStores { _, error in
    print(error.map { "\($0)" } ?? "no error")
}
