import DataModelReader

/// What generation produced: the files (empty when there were errors) and the diagnostics.
public struct GeneratorOutput: Sendable {
    public var files: [GeneratedFile]
    public var diagnostics: [Diagnostic]
}
