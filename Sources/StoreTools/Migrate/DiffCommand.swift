import ArgumentParser
import Foundation
import ManagedObjects

/// `managedgen diff <bundle> [<from> <to>]`: what changes between two versions of a model and
/// what migrating a store between them does, without a store.
package struct DiffCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changes between two versions of a model, and what migration infers from it.",
        discussion: """
            Prints the steps a store of version <from> goes through to <to> (by default the \
            bundle's first and current versions), as `migrate --dry-run` prints them for a store: \
            per entity copied, renamed, added or removed; per property copied, renamed, defaulted, \
            converted or dropped; what blocks a step, with Core Data's error code (134140: needs a \
            mapping model). A step uses a mapping model given with --mapping when one maps it.

            Example:
              managedgen diff Moody.xcdatamodeld "Moody 2" "Moody 4"
            """
    )

    @Argument(help: "The model bundle (.xcdatamodeld).")
    var bundle: String

    @Argument(help: "The version to migrate from (default: the bundle's first).")
    var from: String?

    @Argument(help: "The version to migrate to (default: the current one).")
    var to: String?

    @Option(name: .customLong("mapping"), help: "A mapping model (.xcmappingmodel) a step may use; repeat for several.")
    var mappings: [String] = []

    package func validate() throws {
        if from != nil && to == nil { throw ValidationError("give both <from> and <to>, or neither") }
    }

    package func run() throws {
        try StoreToolCommands.reportingErrors {
            print(try Self.plan(bundle: bundle, from: from, to: to, mappings: mappings))
        }
    }

    /// The printed plan from `from` (default: the first version) to `to` (default: the current one).
    package static func plan(bundle: String, from: String?, to: String?, mappings: [String]) throws -> String {
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let source = try ModelVersionsLoading.version(named: from ?? versions.versions.first?.name, in: versions, bundle: bundle)
        let target = try ModelVersionsLoading.version(named: to, in: versions, bundle: bundle)
        let mappingModels = try ModelVersionsLoading.mappingModels(at: mappings, versions: versions)
        guard let sourceIndex = versions.versions.firstIndex(where: { $0.name == source.name }) else {
            throw StoreToolError(file: bundle, "has no version \(source.name)")
        }
        do {
            let outlines = try MigrationPlanning.outlines(
                versions: versions, fromVersionAt: sourceIndex, to: target, mappingModels: mappingModels, storeLayout: nil,
                objectsByEntity: nil, store: "a store of \(source.name)")
            return "\(bundle): \(source.name) → \(target.name)\n" + MigrationPlanText.text(of: outlines)
        } catch let error as ManagedObjectError {
            throw StoreToolError(file: bundle, "\(error.message) (\(error.code.rawValue))")
        }
    }
}
