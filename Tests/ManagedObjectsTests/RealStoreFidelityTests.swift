import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import ModelFileLoading
import Testing

/// Every store Core Data wrote in `shared/stores` (see its README), opened with the model version
/// that wrote it (found from the store's `NSStoreModelVersionHashes`, without migration): it reads
/// whole, as raw SQL reads the same file, and a store created here from that version has the same
/// tables, columns and indexes as the real file.
@Suite("Stores Core Data wrote: read whole, and created alike")
struct RealStoreFidelityTests {
    /// One store file (under `shared/stores`) and the bundle (under `shared/corpus`) holding the
    /// version that wrote it; `nil` when that model is built in code (CoreDataPlus's SampleModel2, read
    /// through ``SampleModel2Port``).
    struct RealStore: CustomTestStringConvertible, Sendable {
        var path: String
        var bundle: String?
        var testDescription: String { path }
    }

    /// The bundle of each store directory (or file prefix), as `shared/stores/README.md` lists them.
    static let bundles: [(prefix: String, bundle: String?)] = [
        ("Karim-ezzedine__CartKit/", "Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.xcdatamodeld"),
        ("SRGSSR__srguserdata-apple/", "SRGSSR__srguserdata-apple/Sources/SRGUserData/Data/SRGUserData.xcdatamodeld"),
        ("alemar11__CoreDataPlus/SampleModel2/", nil),
        ("alemar11__CoreDataPlus/SampleModel3", "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"),
        ("alemar11__CoreDataPlus/SampleModel_", "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
        ("bignerdranch__CoreDataStack/", "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld"),
        ("duckduckgo__BrowserServicesKit/Bookmarks", "duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld"),
        ("duckduckgo__BrowserServicesKit/SyncMetadata", "duckduckgo__BrowserServicesKit/Sources/DDGSync/SyncMetadata.xcdatamodeld"),
        ("ebf__CTDataStoreManager/",
         "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest/TestMigrationStore.xcdatamodeld"),
        ("hwaxxer__BookMigration/", "hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld"),
        ("kasianov-mikhail__scout/", "kasianov-mikhail__scout/Sources/Scout/Core/Persistence/Scout.xcdatamodeld"),
        ("objcio__core-data/", "objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld"),
        ("raywenderlich__cdt-materials/",
         "raywenderlich__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld"),
        ("wibosco__CoreDataMigration-Example/",
         "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"),
    ]

    init() {
        RealAppTransformers.registered
    }

    static var storesDirectory: URL { RealSQLiteStoreTests.shared.appendingPathComponent("stores") }

    /// Every SQLite file under `shared/stores` (told by its header, not its name: Moody's end
    /// in `.moody`), with its bundle.
    static let stores: [RealStore] = {
        let root = storesDirectory.path
        let files = (FileManager.default.subpaths(atPath: root) ?? []).filter { path in
            !path.hasSuffix("-wal") && !path.hasSuffix("-shm")
                && (FileManager.default.contents(atPath: root + "/" + path)?.prefix(16)).map { Data("SQLite format 3\0".utf8) == $0 } == true
        }
        return files.sorted().map { path in
            RealStore(path: path, bundle: bundles.first { path.hasPrefix($0.prefix) }.flatMap(\.bundle))
        }
    }()

    @Test("every store there is found and has its bundle listed")
    func everyStoreHasItsBundle() {
        #expect(Self.stores.count >= 34)
        for store in Self.stores {
            #expect(Self.bundles.contains { store.path.hasPrefix($0.prefix) }, "\(store.path) has no bundle listed")
        }
    }

    /// The version of `store.bundle` (of the port of a model built in code when there is no
    /// bundle) whose entity version hashes are the store's, read whole.
    static func writingVersion(of store: RealStore, at url: URL) throws -> ManagedObjectModel {
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: url)
        guard let bundlePath = store.bundle else {
            let stored = metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
            let differing = SampleModel2Port.versions.map { version in
                "\(version.name): \(version.model.entityVersionHashesByName.filter { stored[$0.key] != $0.value }.keys.sorted())"
            }
            return try #require(
                SampleModel2Port.versions.first { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }?.model,
                "\(store.path): no version of the port has the store's hashes; entities that differ: \(differing)")
        }
        let bundle = RealSQLiteStoreTests.shared.appendingPathComponent("corpus").appendingPathComponent(bundlePath)
        let names = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
            .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }.sorted()
        var unreadable: [String] = []
        var match: ManagedObjectModel?
        for name in names where match == nil {
            do {
                let model = try ManagedObjectModel(contentsOf: bundle, versionName: name)
                if model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { match = model }
            } catch {
                unreadable.append("\(name): \(error)")
            }
        }
        return try #require(match, "\(store.path): no version of \(bundlePath) has the store's hashes; unreadable: \(unreadable)")
    }

    /// The `Z_PK`s of `table`'s rows of `entity` (by `Z_ENT`), as a subquery.
    static func keys(of table: String, number: Int64) -> String { "SELECT Z_PK FROM \(table) WHERE Z_ENT = \(number)" }

    @Test("it opens with the version that wrote it and reads whole: counts, non-NULL attributes, members, order, values",
          arguments: stores)
    func readsWhole(_ store: RealStore) throws {
        try Self.readWhole(store)
    }

    static func readWhole(_ store: RealStore) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(store.path, into: directory)
        let model = try writingVersion(of: store, at: url)
        let context = try sqliteContext(model, at: url)
        let sqlite = try #require(context.persistentStoreCoordinator.persistentStores.first as? SQLiteStore)
        let schema = sqlite.schema
        let raw = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? raw.close() }
        func scalar(_ sql: String) throws -> Int { try raw.read { try Int.fetchOne($0, sql: sql) } ?? -1 }
        for entity in model.entities {
            let number = try #require(schema.entityNumbers[entity.name])
            let table = schema.table(of: entity).name
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            request.sortDescriptors = []
            let objects = try context.performAndWait { try context.fetch(request) }
            let label = "\(store.path) \(entity.name)"
            #expect(objects.count == (try scalar("SELECT COUNT(*) FROM \(table) WHERE Z_ENT = \(number)")), "\(label): objects")
            let rows = try raw.read { db in
                try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE Z_ENT = \(number)")
                    .map { (($0["Z_PK"] as Int64?) ?? 0, $0) })
            }
            for property in entity.properties {
                let name = "\(label).\(property.name)"
                switch schema.storage[entity.name]![property.index] {
                case .attribute(let column, let type):
                    let values = context.performAndWait { objects.map { ($0.objectID.storeNumber ?? 0, $0.value(forKey: property.name)) } }
                    #expect(values.filter { $0.1 != nil }.count == (try scalar("SELECT COUNT(\(column)) FROM \(table) WHERE Z_ENT = \(number)")),
                            "\(name): non-NULL values")
                    // Values: a sample of rows, compared with what the cell holds.
                    for (key, value) in values.prefix(25) {
                        let cell = rows[key].map { $0[column] as DatabaseValue } ?? .null
                        #expect(matches(value, cell, type: type, transformerName: property.transformerName),
                                "\(name) of row \(key): read \(String(describing: value)), cell \(cell)")
                    }
                case .composite(let elements):
                    // Each element's column, as an attribute's (no store in shared/stores has one yet).
                    let values = context.performAndWait { objects.map { ($0.objectID.storeNumber ?? 0, $0.value(forKey: property.name)) } }
                    for element in elements {
                        for (key, value) in values.prefix(25) {
                            let cell = rows[key].map { $0[element.column] as DatabaseValue } ?? .null
                            let elementValue = try CompositeValues.element(at: element.path, of: value, attribute: name)
                            #expect(matches(elementValue, cell, type: element.type, transformerName: nil),
                                    "\(name).\(element.path.joined(separator: ".")) of row \(key): cell \(cell)")
                        }
                    }
                case .toOne(let column, _):
                    let keys = context.performAndWait {
                        objects.map { ($0.objectID.storeNumber ?? 0, ($0.value(forKey: property.name) as? ManagedObject)?.objectID.storeNumber) }
                    }
                    #expect(keys.filter { $0.1 != nil }.count == (try scalar("SELECT COUNT(\(column)) FROM \(table) WHERE Z_ENT = \(number)")),
                            "\(name): to-one members")
                    for (key, related) in keys.prefix(25) {
                        #expect(related == rows[key].flatMap { $0[column] as Int64? }, "\(name) of row \(key)")
                    }
                case .toManyByInverse(let destination, let foreignKey, let orderColumn):
                    let members = context.performAndWait {
                        objects.map { ($0.objectID.storeNumber ?? 0, $0.resolvedToMany(at: property.index).compactMap(\.objectID.storeNumber)) }
                    }
                    #expect(members.map(\.1.count).reduce(0, +) == (try scalar(
                        "SELECT COUNT(*) FROM \(destination) WHERE \(foreignKey) IN (\(keys(of: table, number: number)))")),
                        "\(name): to-many members by key")
                    if let orderColumn {
                        for (key, keys) in members.prefix(25) {
                            let expected = try raw.read {
                                try Int64.fetchAll($0, sql: "SELECT Z_PK FROM \(destination) WHERE \(foreignKey) = ? ORDER BY \(orderColumn), Z_PK",
                                                   arguments: [key])
                            }
                            #expect(keys == expected, "\(name) of row \(key): order")
                        }
                    }
                case .toManyByJoin(let join, let side):
                    let members = context.performAndWait {
                        objects.map { ($0.objectID.storeNumber ?? 0, $0.resolvedToMany(at: property.index).compactMap(\.objectID.storeNumber)) }
                    }
                    #expect(members.map(\.1.count).reduce(0, +) == (try scalar(
                        "SELECT COUNT(*) FROM \(join.name) WHERE \(join.column(side)) IN (\(keys(of: table, number: number)))")),
                        "\(name): to-many members by join table")
                    if let orderColumn = join.orderColumn(ownedBy: side) {
                        for (key, keys) in members.prefix(25) {
                            let expected = try raw.read {
                                try Int64.fetchAll($0, sql: """
                                    SELECT \(join.otherColumn(side)) FROM \(join.name) WHERE \(join.column(side)) = ? \
                                    ORDER BY \(orderColumn), \(join.otherColumn(side))
                                    """, arguments: [key])
                            }
                            #expect(keys == expected, "\(name) of row \(key): order")
                        }
                    }
                case .none:
                    continue
                }
            }
        }
    }

    /// Whether `value`, read for an attribute of `type`, is what `cell` holds as Core Data keeps
    /// that type (worked out here independently of the store's reading).
    static func matches(_ value: Any?, _ cell: DatabaseValue, type: AttributeType, transformerName: String? = nil) -> Bool {
        let number: Double? = switch cell.storage {
        case .int64(let integer): Double(integer)
        case .double(let double): double
        case .string(let string): Double(string)
        default: nil
        }
        switch (cell.storage, type) {
        case (.null, _):
            return value == nil
        case (_, .integer16), (_, .integer32), (_, .integer64):
            switch value {
            case let integer as Int16: return number == Double(integer)
            case let integer as Int32: return number == Double(integer)
            case let integer as Int64: return number == Double(integer)
            case let integer as Int: return number == Double(integer)
            default: return false
            }
        case (_, .boolean):
            return number != nil && (value as? Bool) == (number != 0)
        case (_, .double):
            return (value as? Double) == number
        case (_, .float):
            return (value as? Float) == number.map(Float.init)
        case (_, .date):
            return (value as? Date)?.timeIntervalSinceReferenceDate == number
        case (.int64(let integer), .decimal):
            return (value as? Decimal) == Decimal(integer)
        case (.double(let double), .decimal):
            return (value as? Decimal) == Decimal(string: "\(double)")
        case (.string(let text), .decimal):
            return (value as? Decimal) == Decimal(string: text)
        case (.string(let text), .string):
            return (value as? String) == text
        case (.string(let text), .uri):
            return (value as? URL)?.absoluteString == text
        case (.blob(let data), .uuid):
            return (value as? UUID).map { withUnsafeBytes(of: $0.uuid) { Data($0) } } == data
        case (.string(let text), .uuid):
            return (value as? UUID) == UUID(uuidString: text)
        case (.blob(let data), .binary):
            return (value as? Data) == data
        case (.blob(let data), .transformable):
            guard transformerName == nil || transformerName == "NSSecureUnarchiveFromData" else {
                // A custom transformer's bytes: the suite registers a pass-through under its name.
                return (value as? Data) == data
            }
            // The default transformer: the value Foundation's unarchiver finds in the archive.
            guard let value, let decoded = referenceDecoding(of: data), let reference = decoded else { return false }
            return String(describing: reference) == String(describing: value)
        default:
            return value != nil
        }
    }

    /// A keyed archive decoded by Foundation's own unarchiver (independently of the store's
    /// reader), when every class it names is one of Foundation's plist classes: on Linux that
    /// unarchiver stops the program on any other, so those are left to the store's reader.
    static func referenceDecoding(of data: Data) -> Any?? {
        let classes: [String: AnyClass] = [
            "NSArray": NSArray.self, "NSMutableArray": NSArray.self, "NSDictionary": NSDictionary.self,
            "NSMutableDictionary": NSDictionary.self, "NSString": NSString.self, "NSMutableString": NSString.self,
            "NSNumber": NSNumber.self, "NSDate": NSDate.self, "NSData": NSData.self, "NSMutableData": NSData.self,
            "NSURL": NSURL.self, "NSUUID": NSUUID.self, "NSNull": NSNull.self, "NSSet": NSSet.self, "NSMutableSet": NSSet.self,
        ]
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              let objects = plist["$objects"] as? [Any] else { return nil }
        let names = objects.compactMap { ($0 as? [String: Any])?["$classname"] as? String }
        guard names.allSatisfy({ classes[$0] != nil }),
              let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = true
        let decoded = unarchiver.decodeObject(of: Array(classes.values), forKey: NSKeyedArchiveRootObjectKey)
        return .some(decoded.map { $0 as? String ?? $0 })
    }

    // MARK: Schema

    /// A file's schema as `sqlite_master` and the table pragmas give it: tables with their
    /// columns (name, declared type, primary-key position), indexes with their SQL, and
    /// uniqueness as the columns it covers: Core Data wrote it as a table constraint
    /// (`CONSTRAINT … UNIQUE`, framework 637) and later as `CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_…`
    /// (1044 on); a store created here takes the later form.
    struct Schema: Equatable, CustomStringConvertible {
        var tables: [String: [String]] = [:]
        var indexes: [String: String] = [:]

        init(path: String) throws {
            let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
            defer { try? queue.close() }
            try queue.read { db in
                for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") {
                    let name: String = row["name"]
                    if row["type"] as String == "table" {
                        tables[name] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))").map { column in
                            "\(column["name"] as String) \(column["type"] as String)\((column["pk"] as Int) > 0 ? " PK\(column["pk"] as Int)" : "")"
                        }.sorted()
                        for index in try Row.fetchAll(db, sql: "PRAGMA index_list(\(name))")
                        where (index["unique"] as Int) == 1 && (index["origin"] as String) != "pk" {
                            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index["name"] as String])
                            indexes["unique \(name) (\(columns.joined(separator: ", ")))"] = "unique"
                        }
                    } else if row["type"] as String == "index", let sql = row["sql"] as String?, !sql.uppercased().hasPrefix("CREATE UNIQUE") {
                        indexes[name] = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    }
                }
            }
        }

        var description: String {
            (tables.sorted { $0.key < $1.key }.map { "\($0.key)(\($0.value.joined(separator: ", ")))" }
                + indexes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }).joined(separator: "\n")
        }

        /// What `self` has that `other` does not, one line each.
        func lines(notIn other: Schema) -> [String] {
            let tableLines = tables.sorted { $0.key < $1.key }.flatMap { name, columns in
                other.tables[name] == nil ? ["table \(name)"] : columns.filter { !other.tables[name]!.contains($0) }.map { "\(name).\($0)" }
            }
            return tableLines + indexes.sorted { $0.key < $1.key }.filter { other.indexes[$0.key] != $0.value }.map { "index \($0.key): \($0.value)" }
        }
    }

    /// Indexes in real files that the version that wrote them does not declare, by store: each
    /// names an attribute (`Z_<Entity>_<attribute>`) where the version has a fetch index of
    /// another name on the same column, left by migrations from model revisions the
    /// repositories do not hold (Core Data does not drop an index a new version no longer has).
    static let leftoverIndexes: [String: Set<String>] = [
        "duckduckgo__BrowserServicesKit/Bookmarks_V2.sqlite": ["Z_BookmarkEntity_url", "Z_BookmarkEntity_uuid"],
        "duckduckgo__BrowserServicesKit/Bookmarks_V3.sqlite": ["Z_BookmarkEntity_isPendingDeletion"],
        "duckduckgo__BrowserServicesKit/Bookmarks_V4.sqlite": ["Z_BookmarkEntity_isPendingDeletion"],
        "duckduckgo__BrowserServicesKit/Bookmarks_V5.sqlite": ["Z_BookmarkEntity_isPendingDeletion"],
        "duckduckgo__BrowserServicesKit/SyncMetadata_V3.sqlite": ["Z_SyncFeatureEntity_name", "Z_SyncableSettingsMetadata_key"],
        "kasianov-mikhail__scout/Scout-v4.sqlite": ["Z_SyncDelivery_backendID"],
    ]

    @Test("a store created here from the version that wrote it has the real file's tables, columns and indexes",
          arguments: stores)
    func createdSchemaIsTheRealOne(_ store: RealStore) throws {
        try Self.compareCreatedSchema(store)
    }

    static func compareCreatedSchema(_ store: RealStore) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy(store.path, into: directory)
        let model = try writingVersion(of: store, at: url)
        let created = directory.file("Created.sqlite")
        var real = try Schema(path: url.path)
        // A store Core Data wrote with persistent history on has its tables: created here with
        // the same option (`NSPersistentHistoryTrackingKey`).
        let tracksHistory = real.tables["ATRANSACTION"] != nil
        try PersistentStoreCoordinator(managedObjectModel: model)
            .addPersistentStore(type: .sqlite, at: created, persistentHistoryTracking: tracksHistory)
        var ours = try Schema(path: created.path)
        for name in leftoverIndexes[store.path] ?? [] {
            #expect(real.indexes.removeValue(forKey: name) != nil, "\(store.path): no leftover index \(name) any more")
        }
        // Frameworks before 637 (Xcode 4-6 era: CTDataStoreManager 386, BookMigration 419,
        // SurfJournal 519) wrote no Z_MODELCACHE; later ones make it empty, as this store does.
        if real.tables["Z_MODELCACHE"] == nil { ours.tables["Z_MODELCACHE"] = nil }
        #expect(real.lines(notIn: ours).isEmpty && ours.lines(notIn: real).isEmpty, """
            \(store.path):
            only in the real file: \(real.lines(notIn: ours))
            only in the created one: \(ours.lines(notIn: real))
            """)
    }

    // MARK: Rules, each on the file that shows it

    /// Opens a copy of `path` with the version that wrote it; the copy's URL and a context.
    static func open(_ path: String, in directory: TemporaryDirectory) throws -> (URL, ManagedObjectModel, ManagedObjectContext) {
        let store = try #require(stores.first { $0.path == path })
        let url = try RealSQLiteStoreTests.copy(path, into: directory)
        let model = try writingVersion(of: store, at: url)
        return (url, model, try sqliteContext(model, at: url))
    }

    @Test("a reflexive ordered many-to-many reads each side from its own column, in the order column's order")
    func reflexiveManyToMany() throws {
        let directory = try TemporaryDirectory()
        let (url, _, context) = try Self.open("duckduckgo__BrowserServicesKit/Bookmarks_V4.sqlite", in: directory)
        // Raw: the folder's favorites in `Z_1FAVORITES`, ordered by `Z_FOK_1FAVORITES`.
        let folder = try #require(Int64(rawSQL(url.path, "SELECT Z_PK FROM ZBOOKMARKENTITY WHERE ZUUID = 'favorites_root'")))
        let favorites = try rawSQL(url.path, "SELECT Z_1FAVORITES FROM Z_1FAVORITES WHERE Z_1FAVORITEFOLDERS = \(folder) ORDER BY Z_FOK_1FAVORITES")
            .split(separator: "\n").compactMap { Int64($0) }
        #expect(favorites.count == 5)
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "BookmarkEntity")
            request.predicate = ObjectPredicate("uuid == %@", "favorites_root")
            let root = try #require(try context.fetch(request).first)
            let read = (root.value(forKey: "favorites") as? OrderedSet<ManagedObject>)?.compactMap(\.objectID.storeNumber)
            #expect(read == favorites)
            let first = try #require((root.value(forKey: "favorites") as? OrderedSet<ManagedObject>)?.first)
            #expect((first.value(forKey: "favoriteFolders") as? Set<ManagedObject>)?.map(\.objectID.storeNumber) == [folder])
        }
    }

    @Test("a to-many without inverse keeps its owner in the destination's column, which a save writes")
    func toManyWithoutInverse() throws {
        let directory = try TemporaryDirectory()
        let (url, model, context) = try Self.open("Karim-ezzedine__CartKit/CartStorage_v1.sqlite", in: directory)
        let item = try #require(Int64(rawSQL(url.path, "SELECT Z_PK FROM ZCDCARTITEM")))
        try context.performAndWait {
            let owner = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "CDCartItem")).first)
            #expect((owner.value(forKey: "modifiers") as? Set<ManagedObject>)?.isEmpty == true)
            let modifiers = ["Extra cheese", "No onions"].map { name in
                let modifier = ManagedObject(entity: model["CDCartItemModifier"]!, insertInto: context)
                modifier.setValue(name, forKey: "id")
                modifier.setValue(name, forKey: "name")
                modifier.setValue(Decimal(string: "0.5")!, forKey: "priceDeltaAmount")
                modifier.setValue("EUR", forKey: "priceDeltaCurrencyCode")
                return modifier
            }
            owner.setValue(Set(modifiers), forKey: "modifiers")
            try context.save()
        }
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZCDCARTITEMMODIFIER WHERE Z2MODIFIERS = \(item)") == "2")
        #expect(try rawSQL(url.path, "SELECT COUNT(*) FROM ZCDCARTITEMMODIFIER WHERE ZITEM IS NOT NULL") == "0")
        let reader = try sqliteContext(model, at: url)
        try reader.performAndWait {
            let owner = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "CDCartItem")).first)
            let names = (owner.value(forKey: "modifiers") as? Set<ManagedObject>)?.compactMap { $0.value(forKey: "name") as? String }
            #expect(names?.sorted() == ["Extra cheese", "No onions"])
            // Removing one clears its column.
            let kept = try #require(owner.value(forKey: "modifiers") as? Set<ManagedObject>).filter { $0.value(forKey: "name") as? String != "No onions" }
            owner.setValue(kept, forKey: "modifiers")
            try reader.save()
        }
        #expect(try rawSQL(url.path, "SELECT ZNAME FROM ZCDCARTITEMMODIFIER WHERE Z2MODIFIERS = \(item)") == "Extra cheese")
    }

    @Test("a row whose Z_ENT is not its table's one entity reads as that entity, as Core Data reads it")
    func unexpectedEntityNumberInOneEntityTable() throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("alemar11__CoreDataPlus/SampleModel3_V1.sqlite", into: directory)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "UPDATE ZUSER SET Z_ENT = 7 WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZUSER)") }
        try queue.close()
        let store = try #require(Self.stores.first { $0.path == "alemar11__CoreDataPlus/SampleModel3_V1.sqlite" })
        let model = try Self.writingVersion(of: store, at: url)
        let context = try sqliteContext(model, at: url)
        let key = try #require(Int64(rawSQL(url.path, "SELECT MIN(Z_PK) FROM ZUSER")))
        let name = try rawSQL(url.path, "SELECT ZNAME FROM ZUSER WHERE Z_PK = \(key)")
        try context.performAndWait {
            let users = try context.fetch(FetchRequest<ManagedObject>(entityName: "User"))
            #expect(users.count == 12)
            let odd = try #require(users.first { $0.objectID.storeNumber == key })
            #expect(odd.value(forKey: "name") as? String == name)
            #expect(!name.isEmpty)
        }
    }

    /// Cells of a DECIMAL column as SQLite keeps what Core Data bound (NUMERIC affinity: a whole
    /// number as INTEGER, as CartKit's `ZUNITPRICEAMOUNT` = 5, others as REAL, CoreDataPlus
    /// SampleModel2's 10.11 and 3.3333333333; numeric text becomes REAL too, so a TEXT cell
    /// reaches the reader only from PostgreSQL's NUMERIC, read as text): each reads as the
    /// Decimal written.
    @Test("a Decimal reads exactly from the INTEGER or REAL cell SQLite keeps it in", arguments: [
        ("5", "integer", "5"), ("9007199254740993", "integer", "9007199254740993"), ("10.11", "real", "10.11"),
        ("3.3333333333", "real", "3.3333333333"), ("-0.5", "real", "-0.5"), ("CAST('12.50' AS TEXT)", "real", "12.5"),
    ])
    func decimalFromEveryStorageClass(_ literal: String, _ storageClass: String, _ expected: String) throws {
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("Karim-ezzedine__CartKit/CartStorage_v1.sqlite", into: directory)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "UPDATE ZCDCARTITEM SET ZUNITPRICEAMOUNT = \(literal)") }
        try queue.close()
        #expect(try rawSQL(url.path, "SELECT typeof(ZUNITPRICEAMOUNT) FROM ZCDCARTITEM") == storageClass)
        let store = try #require(Self.stores.first { $0.path == "Karim-ezzedine__CartKit/CartStorage_v1.sqlite" })
        let context = try sqliteContext(try Self.writingVersion(of: store, at: url), at: url)
        try context.performAndWait {
            let item = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "CDCartItem")).first)
            #expect(item.value(forKey: "unitPriceAmount") as? Decimal == Decimal(string: expected))
        }
    }
}

extension PropertyDescription {
    /// The model's `valueTransformerName` of a Transformable attribute.
    fileprivate var transformerName: String? {
        if case .attribute(let attribute) = kind { attribute.attribute.valueTransformerName } else { nil }
    }
}
