import ArgumentParser

/// `managedgen validate <paths…>`: reads and checks models, printing compiler-style
/// diagnostics; exits with status 1 if any model has an error.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    func run() throws {
        var anyFailed = false
        for path in paths {
            if ModelLoading.loadReporting(path, options: diagnosticOptions).failed { anyFailed = true }
        }
        if anyFailed { throw ExitCode.failure }
    }
}
