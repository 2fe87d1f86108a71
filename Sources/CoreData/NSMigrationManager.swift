import Foundation
import ManagedObjects

public typealias NSMigrationManager = MigrationManager

extension MigrationManager {
    /// Core Data's `migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)`:
    /// `MigrationManager.migrateStore(from:to:mappingModel:)` for SQLite stores, through
    /// `mappingModel` or (`nil`) the inferred one; called again with another mapping model and the
    /// same destination, a further pass adds to the store the earlier ones wrote. Other store types throw
    /// `NSPersistentStoreInvalidTypeError`-like 134110 naming them; the options are accepted and
    /// not read.
    public func migrateStore(
        from sourceURL: URL, sourceType: String, options sourceOptions: [AnyHashable: Any]?,
        with mappingModel: MappingModel?, toDestinationURL destinationURL: URL, destinationType: String,
        destinationOptions: [AnyHashable: Any]?
    ) throws {
        guard sourceType == NSSQLiteStoreType, destinationType == NSSQLiteStoreType else {
            throw ManagedObjectError(
                .migration,
                "migrating \(sourceURL.path) from a \(sourceType) store to a \(destinationType) store: only SQLite stores are migrated by a migration manager")
        }
        let mapping = try mappingModel ?? MappingModel.inferred(from: sourceModel, to: destinationModel)
        try migrateStore(from: sourceURL, to: destinationURL, mappingModel: mapping)
    }
}
