import Foundation
import PackagePlugin

/// The model files of a target, as both plugins find them among its source files.
///
/// SwiftPM lists a `.xcdatamodeld` bundle (or a bare `.xcdatamodel` folder) as one item of
/// unknown type; the files inside are enumerated here so that the build system can tell when a
/// model changed.
struct ModelSource {
    /// The `.xcdatamodeld` or `.xcdatamodel` folder.
    var root: URL
    /// Every file inside the folder (`contents`, `.xccurrentversion`, …), sorted.
    var files: [URL]

    /// The model's name: the folder name without its extension.
    var name: String { root.deletingPathExtension().lastPathComponent }

    static let modelExtensions: Set<String> = ["xcdatamodeld", "xcdatamodel"]
    /// The options file the CLI reads; one per target, applying to each of its models.
    static let configurationFileName = "managedgen.json"

    /// The models among `sourceFiles`, sorted by path so commands come out in a stable order.
    static func models(in sourceFiles: FileList) -> [ModelSource] {
        sourceFiles
            .map(\.url)
            .filter { modelExtensions.contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
            .map { ModelSource(root: $0, files: filesInside($0)) }
    }

    /// The models in a folder and its subfolders, whether or not the target lists them: a team
    /// that commits generated code excludes its models from the target.
    static func models(inDirectory directory: URL) -> [ModelSource] {
        guard let enumerator = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]
        ) else { return [] }
        var roots: [URL] = []
        for case let url as URL in enumerator where modelExtensions.contains(url.pathExtension) {
            roots.append(url)
            enumerator.skipDescendants()   // a bundle's versions are part of the bundle
        }
        return roots
            .sorted { $0.path < $1.path }
            .map { ModelSource(root: $0, files: filesInside($0)) }
    }

    /// The target's configuration file, if it has one.
    static func configurationFile(in sourceFiles: FileList) -> URL? {
        sourceFiles.map(\.url).first { $0.lastPathComponent == configurationFileName }
    }

    private static func filesInside(_ folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: []
        ) else { return [] }
        return enumerator
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}
