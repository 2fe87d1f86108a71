import ArgumentParser
import Foundation
import ManagedObjects
import Testing
@testable import StoreTools

/// `managedgen migrate`: through the runtime's migration, the result opens with the later
/// version; a plan that is blocked, or a failure, leaves the store as it was.
@Suite("managedgen migrate")
struct MigrateCommandTests {
    @Test("every store with a later version migrates to the last one by inference, or is refused untouched", arguments: MigrationPlanTests.migratable)
    func migrates(_ store: RealStore) throws {
        let folder = try TemporaryFolder()
        let path = try store.copy(into: folder)
        let bundle = try #require(store.bundlePath)
        let before = try folder.contents()
        let objectsBefore = try StoreInspection(storeAt: path).entities
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let last = try #require(versions.versions.last)
        let current = last.model
        let plan = try MigrateCommand.plan(store: path, bundle: bundle, to: last.name, mappings: [])
        guard !plan.contains("  blocks (") else {
            let error = try #require(throws: StoreToolError.self) { try MigrateCommand.migrate(store: path, bundle: bundle, to: last.name, mappings: []) }
            #expect(error.file == path)
            #expect(error.message.contains("the store is left as it was"))
            #expect(try folder.contents() == before)
            return
        }
        var progress: [Int] = []
        let message = try MigrateCommand.migrate(store: path, bundle: bundle, to: last.name, mappings: []) { index, _ in progress.append(index) }
        #expect(message.contains("migrated from \(store.version ?? "")"))
        #expect(progress == Array(0...(progress.count - 1)) && progress.count >= 2)
        // The result is the current version's: it opens with it, without migrating.
        #expect(try !versions.isMigrationNecessary(forStoreAt: URL(fileURLWithPath: path), to: current))
        #expect(try versions.sourceVersion(ofStoreAt: URL(fileURLWithPath: path))?.name == last.name)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: current)
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: path))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        // Entities of the same name in every version on the way keep their objects.
        let source = try #require(versions.versions.firstIndex { $0.name == store.version })
        for entity in objectsBefore where versions.versions[source...].allSatisfy({ $0.model[entity.name] != nil }) {
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            let count = try context.performAndWait { try context.count(for: request) }
            #expect(count == entity.objects, "\(entity.name)")
        }
        // Nothing left beside the store but its own files.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!left.contains { $0.contains(".migrating.") })
    }

    @Test("at least the stores without blockers migrate (the test above is not all refusals)")
    func someMigrate() throws {
        var migrated = 0
        for store in MigrationPlanTests.migratable {
            let folder = try TemporaryFolder()
            let bundle = try #require(store.bundlePath)
            let last = try ModelVersionsLoading.versions(at: bundle).versions.last?.name
            let plan = try MigrateCommand.plan(store: try store.copy(into: folder), bundle: bundle, to: last, mappings: [])
            if !plan.contains("  blocks (") { migrated += 1 }
        }
        #expect(migrated >= 10)
    }

    @Test("migrating to --to stops at that version; a store already there is left alone")
    func toVersion() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "objcio__core-data/Moody 2.moody" })
        let path = try store.copy(into: folder)
        let bundle = try #require(store.bundlePath)
        _ = try MigrateCommand.migrate(store: path, bundle: bundle, to: "Moody 4", mappings: [])
        let versions = try ModelVersionsLoading.versions(at: bundle)
        #expect(try versions.sourceVersion(ofStoreAt: URL(fileURLWithPath: path))?.name == "Moody 4")
        let before = try folder.contents()
        #expect(try MigrateCommand.migrate(store: path, bundle: bundle, to: "Moody 4", mappings: []).contains("nothing to migrate"))
        #expect(try folder.contents() == before)
    }

    @Test("migrating back to an earlier version is refused with 134100, the store untouched")
    func backwards() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "objcio__core-data/Moody 4.moody" })
        let path = try store.copy(into: folder)
        let bundle = try #require(store.bundlePath)
        let before = try folder.contents()
        let error = try #require(throws: StoreToolError.self) {
            try MigrateCommand.migrate(store: path, bundle: bundle, to: "Moody 2", mappings: [])
        }
        #expect(error.file == path)
        #expect(error.message.contains("134100"))
        #expect(try folder.contents() == before)
    }

    @Test("a damaged store fails naming the file and stays as it was, with nothing beside it")
    func damagedStore() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "ebf__CTDataStoreManager/TestMigrationStore_version_1.sqlite" })
        let path = try store.copy(into: folder)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in 100..<min(bytes.count, 4096) { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        let bundle = try #require(store.bundlePath)
        let before = try folder.contents()
        let error = try #require(throws: StoreToolError.self) {
            try MigrateCommand.migrate(store: path, bundle: bundle, to: nil, mappings: [])
        }
        #expect(error.file == path)
        #expect(try folder.contents() == before)
    }

    @Test("the command exits non-zero on an error")
    func exitStatus() throws {
        let folder = try TemporaryFolder()
        var command = try MigrateCommand.parse([
            folder.url.appendingPathComponent("missing.sqlite").path, "--model", RealStore.corpus("objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld"),
        ])
        #expect(throws: ExitCode.failure) { try command.run() }
        command = try MigrateCommand.parse(["x.sqlite", "--model", folder.url.appendingPathComponent("missing.xcdatamodeld").path, "--dry-run"])
        #expect(throws: ExitCode.failure) { try command.run() }
    }

    @Test("progress: a bar redrawn in place on a terminal, a line per step otherwise")
    func progressLines() {
        let steps = [(source: "Moody 2", destination: "Moody 3"), (source: "Moody 3", destination: "Moody 4")]
        #expect(MigrationProgressReporter(onTerminal: false).line(0, steps) == "migrate: step 1 of 2: Moody 2 → Moody 3\n")
        #expect(MigrationProgressReporter(onTerminal: false).line(2, steps) == "migrate: done\n")
        let bar = MigrationProgressReporter(onTerminal: true).line(1, steps)
        #expect(bar.hasPrefix("\r\u{1B}[K[" + String(repeating: "#", count: 15) + String(repeating: "-", count: 15) + "] step 2 of 2"))
        #expect(MigrationProgressReporter(onTerminal: true).line(2, steps).hasSuffix("done\n"))
    }
}

extension MigrateCommandTests {
    @Test("a mapping model whose policy is the app's code (not registered here) is refused before the store is touched")
    func unregisteredPolicy() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "objcio__core-data/Moody 5.moody" })
        let path = try store.copy(into: folder)
        let bundle = try #require(store.bundlePath)
        let mapping = RealStore.corpus("objcio__core-data/Migrations/Migrations/Moody 5-Moody 6.xcmappingmodel")
        let plan = try MigrateCommand.plan(store: path, bundle: bundle, to: nil, mappings: [mapping])
        #expect(plan.contains("by mapping model Moody 5-Moody 6"))
        #expect(plan.contains("names migration policy Migrations.Country5ToCountry6Policy, which is not registered here"))
        let before = try folder.contents()
        let error = try #require(throws: StoreToolError.self) {
            try MigrateCommand.migrate(store: path, bundle: bundle, to: nil, mappings: [mapping])
        }
        #expect(error.message.contains("134110"))
        #expect(try folder.contents() == before)
    }
}
