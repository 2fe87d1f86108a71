import Foundation
import ManagedObjects
import ModelFileLoading

/// Reading the model files a store command is given: a bundle's versions and an app's mapping
/// models, through the runtime's model-file loading. Errors name the file.
package enum ModelVersionsLoading {
    /// Every version of the model at `path`: a `.xcdatamodeld` bundle, or one `.xcdatamodel`
    /// folder (a single version).
    package static func versions(at path: String) throws -> ManagedObjectModelVersions {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreToolError(file: path, "no such model") }
        do {
            return try ManagedObjectModelVersions(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StoreToolError(file: path, "cannot read the model:\n\(error.description)")
        }
    }

    /// The mapping models at `paths` (`.xcmappingmodel` folders), between versions of `versions`.
    package static func mappingModels(at paths: [String], versions: ManagedObjectModelVersions) throws -> [(name: String, model: MappingModel)] {
        try paths.map { path in
            guard FileManager.default.fileExists(atPath: path) else { throw StoreToolError(file: path, "no such mapping model") }
            do {
                let model = try MappingModel(contentsOf: URL(fileURLWithPath: path), versions: versions)
                return (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, model)
            } catch let error as ManagedObjectError {
                throw StoreToolError(file: path, "cannot use the mapping model: \(error.message)")
            } catch {
                throw StoreToolError(file: path, "cannot use the mapping model: \(error)")
            }
        }
    }

    /// The version named `name` (or the current one), naming the bundle and its versions when
    /// there is none.
    package static func version(named name: String?, in versions: ManagedObjectModelVersions, bundle: String) throws -> ManagedObjectModelVersions.Version {
        let wanted = name ?? versions.currentVersionName
        guard let version = versions.versions.first(where: { $0.name == wanted }) else {
            throw StoreToolError(
                file: bundle,
                "has no version \(wanted) (its versions: \(versions.versions.map(\.name).joined(separator: ", ")))")
        }
        return version
    }
}
