import ArgumentParser
import DataModel
import Foundation
import ManagedObjects
import Testing
@testable import StoreTools

/// `managedgen inspect` on every real store: what it counts is what raw SQL counts, it names
/// the version that wrote the store, and it changes nothing.
@Suite("managedgen inspect")
struct InspectCommandTests {
    @Test("every store under shared/stores is known here (a new one needs its model listed)")
    func everyStoreListed() {
        #expect(RealStore.all.count >= 30)
        #expect(RealStore.all.filter { $0.bundle == nil }.map(\.path) == [
            "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V1.sqlite", "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V2.sqlite",
        ])
    }

    @Test("objects per entity, join-table rows and history equal raw SQL; the store's files are unchanged", arguments: RealStore.all)
    func countsEqualRawSQL(_ store: RealStore) throws {
        let folder = try TemporaryFolder()
        let path = try store.copy(into: folder)
        let before = try folder.contents()
        let inspection = try StoreInspection(storeAt: path, bundle: store.bundlePath)
        #expect(try folder.contents() == before, "inspect changed the store's files")

        // Raw SQL on a second copy (reading writes beside a store).
        let rawFolder = try TemporaryFolder()
        let raw = try store.copy(into: rawFolder)
        let entities = try rawIntegers(raw, "SELECT Z_ENT, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        let names = try rawStrings(raw, "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        #expect(inspection.entities.map(\.name).sorted() == names.sorted())
        var total = 0
        for entity in inspection.entities {
            let count = try rawIntegers(raw, "SELECT COUNT(*) FROM \(entity.table) WHERE Z_ENT = \(entity.number)").first?.first ?? nil
            #expect(Int64(entity.objects) == count, "\(entity.name)")
            total += entity.objects
        }
        // Every row of every entity table belongs to one entity.
        let tables = Set(inspection.entities.map(\.table))
        var rows: Int64 = 0
        for table in tables { rows += (try rawIntegers(raw, "SELECT COUNT(*) FROM \(table)").first?.first ?? nil) ?? 0 }
        #expect(Int64(total) == rows)
        // Sub-entities' objects add up to their root's.
        for root in inspection.entities where root.superentity == nil {
            #expect(root.objectsWithSubentities == inspection.entities.filter { $0.table == root.table }.map(\.objects).reduce(0, +))
        }
        #expect(entities.count == inspection.entities.count)
        for join in inspection.joinTables {
            #expect(try rawIntegers(raw, "SELECT COUNT(*) FROM \(join.name)").first?.first == Int64(join.rows), "\(join.name)")
        }
        let hasHistory = try !rawStrings(raw, "SELECT name FROM sqlite_master WHERE name = 'ATRANSACTION'").isEmpty
        #expect((inspection.history != nil) == hasHistory)
        if let history = inspection.history {
            #expect(try rawIntegers(raw, "SELECT COUNT(*) FROM ACHANGE").first?.first == Int64(history.changes))
        }
        #expect(inspection.integrityCheck == ["ok"])
        #expect(inspection.storeType == "SQLite")
        #expect(inspection.uuid == (try rawStrings(raw, "SELECT Z_UUID FROM Z_METADATA").first))
    }

    @Test("the stores' README counts: SurfJournal 5,000 (mostly in the WAL), the WAL-only store 84 + 84, SRG loggedIn 643")
    func knownCounts() throws {
        func objects(_ path: String) throws -> [String: Int] {
            let folder = try TemporaryFolder()
            let store = try #require(RealStore.all.first { $0.path == path })
            return Dictionary(uniqueKeysWithValues: try StoreInspection(storeAt: store.copy(into: folder)).entities.map { ($0.name, $0.objectsWithSubentities) })
        }
        #expect(try objects("raywenderlich__cdt-materials/SurfJournalModel.sqlite") == ["JournalEntry": 5000])
        #expect(try objects("wibosco__CoreDataMigration-Example/CoreDataMigration_Example_WAL.sqlite") == ["Color": 84, "Post": 84])
        #expect(try objects("SRGSSR__srguserdata-apple/UserData_DB_loggedIn/Data.sqlite")["SRGUserObject"] == 643)
        #expect(try objects("duckduckgo__BrowserServicesKit/Bookmarks_V4.sqlite") == ["BookmarkEntity": 10])
    }

    @Test("with the model: the version that wrote the store, by its hashes or (no hash matches) its tables", arguments: RealStore.withModel)
    func writingVersion(_ store: RealStore) throws {
        let folder = try TemporaryFolder()
        let path = try store.copy(into: folder)
        let before = try folder.contents()
        let inspection = try StoreInspection(storeAt: path, bundle: store.bundlePath)
        let match = try #require(inspection.model)
        #expect(match.writtenBy == store.version)
        #expect(match.identifiedBy != nil)
        if match.writtenBy == match.target {
            #expect(match.opening == "as is")
            #expect(match.steps.isEmpty)
        } else if match.reasons.contains(where: { $0.contains("134100") }) {
            // A later version than the bundle's current one wrote it (CoreDataPlus's bundles name
            // their first version current): Core Data does not migrate back.
            #expect(match.opening == "cannot open")
            #expect(match.steps.isEmpty)
        } else {
            #expect(["lightweight migration", "needs a mapping model", "cannot open"].contains(match.opening))
            #expect(!match.steps.isEmpty)
            #expect(match.opening == "lightweight migration" ? match.reasons.isEmpty : !match.reasons.isEmpty)
        }
        #expect(try folder.contents() == before)
    }

    @Test("a store opened with the version that wrote it opens as is; Moody 2 with the current version by lightweight migration")
    func openingVerdicts() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "objcio__core-data/Moody 2.moody" })
        let path = try store.copy(into: folder)
        let asIs = try #require(try StoreInspection(storeAt: path, bundle: store.bundlePath, targetVersion: "Moody 2").model)
        #expect(asIs.opening == "as is")
        #expect(asIs.identifiedBy == "version hashes")
        let later = try #require(try StoreInspection(storeAt: path, bundle: store.bundlePath).model)
        #expect(later.opening == "lightweight migration")
        #expect(later.steps == ["Moody 2 → Moody 3 (inferred)", "Moody 3 → Moody 4 (inferred)", "Moody 4 → Moody 5 (inferred)", "Moody 5 → Moody 6 (inferred)"])
        // A later version wrote it: Core Data's 134100, never opened back.
        let newer = try #require(RealStore.all.first { $0.path == "objcio__core-data/Moody 5.moody" })
        let back = try #require(try StoreInspection(storeAt: newer.copy(into: folder), bundle: newer.bundlePath, targetVersion: "Moody 2").model)
        #expect(back.opening == "cannot open")
        #expect(back.reasons.contains { $0.contains("134100") })
    }

    @Test("--json decodes back to the same report")
    func json() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "duckduckgo__BrowserServicesKit/Bookmarks_V5.sqlite" })
        let inspection = try StoreInspection(storeAt: store.copy(into: folder), bundle: store.bundlePath)
        let decoded = try JSONDecoder().decode(StoreInspection.self, from: Data(try inspection.json().utf8))
        #expect(try decoded.json() == inspection.json())
        #expect(decoded.joinTables.map(\.name) == ["Z_1FAVORITES"])
        #expect(decoded.joinTables.first?.rows == 5)
        #expect(decoded.model?.writtenBy == "BookmarksModel 5")
    }
}

extension InspectCommandTests {
    @Test("external binary data: the files of the store's _EXTERNAL_DATA folder and their size (no real store has any)")
    func externalData() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("Photos.sqlite")
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "Photo", attributes: [
                Attribute(name: "image", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
            ]),
        ]))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        // Core Data keeps values over 100 KB in files: two of 200,000 and 300,000 bytes, one small in the row.
        try context.performAndWait {
            for size in [200_000, 300_000, 10] {
                let photo = ManagedObject(entity: try #require(model["Photo"]), insertInto: context)
                photo.setValue(Data(repeating: 7, count: size), forKey: "image")
            }
            try context.save()
        }
        try coordinator.remove(store)
        let inspection = try StoreInspection(storeAt: url.path)
        let external = try #require(inspection.externalData)
        #expect(external.files == 2)
        #expect(external.bytes == 500_000)
        #expect(external.folder.hasSuffix(".Photos_SUPPORT/_EXTERNAL_DATA"))
        #expect(inspection.entities.first?.objects == 3)
    }
}
