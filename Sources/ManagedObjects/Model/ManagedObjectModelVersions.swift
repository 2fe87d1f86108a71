import DataModel
import Foundation

/// The versions of a versioned model (a `.xcdatamodeld` bundle), oldest first, and which one is
/// current: what opening a store written with an older version needs to migrate it. Core Data
/// finds them in the app's bundle; here the app passes them (read from the bundle at run time,
/// or built from `Model` values) to `PersistentStoreDescription.modelVersions`.
public struct ManagedObjectModelVersions: Sendable {
    /// One version: its name in the bundle (`SampleModel2`) and its model.
    public struct Version: Sendable {
        public let name: String
        public let model: ManagedObjectModel
        /// `model.entityVersionHashesByName`, computed once: identifying a store compares them.
        public let entityVersionHashes: [String: Data]

        public init(name: String, model: ManagedObjectModel) {
            self.name = name
            self.model = model
            self.entityVersionHashes = model.entityVersionHashesByName
        }
    }

    /// Oldest first: the bundle's natural order of version names (`Model 9` before `Model 10`).
    public let versions: [Version]
    public let currentVersionName: String

    /// `versions` oldest first; `currentVersionName` must name one of them (else the last is current).
    public init(versions: [Version], currentVersionName: String? = nil) {
        self.versions = versions
        self.currentVersionName = currentVersionName.flatMap { name in versions.contains { $0.name == name } ? name : nil }
            ?? versions.last?.name ?? ""
    }

    public var current: ManagedObjectModel? { version(named: currentVersionName) }

    public func version(named name: String) -> ManagedObjectModel? {
        versions.first { $0.name == name }?.model
    }

    /// The position of `model` among the versions: the same object, else a version with the
    /// same entity version hashes.
    package func index(of model: ManagedObjectModel) -> Int? {
        if let index = versions.firstIndex(where: { $0.model === model }) { return index }
        let hashes = model.entityVersionHashesByName
        return versions.firstIndex { $0.entityVersionHashes == hashes }
    }
}

extension ManagedObjectModel {
    /// Whether a store with `metadata` (``PersistentStoreCoordinator/metadataForPersistentStore(ofType:at:)``)
    /// holds exactly this model's entities of `configuration` (all entities when `nil`), by
    /// their version hashes. Core Data's `isConfiguration(withName:compatibleWithStoreMetadata:)`.
    /// The hashes are Core Data's (``ModelVersionHash``), so this holds for stores Core Data wrote too.
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        ModelVersionHash.isConfiguration(configuration, of: self, hashes: entityVersionHashesByName, compatibleWith: metadata)
    }
}

extension ModelVersionHash {
    /// `isConfiguration(withName:compatibleWithStoreMetadata:)` with the model's hashes at hand.
    static func isConfiguration(
        _ configuration: String?, of model: ManagedObjectModel, hashes: [String: Data], compatibleWith metadata: [String: Any]
    ) -> Bool {
        guard let stored = metadata["NSStoreModelVersionHashes"] as? [String: Data] else { return false }
        var hashes = hashes
        if let configuration {
            guard let members = model.model.configurations.first(where: { $0.name == configuration })?.memberEntities else { return false }
            hashes = hashes.filter { members.contains($0.key) }
        }
        return stored == hashes
    }
}
