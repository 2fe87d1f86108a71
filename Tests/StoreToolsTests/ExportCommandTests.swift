import Foundation
import ManagedObjects
import Testing
@testable import StoreTools

/// `managedgen export`: every object a fetch gives, with the same values, relationships as
/// object ID URIs; the store's files unchanged.
@Suite("managedgen export")
struct ExportCommandTests {
    init() {
        Self.transformers
    }

    /// Moody's `ColorsTransformer` (UIColor arrays) is not ported: a pass-through under its name,
    /// as the runtime's own tests register it, so a fetch reads its cells as their bytes. Without
    /// one, export writes the bytes too (`managedgenExportsUndecodedBytes`, in a process of its own).
    static let transformers: Void = {
        ValueTransformer.setValueTransformer(ValueTransformer(), forName: "ColorsTransformer")
    }()

    @Test("every object of every entity, with the values and relationships a fetch reads; the store's files unchanged", arguments: RealStore.withModel)
    func rowsEqualAFetch(_ store: RealStore) throws {
        let folder = try TemporaryFolder()
        let path = try store.copy(into: folder)
        let before = try folder.contents()
        let outputFolder = try TemporaryFolder()
        let output = outputFolder.url.appendingPathComponent("export.jsonl").path
        let bundle = try #require(store.bundlePath)
        let summary = try ExportCommand.export(StoreExporter(storeAt: path, bundle: bundle, format: .jsonl), toFile: output)
        #expect(try folder.contents() == before, "export changed the store's files")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == summary.total)
        var exported: [String: NSDictionary] = [:]
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            exported[try #require(object["objectID"] as? String)] = Self.normalized(object)
        }

        // The fetch, on a copy of its own, with the version that wrote the store.
        let fetchFolder = try TemporaryFolder()
        let versions = try ModelVersionsLoading.versions(at: bundle)
        let version = try #require(store.version)
        let model = try #require(versions.version(named: version))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: try store.copy(into: fetchFolder)))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        var fetched = 0
        for entity in model.entities {
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            let count = summary.objectsByEntity.first { $0.entity == entity.name }?.objects
            try context.performAndWait {
                let objects = try context.fetch(request)
                #expect(objects.count == count, "\(entity.name)")
                for object in objects {
                    let id = object.objectID.uriRepresentation.absoluteString
                    var expected: [String: Any] = ["entity": entity.name, "objectID": id]
                    for property in entity.properties {
                        let json = ExportValueEncoding.json(Self.exportable(object.primitiveValue(forKey: property.name)))
                        expected[property.name] = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
                    }
                    #expect(exported[id] == Self.normalized(expected), "\(id)")
                    fetched += 1
                }
            }
        }
        #expect(fetched == summary.total)
        #expect(exported.count == summary.total)
    }

    /// A fetched object's value as the store gives it: related objects as their IDs.
    static func exportable(_ value: Any?) -> Any? {
        if let object = value as? ManagedObject { return object.objectID }
        if let members = value as? any Sequence, !(value is String), !(value is Data) {
            var ids: [ManagedObjectID] = []
            for case let member as ManagedObject in members { ids.append(member.objectID) }
            return ids
        }
        return value
    }

    /// A to-many's URIs sorted (an unordered one's order is not the store's), numbers as they parse.
    static func normalized(_ object: [String: Any]) -> NSDictionary {
        NSDictionary(dictionary: object.mapValues { value -> Any in
            if let uris = value as? [String], uris.allSatisfy({ $0.hasPrefix("x-coredata:") }) { return uris.sorted() }
            return value
        })
    }

    @Test("json is one array of the jsonl objects; csv a header and a line each, quoted where needed")
    func formats() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "duckduckgo__BrowserServicesKit/Bookmarks_V5.sqlite" })
        let path = try store.copy(into: folder)
        let bundle = try #require(store.bundlePath)
        func export(_ format: ExportFormat, entities: [String] = []) throws -> String {
            let output = folder.url.appendingPathComponent("out.\(format.rawValue)").path
            _ = try ExportCommand.export(StoreExporter(storeAt: path, bundle: bundle, entities: entities, format: format), toFile: output)
            return try String(contentsOfFile: output, encoding: .utf8)
        }
        let jsonl = try export(.jsonl).split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try export(.json).utf8)) as? [NSDictionary])
        #expect(json == jsonl.compactMap { $0 })
        #expect(json.count == 10)
        let csv = try export(.csv, entities: ["BookmarkEntity"]).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(csv.count == 11)
        #expect(csv.first?.hasPrefix("entity,objectID,") == true)
        #expect(csv.first?.contains("favorites") == true)
        #expect(ExportValueEncoding.csv("a, \"b\"\nc") == "\"a, \"\"b\"\"\nc\"")
        #expect(ExportValueEncoding.json(Data([0, 1, 2])) == "\"AAEC\"")
        #expect(ExportValueEncoding.json(Date(timeIntervalSinceReferenceDate: 0)) == "\"2001-01-01T00:00:00.000Z\"")
        #expect(ExportValueEncoding.json("tab\there \"q\"") == "\"tab\\there \\\"q\\\"\"")
    }

    @Test("--entity takes the entity's sub-entities' objects too; an unknown entity names the model and its entities")
    func entities() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "objcio__core-data/Moody 2.moody" })
        let path = try store.copy(into: folder)
        let bundle = try #require(store.bundlePath)
        let output = folder.url.appendingPathComponent("regions.jsonl").path
        let summary = try ExportCommand.export(StoreExporter(storeAt: path, bundle: bundle, entities: ["GeographicRegion"], format: .jsonl), toFile: output)
        #expect(summary.total == 5)
        let error = try #require(throws: StoreToolError.self) {
            try ExportCommand.export(StoreExporter(storeAt: path, bundle: bundle, entities: ["Weather"], format: .jsonl), toFile: output + "2")
        }
        #expect(error.file == bundle)
        #expect(error.message.contains("has no entity Weather"))
        #expect(error.message.contains("Mood"))
        // A failed export leaves no file behind, not even a partial one.
        #expect(!FileManager.default.fileExists(atPath: output + "2"))
        #expect(!FileManager.default.fileExists(atPath: output + "2.partial"))
    }

    @Test("a store no version of the model wrote is refused, naming the store")
    func otherModel() throws {
        let folder = try TemporaryFolder()
        let store = try #require(RealStore.all.first { $0.path == "alemar11__CoreDataPlus/SampleModel3_V1.sqlite" })
        let path = try store.copy(into: folder)
        let error = try #require(throws: StoreToolError.self) {
            try ExportCommand.export(
                StoreExporter(storeAt: path, bundle: RealStore.corpus("objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld")),
                toFile: folder.url.appendingPathComponent("x.json").path)
        }
        #expect(error.file == path)
        #expect(error.message.contains("134020"))
    }
}
