import Foundation
import GRDB
import Testing

/// The real stores of `../shared/stores` (every SQLite file there, found by its header), each
/// with the model bundle in `../shared/corpus` one of whose versions wrote it and that
/// version's name (the stores' README). They are copied into a temporary folder before anything
/// reads them: SQLite writes beside a store even to read it.
struct RealStore: CustomTestStringConvertible, Sendable {
    /// Under `shared/stores`.
    var path: String
    /// Under `shared/corpus`; `nil`: its model is built in code (no model file).
    var bundle: String?
    /// The version that wrote it.
    var version: String?

    var testDescription: String { path }

    static let shared = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared").standardized

    static func corpus(_ path: String) -> String { shared.appendingPathComponent("corpus").appendingPathComponent(path).path }

    /// Every store file under `shared/stores`, sorted, with its model when the table below has it.
    static let all: [RealStore] = {
        let root = shared.appendingPathComponent("stores")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [RealStore] = []
        while let relative = walker.nextObject() as? String {
            guard !relative.hasSuffix("-wal"), !relative.hasSuffix("-shm"),
                  let handle = FileHandle(forReadingAtPath: root.appendingPathComponent(relative).path) else { continue }
            let header = try? handle.read(upToCount: 16)
            try? handle.close()
            guard header == Data("SQLite format 3\0".utf8) else { continue }
            let model = models.first { relative.hasPrefix($0.prefix) }
            found.append(RealStore(path: relative, bundle: model?.bundle, version: model?.version(relative)))
        }
        return found.sorted { $0.path < $1.path }
    }()

    static let withModel = all.filter { $0.bundle != nil }

    /// Store path prefix → bundle and the writing version's name.
    private static let models: [(prefix: String, bundle: String?, version: @Sendable (String) -> String?)] = [
        ("alemar11__CoreDataPlus/SampleModel2/", nil, { _ in nil }),
        ("alemar11__CoreDataPlus/SampleModel_V", "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld",
         { $0.contains("_V1") ? "SampleModel" : "SampleModel2" }),
        ("alemar11__CoreDataPlus/SampleModel3_V1", "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld", { _ in "SampleModel3" }),
        ("raywenderlich__cdt-materials/",
         "raywenderlich__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld",
         { _ in "SurfJournalModel" }),
        ("objcio__core-data/", "objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld",
         { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }),
        ("duckduckgo__BrowserServicesKit/Bookmarks_V", "duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld",
         { path in path.contains("_V1") ? "BookmarksModel" : "BookmarksModel " + String(path.dropLast(".sqlite".count).last!) }),
        ("duckduckgo__BrowserServicesKit/SyncMetadata_V3", "duckduckgo__BrowserServicesKit/Sources/DDGSync/SyncMetadata.xcdatamodeld",
         { _ in "SyncMetadata 3" }),
        ("SRGSSR__srguserdata-apple/", "SRGSSR__srguserdata-apple/Sources/SRGUserData/Data/SRGUserData.xcdatamodeld",
         { path in path.contains("loggedIn") ? "SRGUserData_v6" : "SRGUserData_v" + String(path.split(separator: "/")[1].last!) }),
        ("Karim-ezzedine__CartKit/", "Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.xcdatamodeld", { _ in "CartStorage" }),
        ("hwaxxer__BookMigration/", "hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld", { _ in "Model1" }),
        ("kasianov-mikhail__scout/", "kasianov-mikhail__scout/Sources/Scout/Core/Persistence/Scout.xcdatamodeld",
         { $0.contains("v4") ? "Scout 4" : "Scout" }),
        ("ebf__CTDataStoreManager/",
         "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest/TestMigrationStore.xcdatamodeld",
         { _ in "TestMigrationStore" }),
        ("bignerdranch__CoreDataStack/", "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", { _ in "TestModel" }),
        ("wibosco__CoreDataMigration-Example/", "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld",
         { path in
             let suffix = path.dropLast(".sqlite".count).split(separator: "_").last.map(String.init) ?? ""
             return switch suffix {
             case "1": "CoreDataMigration_Example"
             case "WAL": "CoreDataMigration_Example 4"
             default: "CoreDataMigration_Example \(suffix)"
             }
         }),
    ]

    var bundlePath: String? { bundle.map(Self.corpus) }

    /// Copies the store and its `-wal`/`-shm` into `directory`, writable.
    func copy(into directory: TemporaryFolder) throws -> String {
        let source = Self.shared.appendingPathComponent("stores").appendingPathComponent(path)
        let copy = directory.url.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: copy.path + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path + suffix)
        }
        return copy.path
    }
}

/// A temporary folder, removed when the value goes.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("StoreToolsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Every file in the folder with its bytes (the stores are small): equal before and after
    /// means not a byte changed and no file came or went.
    func contents() throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
            result[name] = try Data(contentsOf: url.appendingPathComponent(name))
        }
        return result
    }
}

/// The rows of `sql` on the SQLite file at `path` (a copy: reading writes beside it), as integers.
func rawIntegers(_ path: String, _ sql: String) throws -> [[Int64?]] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { Int64.fromDatabaseValue($0) } }
    }
}

func rawStrings(_ path: String, _ sql: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in try String.fetchAll(db, sql: sql) }
}

func rawBlobs(_ path: String, _ sql: String) throws -> [Data?] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in try Row.fetchAll(db, sql: sql).map { $0[0] as Data? } }
}

/// An SQLite file with one table of its own: not a Core Data store.
func makePlainSQLite(at path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
    try queue.close()
}
