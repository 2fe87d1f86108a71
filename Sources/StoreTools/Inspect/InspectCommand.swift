import ArgumentParser
import Foundation

/// `managedgen inspect <store> [--model <bundle>]`: what a store holds, read from a copy.
package struct InspectCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Report what a Core Data SQLite store holds, and which model version wrote it.",
        discussion: """
            Prints the store's type, UUID, Core Data framework version and model version hashes; \
            its entities with their objects (sub-entities' too), join tables, external data files, \
            history transactions and SQLite's integrity check. With --model, which version of the \
            bundle wrote the store (by version hashes, else by its tables) and whether the current \
            version (or --to) opens it as is, by lightweight migration, or only with a mapping model.
            The store is read from a private copy: not a byte of it (or of its -wal/-shm) changes.

            Example:
              managedgen inspect Moody.moody --model Moody.xcdatamodeld
              managedgen inspect Data.sqlite --json
            """
    )

    @Argument(help: "The store file (.sqlite, or any name Core Data was given).")
    var store: String

    @Option(help: "The model bundle (.xcdatamodeld) or version (.xcdatamodel) to compare the store with.")
    var model: String?

    @Option(help: "The version of --model the store would be opened with (default: the current one).")
    var to: String?

    @Option(name: .customLong("mapping"), help: "An app's mapping model (.xcmappingmodel) the migration may use; repeat for several.")
    var mappings: [String] = []

    @Flag(help: "Print the report as JSON, for scripts.")
    var json = false

    package func run() throws {
        try StoreToolCommands.reportingErrors {
            let inspection = try StoreInspection(storeAt: store, bundle: model, targetVersion: to, mappingModels: mappings)
            print(json ? try inspection.json() : inspection.text)
        }
    }
}
