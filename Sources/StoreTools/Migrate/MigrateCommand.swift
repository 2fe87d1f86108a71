import ArgumentParser
import Foundation
import ManagedObjects

/// `managedgen migrate --model <bundle> <store> [--to <version>] [--mapping …] [--dry-run]`:
/// migrates a store through the runtime's migration, or prints its plan.
package struct MigrateCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a Core Data SQLite store to a later version of its model, or print the plan.",
        discussion: """
            Finds the version that wrote the store and migrates it, version by version, to the \
            current version (or --to), as the runtime does when it opens the store: each step \
            writes a new file beside the store and the store is replaced only when the last one \
            is complete, so a failure leaves it as it was. A step uses a mapping model given with \
            --mapping when one maps it, else the mapping is inferred (lightweight migration).
            --dry-run prints the plan instead (each step; per entity and property what becomes of \
            it; what blocks it, with Core Data's code) and reads the store from a private copy: \
            not a byte of it changes. Progress goes to standard error: a bar on a terminal, \
            a line per step otherwise.

            Example:
              managedgen migrate --model Moody.xcdatamodeld "Moody 2.moody" --dry-run
              managedgen migrate --model Moody.xcdatamodeld "Moody 2.moody" \\
                  --to "Moody 4" --mapping "Moody 2-Moody 3.xcmappingmodel"
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @Option(help: "The model bundle (.xcdatamodeld) whose versions wrote and will open the store.")
    var model: String

    @Option(help: "The version to migrate to (default: the bundle's current version).")
    var to: String?

    @Option(name: .customLong("mapping"), help: "An app's mapping model (.xcmappingmodel) for a step; repeat for several.")
    var mappings: [String] = []

    @Flag(help: "Print the plan and change nothing.")
    var dryRun = false

    package func run() throws {
        try StoreToolCommands.reportingErrors {
            if dryRun {
                print(try Self.plan(store: store, bundle: model, to: to, mappings: mappings))
            } else {
                let progress = MigrationProgressReporter(onTerminal: isatty(STDERR_FILENO) == 1)
                print(try Self.migrate(store: store, bundle: model, to: to, mappings: mappings, progress: progress.report))
            }
        }
    }

    /// The plan of migrating the store at `store`, read from a copy of it.
    package static func plan(store: String, bundle: String, to: String?, mappings: [String]) throws -> String {
        let (outlines, source, target) = try outlines(store: store, bundle: bundle, to: to, mappings: mappings)
        return "\(store): written by \(source), migrating to \(target)\n" + MigrationPlanText.text(of: outlines)
    }

    /// Migrates the store at `store` to `to` (default: the current version) and returns what
    /// was done. Refuses before touching the store when the plan has a blocker; the runtime's
    /// migration leaves the store as it was when a step fails.
    package static func migrate(
        store: String, bundle: String, to: String?, mappings: [String],
        progress: (_ index: Int, _ steps: [(source: String, destination: String)]) -> Void = { _, _ in }
    ) throws -> String {
        let (outlines, source, target) = try outlines(store: store, bundle: bundle, to: to, mappings: mappings)
        guard !outlines.isEmpty else { return "\(store): already at \(target); nothing to migrate" }
        let blockers = outlines.flatMap(\.blockers)
        guard blockers.isEmpty else {
            throw StoreToolError(
                file: store,
                "cannot migrate from \(source) to \(target), the store is left as it was:\n"
                    + blockers.map { "  \($0.reason) (\($0.code))" }.joined(separator: "\n"))
        }
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let targetVersion = try ModelVersionsLoading.version(named: to, in: versions, bundle: bundle)
        let mappingModels = try ModelVersionsLoading.mappingModels(at: mappings, versions: versions).map(\.model)
        let url = URL(fileURLWithPath: store)
        do {
            try SQLiteStoreMigration.migrateIfNeeded(
                storeAt: url, to: targetVersion.model, options: StoreMigrationOptions(modelVersions: versions, mappingModels: mappingModels),
                progress: { index, steps in progress(index, steps.map { ($0.source.name, $0.destination.name) }) })
            guard try !versions.isMigrationNecessary(forStoreAt: url, to: targetVersion.model) else {
                throw StoreToolError(file: store, "was migrated but does not read as \(target)")
            }
        } catch let error as ManagedObjectError {
            throw StoreToolError(file: store, "\(error.message) (\(error.code.rawValue)); the store is left as it was")
        }
        return "\(store): migrated from \(source) to \(target) in \(outlines.count) step(s)"
    }

    /// The steps' outlines, the version that wrote the store and the target's name.
    private static func outlines(
        store: String, bundle: String, to: String?, mappings: [String]
    ) throws -> (outlines: [MigrationPlanOutline], source: String, target: String) {
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let target = try ModelVersionsLoading.version(named: to, in: versions, bundle: bundle)
        let mappingModels = try ModelVersionsLoading.mappingModels(at: mappings, versions: versions)
        let snapshot = try StoreSnapshot(of: store)
        let inspection = try StoreInspection(storeAt: store)
        let layout: StoreVersionIdentification.StoreLayout
        do {
            layout = try SQLiteStoreMetadata.readStore(at: snapshot.url.path, StoreVersionIdentification.StoreLayout.read)
        } catch let error as ManagedObjectError {
            throw StoreToolError(file: store, snapshot.originalPath(in: error.message) + " (\(error.code.rawValue))")
        }
        let targetIndex = versions.index(of: target.model)
        guard let sourceIndex = StoreVersionIdentification.sourceVersionIndex(of: layout, among: versions, preferring: targetIndex) else {
            throw StoreToolError(
                file: store, "no version of \(bundle) has the store's version hashes or lays out as its tables: it was not written with this model (134020)")
        }
        let source = versions.versions[sourceIndex].name
        do {
            let outlines = try MigrationPlanning.outlines(
                versions: versions, fromVersionAt: sourceIndex, to: target, mappingModels: mappingModels, storeLayout: layout,
                objectsByEntity: Dictionary(inspection.entities.map { ($0.name, $0.objectsWithSubentities) }, uniquingKeysWith: +), store: store)
            return (outlines, source, target.name)
        } catch let error as ManagedObjectError {
            throw StoreToolError(file: store, "\(error.message) (\(error.code.rawValue))")
        }
    }
}
