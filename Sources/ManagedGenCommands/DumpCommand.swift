import ArgumentParser
import DataModelReader
import Foundation

/// `managedgen dump <path>`: prints the model as read, as stable JSON (sorted keys), for
/// inspecting what the reader saw and for diffing models.
package struct DumpCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a Core Data model as the reader sees it, as JSON.",
        discussion: """
            Prints the current version's model, or with --all-versions the whole bundle, as \
            JSON with sorted keys on standard output. Source locations are left out unless \
            --locations is given, so the output does not change when lines move. Diagnostics \
            go to standard error; the exit status is 1 if the model has an error (the model is \
            still printed if it could be read).
            """
    )

    @Argument(help: "A .xcdatamodeld bundle, a .xcdatamodel folder or a model contents file.")
    var path: String

    @Option(name: .customLong("version"), help: "The version of a bundle to print instead of the current one.")
    var versionName: String?

    @Flag(help: "Print every version of the bundle, not just the current one.")
    var allVersions = false

    @Flag(help: "Include the file, line and column each element was read from.")
    var locations = false

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    package func run() throws {
        let (bundle, failed, _) = ModelLoading.loadReporting(path, versionName: versionName, options: diagnosticOptions)
        if let bundle {
            let json = allVersions
                ? try bundle.jsonRepresentation(includingLocations: locations)
                : try bundle.current.model.jsonRepresentation(includingLocations: locations)
            FileHandle.standardOutput.write(json + Data("\n".utf8))
        }
        if failed { throw ExitCode.failure }
    }
}
