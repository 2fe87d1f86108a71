import DataModel
import Foundation

/// A store whose file holds the whole object graph: read whole when the store opens, written
/// whole at each save. Core Data's atomic stores, `NSBinaryStoreType` (``PersistentStoreType/binary``,
/// a binary property list) and `NSXMLStoreType` (``PersistentStoreType/xml``, XML in the shape of
/// Core Data's): file formats of ManagedObjects, described in Docs/RuntimeDifferences.md.
///
/// The graph lives in an ``InMemoryStore``, which answers every read. A save (or a batch
/// request) is applied to a copy of it, the copy is written through a temporary file renamed
/// over the store file (`AtomicStoreFile`), and only then does the graph take the copy's
/// state: a save that fails, or a process killed during one, leaves both the graph and the file
/// as the last complete save left them.
///
/// The file keeps the store's metadata (UUID, the model's entity version hashes): a file
/// written with another model version is refused with 134100 (a coordinator given migration
/// options migrates it first: `AtomicStoreMigration`).
/// One coordinator at a time: a second one's saves would replace the first one's file.
public final class AtomicStore: PersistentStore, @unchecked Sendable {
    // Unchecked: `graph` and `metadataState` are thread-safe; `saveLock`
    // orders saves; `beforeRename` is set only by tests before any save.
    public let type: PersistentStoreType
    public let url: URL?
    private let fileURL: URL
    private let model: ManagedObjectModel
    private let format: any AtomicStoreFormat
    /// The object graph as the last complete save left it.
    let graph: InMemoryStore
    /// The store's metadata as it is in the file (`NSStoreUUID`, `NSStoreType`, version hashes,
    /// an app's keys), and as set for the next save.
    private let metadataState: StoreMetadataState
    /// Saves (and permanent IDs, which a save's copy must not miss) one at a time.
    private let saveLock = NSLock()
    /// Runs between writing the temporary file and renaming it: tests throw here to stop a
    /// save where a killed process would.
    var beforeRename: ((URL) throws -> Void)?

    public var identifier: String { graph.identifier }

    /// The atomic store types, each with its file format.
    static func format(of type: PersistentStoreType) -> (any AtomicStoreFormat)? {
        switch type {
        case .binary: BinaryStoreFormat()
        case .xml: XMLStoreFormat()
        default: nil
        }
    }

    /// Opens the store of `type` (`.binary` or `.xml`) at `url`, reading the whole file, or
    /// starts an empty one when there is no file (the file is written at the first save).
    /// Throws `ManagedObjectError` naming the file, which is left unchanged: 134080
    /// (`persistentStoreOpen`) for a file that is not one of this type or is damaged or cut
    /// short, 134000 for a file of another store type, 134100 for one written with another
    /// model version.
    public init(type: PersistentStoreType, model: ManagedObjectModel, url: URL) throws {
        guard let format = Self.format(of: type) else {
            throw ManagedObjectError(.persistentStoreInvalidType, "\(type.rawValue) is not an atomic store type: \(url.path)")
        }
        self.type = type
        self.url = url
        self.fileURL = url
        self.model = model
        self.format = format
        let path = url.path
        guard let data = try AtomicStoreFile.read(url) else {
            let identifier = UUID().uuidString
            graph = InMemoryStore(identifier: identifier)
            metadataState = StoreMetadataState(saved: try AtomicStoreContents.metadata(for: model, identifier: identifier, type: type))
            return
        }
        let contents = try format.decode(data, path: path) { entityName, attributeName in
            guard case .attribute(let attribute)? = model[entityName]?.propertiesByName[attributeName]?.kind, !attribute.isTransient
            else { return nil }
            return attribute.type
        }
        if let storeType = contents.metadata["NSStoreType"] as? String, storeType != type.rawValue {
            throw ManagedObjectError(.persistentStoreInvalidType, "\(path) says it is a store of type \(storeType), not \(type.rawValue)")
        }
        guard let identifier = contents.identifier else {
            throw ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: its metadata has no NSStoreUUID")
        }
        guard model.isConfiguration(withName: nil, compatibleWithStoreMetadata: contents.metadata) else {
            throw ManagedObjectError(
                .persistentStoreIncompatibleVersionHash,
                "the model is not the one \(path) was written with: \(Self.differences(of: model, from: contents.metadata))")
        }
        let (objects, lastNumbers) = try contents.storedObjects(model: model, identifier: identifier, path: path)
        graph = InMemoryStore(identifier: identifier)
        graph.load(objects, lastNumbers: lastNumbers)
        metadataState = StoreMetadataState(saved: contents.metadata)
    }

    /// The store's metadata, as its file keeps it: `NSStoreUUID`, `NSStoreType`,
    /// `NSStoreModelVersionHashes`, `NSStoreModelVersionIdentifiers`, an app's keys (as
    /// ``SQLiteStore/metadata``). Set, it is written with the next save.
    public var metadata: [String: Any] {
        get { metadataState.current }
        set { metadataState.set(newValue, type: type, identifier: identifier) }
    }

