/// Reads a model path and validates every version read: the one call the command-line tool
/// (`validate`, `dump`, `generate`) and the plugins need.
///
/// ```swift
/// let result = ModelLoader().load(at: "Sources/App/Tweets.xcdatamodeld")
/// for diagnostic in result.diagnostics { print(diagnostic) }   // path:line:col: error: …
/// let model = try result.requireBundle().current.model
/// ```
public struct ModelLoader: Sendable {
    public var reader: ModelReader
    public var validator: ModelValidator

    public init(reader: ModelReader = ModelReader(), validator: ModelValidator = ModelValidator()) {
        self.reader = reader
        self.validator = validator
    }

    /// Reads the model at `path` (see `ModelReader.read(at:versionName:versions:)`) and
    /// validates each version that was read: every version, or with `.currentOnly` the current
    /// one alone. `validating: .currentOnly` reads `versions` but validates only the current one
    /// (what generating needs: the others are carried for migration, not generated from).
    /// Diagnostics come sorted by file, line and column.
    public func load(
        at path: String, versionName: String? = nil, versions: VersionSelection = .all, validating: VersionSelection = .all
    ) -> ModelReadResult {
        var result = reader.read(at: path, versionName: versionName, versions: versions)
        if let bundle = result.bundle {
            // Where the reader already reported an error (say an unknown attributeType), a
            // validation finding at the same spot only restates it ("has no type"): leave it out.
            let readerErrorLocations = Set(result.diagnostics.filter { $0.severity == .error }.compactMap(\.location))
            for version in bundle.versions where validating == .all || version.name == bundle.currentVersionName {
                result.diagnostics += validator.validate(version.model).filter {
                    $0.location.map { !readerErrorLocations.contains($0) } ?? true
                }
            }
            result.diagnostics = result.diagnostics.sortedByLocation()
        }
        return result
    }
}
