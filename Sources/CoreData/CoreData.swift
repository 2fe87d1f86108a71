// Core Data's names over ManagedObjects, so model-layer code written for Apple's Core Data
// compiles on Linux with `import CoreData` unchanged. Only built where Apple's framework does
// not exist (see Package.swift).
//
// `NSPredicate`, `NSCompoundPredicate`, `NSComparisonPredicate`, `NSExpression` and
// `NSSortDescriptor` are Foundation's own classes: a declaration of one of those names here
// would be ambiguous in every file that also imports Foundation (checked on Swift 6.3, in
// either import order). This module gives them Core Data's format and key initializers
// (NSPredicate+Format.swift, NSSortDescriptor+Key.swift).
@_exported import Foundation
@_exported import ManagedObjects
#if Networking
// `URLSession` and the rest of the URL loading system: Foundation has them on Apple platforms,
// so Core Data code that fetches its data (Apple's own samples) uses them beside `import
// CoreData`; on Linux they live in FoundationNetworking, which links libcurl. A default trait:
// an app that wants neither drops it (`traits: ["ModelFiles"]`).
@_exported import FoundationNetworking
#endif
#if ModelFiles
// `NSManagedObjectModel(contentsOf:)`: reading model files at run time (the default trait).
@_exported import ModelFileLoading
#endif

public typealias NSManagedObject = ManagedObject
public typealias NSManagedObjectContext = ManagedObjectContext
public typealias NSManagedObjectID = ManagedObjectID
public typealias NSManagedObjectModel = ManagedObjectModel
public typealias NSEntityDescription = EntityDescription
public typealias NSAttributeDescription = AttributeDescription
public typealias NSRelationshipDescription = RelationshipDescription
public typealias NSPropertyDescription = PropertyDescription
public typealias NSFetchedPropertyDescription = FetchedPropertyDescription
public typealias NSFetchIndexDescription = FetchIndexDescription
public typealias NSFetchIndexElementDescription = FetchIndexElementDescription
public typealias NSFetchIndexElementType = FetchIndexElementType
public typealias NSPersistentStoreCoordinator = PersistentStoreCoordinator
public typealias NSManagedObjectContextConcurrencyType = ManagedObjectContext.ConcurrencyType
public typealias NSFetchRequest<ResultType> = FetchRequest<ResultType>
public typealias NSFetchRequestResultType = FetchRequestResultType
public typealias NSFetchedResultsChangeType = FetchedResultsChangeType
// Value transformers: Swift on Linux has no `ValueTransformer`; `ManagedObjects` provides it
// (exported above) and these give Foundation's and Core Data's names for the rest.
public typealias NSValueTransformerName = ValueTransformerName
public typealias NSSecureUnarchiveFromDataTransformer = SecureUnarchiveFromDataTransformer

/// What a fetch request can give. Core Data's `@objc` protocol conforms to itself, so Core Data
/// code writes `NSFetchRequest<NSFetchRequestResult>`; a Swift protocol does not, which is why
/// `NSFetchRequest` and `NSFetchedResultsController` take any type here.
public protocol NSFetchRequestResult: AnyObject {}
extension ManagedObject: NSFetchRequestResult {}

// Store types, as Core Data's string constants.
public let NSSQLiteStoreType = PersistentStoreType.sqlite.rawValue
public let NSInMemoryStoreType = PersistentStoreType.inMemory.rawValue
public let NSBinaryStoreType = PersistentStoreType.binary.rawValue
public let NSXMLStoreType = PersistentStoreType.xml.rawValue

// Metadata keys (`NSPersistentStore.metadata`, `metadataForPersistentStore(ofType:at:)`), as
// Core Data's constants: their values are the keys in `Z_METADATA`'s plist.
public let NSStoreTypeKey = "NSStoreType"
public let NSStoreUUIDKey = "NSStoreUUID"
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"

// Store options Core Data code passes, read by `PersistentStoreDescription.read(coreDataOptions:)`
// (`NSPersistentStoreTimeoutOption`: SQLite's busy timeout, see `SQLitePragmas.setTimeout(coreDataOption:)`).
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"

/// Foundation's `UndoManager`, which Foundation on Linux lacks: a context given one records
/// its changes for `undo()`, `redo()` (see `ContextUndoManager`).
public typealias UndoManager = ContextUndoManager

/// Core Data's store class; here the runtime's store protocol (`persistentStores`,
/// `persistentStore(for:)` give its stores).
public typealias NSPersistentStore = PersistentStore

extension PersistentStoreCoordinator {
    /// Core Data's `addPersistentStore(ofType:configurationName:at:options:)`: `NSSQLiteStoreType`,
    /// `NSInMemoryStoreType`, `NSBinaryStoreType` or `NSXMLStoreType`; another type throws
    /// `NSPersistentStoreInvalidTypeError`. The options are read as Core Data reads them
    /// (`PersistentStoreDescription.read(coreDataOptions:)`): `NSMigratePersistentStoresAutomaticallyOption`
    /// off unless set (a store written with another version of the model throws 134100),
    /// `NSInferMappingModelAutomaticallyOption` off unless set (a step with no mapping model
    /// throws 134140), the versions migrated through being those the generated model carries
    /// (see `GeneratedModels`); `NSReadOnlyPersistentStoreOption`, `NSSQLitePragmasOption`,
    /// `NSSQLiteManualVacuumOption`, `NSSQLiteAnalyzeOption`, `NSPersistentHistoryTrackingKey`
    /// and `NSPersistentStoreRemoteChangeNotificationPostOptionKey`.
    @discardableResult
    public func addPersistentStore(
        ofType storeType: String, configurationName configuration: String?, at storeURL: URL?,
        options: [AnyHashable: Any]?
    ) throws -> any PersistentStore {
        var description = PersistentStoreDescription(type: PersistentStoreType(rawValue: storeType), url: storeURL, configuration: configuration)
        try description.read(coreDataOptions: options ?? [:])
        description.modelVersions = GeneratedModels.versions(of: managedObjectModel)
        return try addPersistentStore(described: description, options: options)
    }
}

