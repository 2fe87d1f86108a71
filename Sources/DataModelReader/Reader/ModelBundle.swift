/// A model as found on disk: the versions of a `.xcdatamodeld` bundle and which one is current.
///
/// A single `.xcdatamodel` folder or a bare `contents` file reads as a bundle of one version.
/// Versions that cannot be read are not listed here; the reader reports why (a pre-Xcode 4
/// binary version that is not current is a warning, any other unreadable version an error).
public struct ModelBundle: Hashable, Sendable, Codable {
    /// The bundle's name without extension (`Tweets` for `Tweets.xcdatamodeld`).
    public var name: String
    /// The path that was read.
    public var path: String
    /// The readable versions, in natural order of their names (`Model 9` before `Model 10`).
    public var versions: [ModelVersion]
    /// The name of the current version (without `.xcdatamodel`); always one of `versions`.
    public var currentVersionName: String

    public init(name: String, path: String, versions: [ModelVersion], currentVersionName: String) {
        precondition(
            versions.contains { $0.name == currentVersionName },
            "the current version '\(currentVersionName)' must be one of the versions")
        self.name = name
        self.path = path
        self.versions = versions
        self.currentVersionName = currentVersionName
    }

    /// The current version: the one code is generated for.
    public var current: ModelVersion {
        versions.first { $0.name == currentVersionName } ?? versions[versions.count - 1]
    }

    public func version(named name: String) -> ModelVersion? {
        versions.first { $0.name == name }
    }
}
