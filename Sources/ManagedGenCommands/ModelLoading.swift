import ArgumentParser
import DataModelReader
import Foundation

/// How a command reports the diagnostics of the models it reads.
package struct DiagnosticOptions: ParsableArguments {
    package init() {}

    @Flag(name: .shortAndLong, help: "Print errors only, not warnings.")
    package var quiet = false

    @Flag(help: "Treat warnings as errors.")
    package var warningsAsErrors = false
}

/// Reading a model path for a command: load and validate it (`DataModel.ModelLoader`), print
/// its diagnostics on standard error as `path:line:col: severity: message`, and say whether
/// the command may go on. Every command that reads a model goes through here.
package enum ModelLoading {
    /// Loads the model at `path` and prints its diagnostics.
    /// - Returns: the bundle, and whether there were errors (after `--warnings-as-errors`).
    static func loadReporting(
        _ path: String, versionName: String? = nil, versions: VersionSelection = .all, validating: VersionSelection = .all,
        options: DiagnosticOptions
    ) -> (bundle: ModelBundle?, failed: Bool, diagnostics: [Diagnostic]) {
        let result = ModelLoader().load(at: path, versionName: versionName, versions: versions, validating: validating)
        var failed = result.bundle == nil
        var reported: [Diagnostic] = []
        for var diagnostic in result.diagnostics {
            if options.warningsAsErrors && diagnostic.severity == .warning { diagnostic.severity = .error }
            if diagnostic.severity == .error { failed = true }
            reported.append(diagnostic)
            if options.quiet && diagnostic.severity != .error { continue }
            printToStandardError(diagnostic.description)
        }
        return (result.bundle, failed, reported)
    }

    /// Loads the model at `path`, prints its diagnostics and returns it; exits with status 1
    /// when there were errors.
    static func load(
        _ path: String, versionName: String? = nil, versions: VersionSelection = .all, validating: VersionSelection = .all,
        options: DiagnosticOptions
    ) throws -> ModelBundle {
        let (bundle, failed, _) = loadReporting(
            path, versionName: versionName, versions: versions, validating: validating, options: options)
        guard let bundle, !failed else { throw ExitCode.failure }
        return bundle
    }

    package static func printToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