    /// The metadata of the `type` store file at `url`, read without a model
    /// (``PersistentStoreCoordinator/metadataForPersistentStore(ofType:at:)``).
    static func metadataOfFile(at url: URL, type: PersistentStoreType) throws -> [String: Any] {
        try storedMetadata(at: url, type: type).metadata
    }

    /// Replaces the metadata of the `type` store file at `url` as
    /// ``PersistentStoreCoordinator/setMetadata(_:forPersistentStoreOfType:at:)`` describes:
    /// the file is rewritten whole, atomically, with its objects as they were.
    static func setMetadata(_ metadata: [String: Any], ofFileAt url: URL, type: PersistentStoreType) throws {
        let (format, data, current) = try storedMetadata(at: url, type: type)
        let identifier = current["NSStoreUUID"] as? String ?? ""
        let replaced = StoreMetadata.replacing(current, with: metadata, type: type, identifier: identifier)
        _ = try StoreMetadata.propertyList(replaced, format: .binary, store: url.path)
        try AtomicStoreFile.replace(url, with: try format.replacingMetadata(replaced, in: data, path: url.path))
    }

    /// The file's format, bytes and metadata; throws 134080 when there is no file or it is not
    /// a store file of `type`, 134000 when its metadata names another type.
    private static func storedMetadata(at url: URL, type: PersistentStoreType) throws -> (format: any AtomicStoreFormat, data: Data, metadata: [String: Any]) {
        guard let format = format(of: type) else {
            throw ManagedObjectError(.persistentStoreInvalidType, "\(type.rawValue) is not an atomic store type: \(url.path)")
        }
        guard let data = try AtomicStoreFile.read(url) else {
            throw ManagedObjectError(.persistentStoreOpen, "there is no store file at \(url.path)")
        }
        let metadata = try format.metadata(of: data, path: url.path)
        if let storeType = metadata["NSStoreType"] as? String, storeType != type.rawValue {
            throw ManagedObjectError(.persistentStoreInvalidType, "\(url.path) says it is a store of type \(storeType), not \(type.rawValue)")
        }
        return (format, data, metadata)
    }

    /// The entities whose version hashes differ between the model and a store's metadata.
    private static func differences(of model: ManagedObjectModel, from metadata: [String: Any]) -> String {
        guard let stored = metadata["NSStoreModelVersionHashes"] as? [String: Data] else { return "the store keeps no version hashes" }
        let hashes = model.entityVersionHashesByName
        let changed = Set(hashes.keys).union(stored.keys).filter { hashes[$0] != stored[$0] }.sorted()
        return "entities \(changed.joined(separator: ", ")) differ"
    }

    // MARK: Reading: the graph answers

    public func execute(_ request: StoreRequest) throws -> StoreResult { try graph.execute(request) }
    public func canEvaluate(_ predicate: ObjectPredicate) -> Bool { graph.canEvaluate(predicate) }
    public func canSort(by sortDescriptors: [ObjectSortDescriptor]) -> Bool { graph.canSort(by: sortDescriptors) }
    public func snapshot(for objectID: ManagedObjectID) throws -> StoredObject? { try graph.snapshot(for: objectID) }
    public func relatedObjectIDs(of objectID: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try graph.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    public func pinnedForReading() throws -> (any PersistentStore)? { try graph.pinnedForReading() }

    // MARK: Writing: to a copy, to the file, then to the graph

    public func obtainPermanentIDs(for entity: EntityDescription, count: Int) throws -> [ManagedObjectID] {
        try saveLock.withLock { try graph.obtainPermanentIDs(for: entity, count: count) }
    }

    public func save(_ changes: StoreChangeSet) throws {
        try applying { try $0.save(changes) }
    }

    public func batchInsert(_ request: StoreBatchInsert) throws -> StoreBatchOutcome {
        try applying { try $0.batchInsert(request) }
    }

    public func batchUpdate(_ request: StoreBatchUpdate) throws -> StoreBatchOutcome {
        try applying { try $0.batchUpdate(request) }
    }

    public func batchDelete(_ request: StoreBatchDelete) throws -> StoreBatchOutcome {
        try applying { try $0.batchDelete(request) }
    }

    /// Applies `change` to a copy of the graph, writes the copy's file, then makes the copy the
    /// graph; all or nothing.
    private func applying<Result>(_ change: (InMemoryStore) throws -> Result) throws -> Result {
        try saveLock.withLock {
            let staged = graph.stagingCopy()
            let result = try change(staged)
            let unsavedMetadata = metadataState.unsaved
            var contents = try AtomicStoreContents(graph: staged, model: model, type: type)
            contents.metadata = unsavedMetadata?.metadata ?? metadataState.current
            let data: Data
            do {
                data = try format.encode(contents)
            } catch {
                throw ManagedObjectError(.persistentStoreOperation, "cannot encode the store file \(fileURL.path): \(error)", underlying: error)
            }
            try AtomicStoreFile.replace(fileURL, with: data, beforeRename: beforeRename)
            graph.adopt(staged)
            if let unsavedMetadata { metadataState.didSave(unsavedMetadata) }
            return result
        }
    }
}
