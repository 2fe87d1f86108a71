import ArgumentParser
import DataModelReader

/// `managedgen validate <paths…>`: reads and checks models, printing compiler-style
/// diagnostics; exits with status 1 if any model has an error.
package struct ValidateCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Read and check Core Data models, printing errors and warnings.",
        discussion: """
            Each path is a .xcdatamodeld bundle (every version is read and checked), a \
            .xcdatamodel folder or a model contents file. Diagnostics go to standard error as \
            path:line:col: severity: message. The exit status is 1 if any model has an error.
            """
    )

    @Argument(help: "Model paths: .xcdatamodeld bundles, .xcdatamodel folders or contents files.")
    var paths: [String]

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    package func run() throws {
        var anyFailed = false
        for path in paths {
            let (bundle, failed, diagnostics) = ModelLoading.loadReporting(path, options: diagnosticOptions)
            if failed { anyFailed = true }
            if !diagnosticOptions.quiet {
                print(Self.summary(of: path, bundle: bundle, failed: failed, diagnostics: diagnostics))
            }
        }
        if anyFailed { throw ExitCode.failure }
    }

    /// One line a model on standard output: `path: valid (1 version, 2 entities, 0 warnings)`,
    /// or `path: 2 errors, 1 warning`.
    static func summary(of path: String, bundle: ModelBundle?, failed: Bool, diagnostics: [Diagnostic]) -> String {
        func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
            "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
        }
        let warnings = count(diagnostics.filter { $0.severity == .warning }.count, "warning")
        guard !failed, let bundle else {
            return "\(path): \(count(diagnostics.filter { $0.severity == .error }.count, "error")), \(warnings)"
        }
        let entities = count(bundle.current.model.entities.count, "entity", plural: "entities")
        return "\(path): valid (\(count(bundle.versions.count, "version")), \(entities) in the current one, \(warnings))"
    }
}
