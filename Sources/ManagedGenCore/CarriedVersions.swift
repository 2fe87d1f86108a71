import DataModelReader

/// The versions of a bundle a generated model carries (`<Model>.versions`), oldest first.
public struct CarriedVersions: Sendable {
    public var versions: [(name: String, model: Model)]
    public var currentVersionName: String

    public init(versions: [(name: String, model: Model)], currentVersionName: String) {
        self.versions = versions
        self.currentVersionName = currentVersionName
    }
}
