import ManagedObjects

// Core Data's migration error codes (CoreDataErrors.h), which code adding a store compares an
// error's `code` with (SugarRecord retries on `NSMigrationMissingSourceModelError`). The runtime
// reports `NSMigrationError` and `NSMigrationMissingMappingModelError` (a store of a version no
// model matches is `NSPersistentStoreIncompatibleVersionHashError`); the others are Core Data's
// values for code that names them.
public let NSMigrationError = ManagedObjectError.Code.migration.rawValue
public let NSMigrationConstraintViolationError = 134111
public let NSMigrationCancelledError = 134120
public let NSMigrationMissingSourceModelError = 134130
public let NSMigrationMissingMappingModelError = ManagedObjectError.Code.migrationMissingMappingModel.rawValue
public let NSMigrationManagerSourceStoreError = 134150
public let NSMigrationManagerDestinationStoreError = 134160
public let NSEntityMigrationPolicyError = 134170
public let NSInferredMappingModelError = 134190
public let NSExternalRecordImportError = 134200
