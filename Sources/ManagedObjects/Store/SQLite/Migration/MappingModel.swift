import Foundation

/// How the objects of one model version become those of the next, when inference is not enough.
/// Core Data's `NSMappingModel`, written in Swift: entity mappings with property mappings whose
/// values are key paths of the source object (`$source.name`) or the destination objects another
/// mapping made of related source objects, and custom policies (``EntityMigrationPolicy``)
/// registered by name. Written in Swift, or read from a `.xcmappingmodel` file Xcode wrote
/// (`init(contentsOf:versions:)`, in `ModelFileLoading`, which reads model files; here
/// ``init(_:versions:file:)`` makes one from the parsed document).
public struct MappingModel: Sendable {
    /// The version names (as in ``ManagedObjectModelVersions``) this model maps between.
    public var sourceVersionName: String
    public var destinationVersionName: String
    public var entityMappings: [EntityMapping]
    /// The entity version hashes (``ManagedObjectModel/entityVersionHashesByName``) of the two
    /// versions, by which a migration picks this mapping model, as Core Data does; `nil`: it is
    /// picked by the version name instead. A mapping file read from disk has them.
    public var sourceEntityVersionHashes: [String: Data]?
    public var destinationEntityVersionHashes: [String: Data]?
    /// Made by ``inferred(from:to:)``: a migration through it is the lightweight one the runtime
    /// infers (its entity mappings only describe it).
    var isInferred = false

    public init(
        from sourceVersionName: String, to destinationVersionName: String, entityMappings: [EntityMapping],
        sourceEntityVersionHashes: [String: Data]? = nil, destinationEntityVersionHashes: [String: Data]? = nil
    ) {
        self.sourceVersionName = sourceVersionName
        self.destinationVersionName = destinationVersionName
        self.entityMappings = entityMappings
        self.sourceEntityVersionHashes = sourceEntityVersionHashes
        self.destinationEntityVersionHashes = destinationEntityVersionHashes
    }

    /// Whether this mapping takes a store of `source` to `destination`: by entity hashes where
    /// it has them (a mapping file's version names may be stale), else by version names.
    package func maps(from source: ManagedObjectModelVersions.Version, to destination: ManagedObjectModelVersions.Version) -> Bool {
        (sourceEntityVersionHashes.map { $0 == source.entityVersionHashes } ?? (sourceVersionName == source.name))
            && (destinationEntityVersionHashes.map { $0 == destination.entityVersionHashes } ?? (destinationVersionName == destination.name))
    }
}
