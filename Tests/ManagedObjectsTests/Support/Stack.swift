import Foundation
import ManagedObjects

/// A fresh in-memory stack per test: tests run in parallel and must not share objects.
func makeContainer(_ model: ManagedObjectModel, name: String = "Test") throws -> PersistentContainer {
    let container = PersistentContainer(name: name, managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
    try container.loadPersistentStores()
    return container
}

/// Runs `body` on the queue of a new private-queue context of a fresh in-memory stack, as
/// Core Data code confined to its context does.
func withContext<T>(_ model: ManagedObjectModel, _ body: (ManagedObjectContext) throws -> T) throws -> T {
    let context = try makeContainer(model).newBackgroundContext()
    return try context.performAndWait { try body(context) }
}

/// A fresh stack on a store of `kind`; an SQLite store's file goes in `files`.
func makeContainer(
    _ model: ManagedObjectModel, kind: StoreKind, files: TemporaryDirectory, name: String = "Test"
) throws -> PersistentContainer {
    let container = PersistentContainer(name: name, managedObjectModel: model)
    container.persistentStoreDescriptions = switch kind {
    case .sqlite: [PersistentStoreDescription(url: files.file("\(name).sqlite"))]
    case .inMemory: [PersistentStoreDescription(type: .inMemory)]
    case .postgreSQL: []
    }
    try container.loadPersistentStores()
    if kind == .postgreSQL {
        // No store description opens it: the store is added as made.
        container.persistentStoreCoordinator.addPersistentStore(
            try openPostgreSQLStore(model, url: StoreKind.postgreSQLURL(for: files).appendingSchemaSuffix(name)))
    }
    return container
}

/// `withContext` on a store of `kind` (an SQLite store's file in a temporary directory removed
/// afterwards).
func withContext<T>(_ model: ManagedObjectModel, kind: StoreKind, _ body: (ManagedObjectContext) throws -> T) throws -> T {
    let files = try TemporaryDirectory()
    let context = try makeContainer(model, kind: kind, files: files).newBackgroundContext()
    return try context.performAndWait { try body(context) }
}

/// An executable target of this package, built beside the test bundle (`swift build` builds
/// every target): the child processes of the crash-safety, migration and hostile-store tests.
func siblingExecutable(_ name: String) -> URL {
    let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    return testBinary.deletingLastPathComponent().appendingPathComponent(name)
}

extension URL {
    /// The URL with `name` added to its `schema=` (one schema per store name, as one file per name).
    func appendingSchemaSuffix(_ name: String) -> URL {
        URL(string: absoluteString + "_" + name.lowercased().filter { $0.isLetter || $0.isNumber }) ?? self
    }
}
