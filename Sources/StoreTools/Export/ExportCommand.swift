import ArgumentParser
import Foundation

/// `managedgen export <store> --model <bundle> [--entity E…] [--format json|jsonl|csv]`.
package struct ExportCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every object of a Core Data SQLite store as JSON, JSON Lines or CSV.",
        discussion: """
            Each object with its entity, its object ID URI, its attributes and its relationships \
            (object ID URIs; a to-many as a list). Dates are ISO 8601 (UTC), binary data base64, \
            Transformable values decoded where a transformer here can read them (else their bytes, \
            base64). Objects are read one at a time and written as they come, so memory stays \
            bounded. The store is read from a private copy, with the model version that wrote it: \
            not a byte of it changes. With --output the file appears only once complete.

            Example:
              managedgen export Moody.moody --model Moody.xcdatamodeld --format jsonl
              managedgen export Moody.moody --model Moody.xcdatamodeld \\
                  --entity Mood --format csv --output moods.csv
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @Option(help: "The model bundle (.xcdatamodeld) one of whose versions wrote the store.")
    var model: String

    @Option(name: .customLong("entity"), help: "An entity to export, with its sub-entities; repeat for several (default: every entity).")
    var entities: [String] = []

    @Option(help: "json (one array), jsonl (an object a line) or csv.")
    var format: ExportFormat = .json

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    package func run() throws {
        try StoreToolCommands.reportingErrors {
            let exporter = StoreExporter(storeAt: store, bundle: model, entities: entities, format: format)
            guard let output else {
                _ = try exporter.export(to: BufferedOutput(handle: .standardOutput, name: "standard output"))
                return
            }
            let summary = try Self.export(exporter, toFile: output)
            StoreToolCommands.printError("\(output): \(summary.total) objects (\(summary.objectsByEntity.map { "\($0.entity) \($0.objects)" }.joined(separator: ", ")))")
        }
    }

    /// Exports into `<path>.partial` and renames it to `path` once complete; the partial file
    /// goes when the export fails.
    package static func export(_ exporter: StoreExporter, toFile path: String) throws -> StoreExporter.Summary {
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw StoreToolError(file: path, "cannot be created")
        }
        do {
            let summary = try exporter.export(to: BufferedOutput(handle: handle, name: path))
            try handle.close()
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: partial, toPath: path)
            return summary
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }
}
