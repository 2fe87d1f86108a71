import Foundation

/// New objects of one entity written straight to the store: Core Data's `NSBatchInsertRequest`.
///
/// The rows come as dictionaries of attribute names to values (`objectsToInsert`), or from a
/// handler called until it returns `true`: `dictionaryHandler` fills a dictionary,
/// `managedObjectHandler` sets the attributes of an object that is in no context (the call
/// that returns `true` adds nothing). An attribute a row leaves out gets the model's default.
/// As in Core Data, relationships cannot be set, and validation rules are not checked; a key
/// that is not an attribute of the entity, or a value that is not of the attribute's type,
/// throws before anything is written.
public final class BatchInsertRequest: PersistentStoreRequest {
    public let entityName: String
    public var objectsToInsert: [[String: Any]]?
    public var dictionaryHandler: ((inout [String: Any]) -> Bool)?
    public var managedObjectHandler: ((ManagedObject) -> Bool)?
    public var resultType: BatchInsertRequestResultType = .statusOnly

    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        self.objectsToInsert = objects
    }

    public convenience init(entity: EntityDescription, objects: [[String: Any]]) {
        self.init(entityName: entity.name, objects: objects)
    }

    public init(entityName: String, dictionaryHandler: @escaping (inout [String: Any]) -> Bool) {
        self.entityName = entityName
        self.dictionaryHandler = dictionaryHandler
    }

    public convenience init(entity: EntityDescription, dictionaryHandler: @escaping (inout [String: Any]) -> Bool) {
        self.init(entityName: entity.name, dictionaryHandler: dictionaryHandler)
    }

    public init(entityName: String, managedObjectHandler: @escaping (ManagedObject) -> Bool) {
        self.entityName = entityName
        self.managedObjectHandler = managedObjectHandler
    }

    public convenience init(entity: EntityDescription, managedObjectHandler: @escaping (ManagedObject) -> Bool) {
        self.init(entityName: entity.name, managedObjectHandler: managedObjectHandler)
    }
}
