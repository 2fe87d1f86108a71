import Foundation
import ManagedObjects
import Testing
@testable import StoreTools

/// `managedgen migrate --dry-run` and `managedgen diff`: one plan, printed from the runtime's
/// own migration steps and inference, and a dry run changes nothing.
@Suite("managedgen migrate --dry-run, managedgen diff")
struct MigrationPlanTests {
    /// Stores whose bundle has a version after the one that wrote them (migrated to the last
    /// version: CoreDataPlus's bundles name their first version current).
    static let migratable: [RealStore] = RealStore.withModel.filter { store in
        guard let bundle = store.bundlePath, let versions = try? ModelVersionsLoading.versions(at: bundle) else { return true }
        return versions.versions.last?.name != store.version
    }

    @Test("a dry run prints each step from the writing version and leaves the store's files as they were", arguments: migratable)
    func dryRun(_ store: RealStore) throws {
        let folder = try TemporaryFolder()
        let path = try store.copy(into: folder)
        let before = try folder.contents()
        let bundle = try #require(store.bundlePath)
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let plan = try MigrateCommand.plan(store: path, bundle: bundle, to: versions.versions.last?.name, mappings: [])
        #expect(try folder.contents() == before, "the dry run changed the store's files")
        let source = try #require(versions.versions.firstIndex { $0.name == store.version })
        let target = versions.versions.count - 1
        let steps = plan.split(separator: "\n").filter { $0.hasPrefix("step ") }
        #expect(steps.count == max(0, target - source), "\(plan)")
        if let first = steps.first {
            #expect(first.hasPrefix("step 1 of \(steps.count): \(store.version ?? "") → \(versions.versions[source + 1].name), inferred"))
        }
        #expect(plan.contains("blocks"))
    }

    @Test("diff between the writing and the current version prints the dry run's plan", arguments: migratable)
    func diffIsTheDryRunPlan(_ store: RealStore) throws {
        let folder = try TemporaryFolder()
        let path = try store.copy(into: folder)
        let bundle = try #require(store.bundlePath)
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let last = versions.versions.last?.name
        let dryRun = try MigrateCommand.plan(store: path, bundle: bundle, to: last, mappings: [])
        let diff = try DiffCommand.plan(bundle: bundle, from: store.version, to: last, mappings: [])
        // The same steps, entities and properties; blockers may differ (the store's objects decide
        // whether a required property without default blocks).
        func body(_ text: String) -> [Substring] {
            text.split(separator: "\n").dropFirst().filter { !$0.hasPrefix("  blocks") }
        }
        #expect(body(dryRun) == body(diff))
    }

    @Test("diff of Moody: the rename by renaming identifier, the added attribute with its default, the hierarchy dropped")
    func moodyDiff() throws {
        let bundle = RealStore.corpus("objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld")
        let oneStep = try DiffCommand.plan(bundle: bundle, from: "Moody", to: "Moody 2", mappings: [])
        #expect(oneStep.contains("step 1 of 1: Moody → Moody 2, inferred (lightweight)"))
        #expect(oneStep.contains("    attribute remoteID: renamed from remoteIdentifier"))
        #expect(oneStep.contains("    attribute rating: added, defaulted to 0"))
        #expect(oneStep.contains("  blocks: nothing"))
        let all = try DiffCommand.plan(bundle: bundle, from: nil, to: nil, mappings: [])
        #expect(all.split(separator: "\n").filter { $0.hasPrefix("step ") }.count == 5)
        #expect(all.contains("  entity GeographicRegion: removed"))
    }

    @Test("a step with a type change inference cannot make is blocked with 134140, naming entity and attribute")
    func blockedStep() throws {
        // CoreDataMigration-Example 2 → 3 turns the String hexColor into a relationship to a new
        // Color entity: the app ships a mapping model for it.
        let bundle = RealStore.corpus("wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
        let plan = try DiffCommand.plan(bundle: bundle, from: "CoreDataMigration_Example 2", to: "CoreDataMigration_Example 3", mappings: [])
        #expect(plan.contains("step 1 of 1"))
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let outlines = try MigrationPlanning.outlines(
            versions: versions, fromVersionAt: 1, to: try ModelVersionsLoading.version(named: "CoreDataMigration_Example 3", in: versions, bundle: bundle),
            mappingModels: [], storeLayout: nil, objectsByEntity: nil, store: "test")
        for blocker in outlines.flatMap(\.blockers) {
            #expect([134140, 134110].contains(blocker.code))
            #expect(blocker.entity != nil)
            #expect(plan.contains("blocks (\(blocker.code)"))
        }
    }

    @Test("a step by an app's mapping model prints its entity mappings")
    func mappingModelStep() throws {
        let folder = "SRGSSR__srguserdata-apple/Sources/SRGUserData/Data"
        let bundle = RealStore.corpus("\(folder)/SRGUserData.xcdatamodeld")
        let plan = try DiffCommand.plan(
            bundle: bundle, from: "SRGUserData_v5", to: "SRGUserData_v6", mappings: [RealStore.corpus("\(folder)/SRGUserData_v5_v6.xcmappingmodel")])
        #expect(plan.contains("step 1 of 1: SRGUserData_v5 → SRGUserData_v6, by mapping model SRGUserData_v5_v6"))
        #expect(plan.contains("mapped from"))
    }

    @Test("an unknown version names the bundle and its versions")
    func unknownVersion() throws {
        let bundle = RealStore.corpus("objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld")
        let error = try #require(throws: StoreToolError.self) { try DiffCommand.plan(bundle: bundle, from: "Moody 9", to: "Moody 2", mappings: []) }
        #expect(error.file == bundle)
        #expect(error.message.contains("has no version Moody 9"))
        #expect(error.message.contains("Moody 2"))
    }
}
