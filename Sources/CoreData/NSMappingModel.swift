import Foundation
import ManagedObjects
#if ModelFiles
import ModelFileLoading
#endif

// Core Data's migration names over the runtime's mapping-model migration.
public typealias NSMappingModel = MappingModel
public typealias NSEntityMapping = EntityMapping
public typealias NSPropertyMapping = PropertyMapping
public typealias NSEntityMigrationPolicy = EntityMigrationPolicy

extension MappingModel {
    /// Core Data's `inferredMappingModel(forSourceModel:destinationModel:)`: the mapping the
    /// lightweight migration infers (`MappingModel.inferred(from:to:)`).
    public static func inferredMappingModel(
        forSourceModel sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel
    ) throws -> MappingModel {
        try inferred(from: sourceModel, to: destinationModel)
    }

    /// Core Data's `init?(from:forSourceModel:destinationModel:)`: the mapping model from
    /// `sourceModel` to `destinationModel` among the `.xcmappingmodel` files in the bundles'
    /// resource folders and their subfolders one level down (`nil`: the main bundle), matched
    /// by the entity version hashes of the models the file keeps, as Core Data matches a
    /// compiled `.cdm`; `nil` when none maps them (or, without the `ModelFiles` trait, always).
    public init?(from bundles: [Bundle]?, forSourceModel sourceModel: ManagedObjectModel?, destinationModel: ManagedObjectModel?) {
        #if ModelFiles
        guard let sourceModel, let destinationModel else { return nil }
        let versions = ManagedObjectModelVersions(
            versions: [.init(name: Self.sourceVersion, model: sourceModel), .init(name: Self.destinationVersion, model: destinationModel)],
            currentVersionName: Self.destinationVersion)
        for file in Self.mappingModelFiles(in: bundles ?? [Bundle.main]) {
            // A file for other versions does not read against these two: it is not the one.
            guard let found = try? MappingModel(contentsOf: file, versions: versions),
                  found.sourceVersionName == Self.sourceVersion, found.destinationVersionName == Self.destinationVersion
            else { continue }
            self = found
            return
        }
        return nil
        #else
        return nil
        #endif
    }

    private static let sourceVersion = "source model"
    private static let destinationVersion = "destination model"

    private static func mappingModelFiles(in bundles: [Bundle]) -> [URL] {
        let manager = FileManager.default
        func children(of folder: URL) -> [URL] {
            ((try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        var files: [URL] = []
        for case let folder? in bundles.map(\.resourceURL) {
            for child in children(of: folder) {
                if child.pathExtension == "xcmappingmodel" {
                    files.append(child)
                } else {
                    files += children(of: child).filter { $0.pathExtension == "xcmappingmodel" }
                }
            }
        }
        return files
    }
}
