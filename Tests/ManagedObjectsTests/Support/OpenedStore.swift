import Foundation
@testable import ManagedObjects

/// A store file opened with one model version and never migrated (a migration test's result,
/// or its source before), with the fetches and counts its assertions make.
struct OpenedStore {
    let container: PersistentContainer
    let context: ManagedObjectContext

    init(_ url: URL, model: ManagedObjectModel, name: String) throws {
        container = PersistentContainer(name: name, managedObjectModel: model)
        var description = PersistentStoreDescription(url: url)
        // The store is of this version already: opening must not migrate it.
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        context = container.newBackgroundContext()
    }

    func fetch(_ entityName: String, _ predicate: ObjectPredicate? = nil) throws -> [ManagedObject] {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        request.predicate = predicate
        return try context.performAndWait { try context.fetch(request) }
    }

    func count(_ entityName: String, _ predicate: ObjectPredicate? = nil, includesSubentities: Bool = true) throws -> Int {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        request.predicate = predicate
        request.includesSubentities = includesSubentities
        return try context.performAndWait { try context.count(for: request) }
    }

    func close() throws {
        for store in container.persistentStoreCoordinator.persistentStores { try container.persistentStoreCoordinator.remove(store) }
    }
}