/// Whether a Boolean store option (an `NSNumber`, as Core Data code passes `true as NSNumber`,
/// or a Swift `Bool`) is on.
func storeOptionIsOn(_ option: Any?) -> Bool {
    (option as? Bool) ?? (option as? NSNumber)?.boolValue ?? false
}

extension PersistentStoreCoordinator {
    /// Core Data's `metadataForPersistentStore(ofType:at:options:)`, the type as Core Data's
    /// string constant (`NSSQLiteStoreType`); `options` are accepted and not read.
    public static func metadataForPersistentStore(
        ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: PersistentStoreType(rawValue: storeType), at: url)
    }

    /// Core Data's `setMetadata(_:forPersistentStoreOfType:at:options:)`: `nil` keeps only the
    /// store's own keys; `options` are accepted and not read.
    public static func setMetadata(
        _ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws {
        try setMetadata(metadata ?? [:], forPersistentStoreOfType: PersistentStoreType(rawValue: storeType), at: url)
    }
}

extension PersistentStoreCoordinator {
    /// The store at `url` (compared as standardized file URLs), or `nil`.
    public func persistentStore(for url: URL) -> (any PersistentStore)? {
        persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }
    }
}

extension ManagedObjectContext.ConcurrencyType {
    /// Core Data's `NSManagedObjectContextConcurrencyType` case names.
    public static var mainQueueConcurrencyType: Self { .mainQueue }
    public static var privateQueueConcurrencyType: Self { .privateQueue }
}

extension EntityDescription {
    /// Inserts a new object of the entity named `entityName` into `context`, of the class the
    /// model binds to it. Traps when the context's model has no such entity, as Core Data raises.
    public static func insertNewObject(
        forEntityName entityName: String, into context: ManagedObjectContext
    ) -> ManagedObject {
        guard let entity = entity(forEntityName: entityName, in: context) else {
            preconditionFailure("insertNewObject: the model of \(context) has no entity named '\(entityName)'")
        }
        return entity.managedObjectClass.init(entity: entity, insertInto: context)
    }

    /// The entity named `entityName` in the context's model, or `nil`.
    public static func entity(forEntityName entityName: String, in context: ManagedObjectContext) -> EntityDescription? {
        context.managedObjectModel[entityName]
    }
}

// MARK: Merge policies

public typealias NSMergePolicy = MergePolicy
public typealias NSMergeConflict = MergeConflict
public typealias NSConstraintConflict = ConstraintConflict
public let NSErrorMergePolicy = MergePolicy.error
public let NSMergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
public let NSMergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
public let NSOverwriteMergePolicy = MergePolicy.overwrite
public let NSRollbackMergePolicy = MergePolicy.rollback

// MARK: Batch requests

public typealias NSPersistentStoreRequest = PersistentStoreRequest
public typealias NSPersistentStoreResult = PersistentStoreResult
public typealias NSBatchInsertRequest = BatchInsertRequest
public typealias NSBatchInsertResult = BatchInsertResult
public typealias NSBatchInsertRequestResultType = BatchInsertRequestResultType
public typealias NSBatchUpdateRequest = BatchUpdateRequest
public typealias NSBatchUpdateResult = BatchUpdateResult
public typealias NSBatchUpdateRequestResultType = BatchUpdateRequestResultType
public typealias NSBatchDeleteRequest = BatchDeleteRequest
public typealias NSBatchDeleteResult = BatchDeleteResult
public typealias NSBatchDeleteRequestResultType = BatchDeleteRequestResultType

// MARK: Persistent history

// Read with `context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after:))` (narrowed
// by `fetchRequest`, made from `NSPersistentHistoryTransaction.fetchRequest` or
// `NSPersistentHistoryChange.fetchRequest`, or `fetchHistory(withFetch:)`), purged with
// `deleteHistory(before:)`, merged with `mergeChanges(fromContextDidSave:
// transaction.objectIDNotification())`; `currentPersistentHistoryToken(fromStores:)` is the
// coordinator's. Saves and batch requests record it when the store has
// `NSPersistentHistoryTrackingKey` on. Value types here where Core Data has classes (a
// transaction and its changes are read-only records).
public typealias NSPersistentHistoryChangeRequest = PersistentHistoryChangeRequest
public typealias NSPersistentHistoryResult = PersistentHistoryResult
public typealias NSPersistentHistoryTransaction = PersistentHistoryTransaction
public typealias NSPersistentHistoryChange = PersistentHistoryChange
public typealias NSPersistentHistoryChangeType = PersistentHistoryChangeType
public typealias NSPersistentHistoryToken = PersistentHistoryToken

/// The `userInfo` keys of the context notifications, and of a remote save's changes
/// (`mergeChanges(fromRemoteContextSave:into:)`).
public let NSInsertedObjectsKey = ManagedObjectContext.insertedObjectsKey
public let NSUpdatedObjectsKey = ManagedObjectContext.updatedObjectsKey
public let NSDeletedObjectsKey = ManagedObjectContext.deletedObjectsKey
public let NSRefreshedObjectsKey = ManagedObjectContext.refreshedObjectsKey
public let NSInvalidatedObjectsKey = ManagedObjectContext.invalidatedObjectsKey
public let NSInvalidatedAllObjectsKey = ManagedObjectContext.invalidatedAllObjectsKey
