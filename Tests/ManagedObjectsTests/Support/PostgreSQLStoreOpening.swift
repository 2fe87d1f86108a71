import Foundation
import ManagedObjects
#if canImport(PostgreSQLStore)
import PostgreSQLStore
#endif

/// A PostgreSQL store for the store scenarios. The Thread Sanitizer build of the runtime's tests
/// (`MANAGEDGEN_RUNTIME_TESTS_ONLY`, see Package.swift) has no PostgreSQL store: there, asking
/// for one is an error, so a server given to that build fails its scenarios instead of skipping.
func openPostgreSQLStore(_ model: ManagedObjectModel, url: URL) throws -> any PersistentStore {
    #if canImport(PostgreSQLStore)
    try PostgreSQLStore(model: model, url: url)
    #else
    throw ManagedObjectError(.persistentStoreOpen, "this build of the tests has no PostgreSQL store (MANAGEDGEN_RUNTIME_TESTS_ONLY)")
    #endif
}
