import DataModelReader
import Foundation
import GRDB
@testable import ManagedObjects
import ModelFileLoading
import Testing

/// The apps' own mapping models (`shared/corpus`): picked by the entity version hashes of the
/// models each file keeps, as Core Data picks them, and run with the Swift ports of the apps'
/// policies (``AppMigrationPolicies``) on the apps' real stores (`shared/stores`).
@Suite("Migration: the apps' mapping models and policies")
struct AppMappingModelTests {
    init() {
        RealAppTransformers.registered
    }

    struct MappingFile: CustomTestStringConvertible, Sendable {
        var file: String
        var bundle: String
        /// The versions the file's archived models are (by entity hashes); `nil`: its archive is
        /// that of no version, and the names written in the file are used.
        var source: String?
        var destination: String?
        var testDescription: String { file }
    }

    static let srg = "SRGSSR__srguserdata-apple/Sources/SRGUserData/Data/"
    static let moody = "objcio__core-data/Migrations/Migrations/"
    static let example = "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/"
    static let testStore = "ebf__CTDataStoreManager/CTDataStoreManager/CTDataStoreManagerTests/CoreDataTests/MigrationTest/"

    static let files: [MappingFile] = [
        MappingFile(file: srg + "SRGUserData_v1_v2.xcmappingmodel", bundle: srg + "SRGUserData.xcdatamodeld", source: "SRGUserData_v1", destination: "SRGUserData_v2"),
        MappingFile(file: srg + "SRGUserData_v2_v3.xcmappingmodel", bundle: srg + "SRGUserData.xcdatamodeld", source: "SRGUserData_v2", destination: "SRGUserData_v3"),
        MappingFile(file: srg + "SRGUserData_v3_v4.xcmappingmodel", bundle: srg + "SRGUserData.xcdatamodeld", source: "SRGUserData_v3", destination: "SRGUserData_v4"),
        MappingFile(file: srg + "SRGUserData_v4_v5.xcmappingmodel", bundle: srg + "SRGUserData.xcdatamodeld", source: "SRGUserData_v4", destination: "SRGUserData_v5"),
        // Its archived v6 has an entity (SRGUserDataDummyClassForWarningSuppression) and a
        // hierarchy the v6 the app ships does not: matched by the names written.
        MappingFile(file: srg + "SRGUserData_v5_v6.xcmappingmodel", bundle: srg + "SRGUserData.xcdatamodeld", source: "SRGUserData_v5", destination: nil),
        MappingFile(file: srg + "SRGUserData_v6_v7.xcmappingmodel", bundle: srg + "SRGUserData.xcdatamodeld", source: "SRGUserData_v6", destination: "SRGUserData_v7"),
        MappingFile(file: moody + "Moody 2-Moody 3.xcmappingmodel", bundle: moody + "Moody.xcdatamodeld", source: "Moody 2", destination: "Moody 3"),
        MappingFile(file: moody + "Moody 3-Moody 4.xcmappingmodel", bundle: moody + "Moody.xcdatamodeld", source: "Moody 3", destination: "Moody 4"),
        MappingFile(file: moody + "Moody 4-Moody 5.xcmappingmodel", bundle: moody + "Moody.xcdatamodeld", source: "Moody 4", destination: "Moody 5"),
        MappingFile(file: moody + "Moody 5-Moody 6.xcmappingmodel", bundle: moody + "Moody.xcdatamodeld", source: "Moody 5", destination: "Moody 6"),
        MappingFile(file: example + "Migration/Mappings/Migration1to2.xcmappingmodel", bundle: example + "Model/CoreDataMigration_Example.xcdatamodeld",
                    source: "CoreDataMigration_Example", destination: "CoreDataMigration_Example 2"),
        MappingFile(file: example + "Migration/Mappings/Migration2to3.xcmappingmodel", bundle: example + "Model/CoreDataMigration_Example.xcdatamodeld",
                    source: "CoreDataMigration_Example 2", destination: "CoreDataMigration_Example 3"),
        MappingFile(file: testStore + "TestMigrationStore_1_2.xcmappingmodel", bundle: testStore + "TestMigrationStore.xcdatamodeld",
                    source: "TestMigrationStore", destination: "TestMigrationStore 2"),
        MappingFile(file: testStore + "TestMigrationStore_2_3.xcmappingmodel", bundle: testStore + "TestMigrationStore.xcdatamodeld",
                    source: "TestMigrationStore 2", destination: "TestMigrationStore 3"),
    ]

    static func corpus(_ path: String) -> URL { AppStoreMigrationTests.corpus(path) }

    @Test("each mapping file's archived models are versions of its bundle, by entity version hashes", arguments: files)
    func archivedModelsMatchByHashes(_ file: MappingFile) throws {
        let versions = try ManagedObjectModelVersions(contentsOf: Self.corpus(file.bundle))
        AppMigrationPolicies.registerAll()
        let mapping = try MappingModel(contentsOf: Self.corpus(file.file), versions: versions)
        #expect((mapping.sourceEntityVersionHashes != nil) == (file.source != nil))
        #expect((mapping.destinationEntityVersionHashes != nil) == (file.destination != nil))
        if let source = file.source {
            #expect(mapping.sourceVersionName == source)
            #expect(mapping.sourceEntityVersionHashes == versions.version(named: source)?.entityVersionHashesByName)
        }
        if let destination = file.destination {
            #expect(mapping.destinationVersionName == destination)
            #expect(mapping.destinationEntityVersionHashes == versions.version(named: destination)?.entityVersionHashesByName)
        }
    }

    static let exampleBundle = example + "Model/CoreDataMigration_Example.xcdatamodeld"
    static let exampleMappings = example + "Migration/Mappings/"

    @Test("a mapping file whose version names are stale is still picked, by the hashes of the models it keeps")
    func staleNamesMatchByHashes() throws {
        let versions = try ManagedObjectModelVersions(contentsOf: Self.corpus(Self.exampleBundle))
        AppMigrationPolicies.registerAll()
        var document = try MappingModelReader().read(at: Self.corpus(Self.exampleMappings + "Migration2to3.xcmappingmodel").path)
        // As a real app's file names `…2.2` for the version now named `…2.1`.
        document.sourceVersionName = "CoreDataMigration_Example 2.2"
        document.destinationVersionName = "CoreDataMigration_Example 3.2"
        let mapping = try MappingModel(document, versions: versions, file: "Migration2to3 (renamed)")
        #expect(mapping.sourceVersionName == "CoreDataMigration_Example 2")
        #expect(mapping.destinationVersionName == "CoreDataMigration_Example 3")

        // Migration uses it (its policy makes the colors; inference would make none).
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("wibosco__CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite", into: directory)
        let model3 = try #require(versions.version(named: "CoreDataMigration_Example 3"))
        let container = try RealStoreMigrationTests.container(model3, versions: versions, at: url) { $0.mappingModels = [mapping] }
        #expect(try RealStoreMigrationTests.count("Color", in: container.newBackgroundContext()) == 5979)

        // Without archived models the stale names match nothing: the file is refused, naming them.
        document.sourceModel = nil
        let refused = #expect(throws: ManagedObjectError.self) { try MappingModel(document, versions: versions, file: "Migration2to3 (renamed)") }
        #expect(refused?.message.contains("CoreDataMigration_Example 2.2") == true)
    }

    @Test("a direct mapping model is preferred to a chain of steps")
    func directMappingPreferred() throws {
        let versions = try ManagedObjectModelVersions(contentsOf: Self.corpus(Self.exampleBundle))
        let first = versions.versions[0], third = versions.versions[2]
        let oneToTwo = try MappingModel(contentsOf: Self.corpus(Self.exampleMappings + "Migration1to2.xcmappingmodel"), versions: versions)
        let direct = MappingModel(
            from: "stale name", to: "stale name", entityMappings: [],
            sourceEntityVersionHashes: first.entityVersionHashes, destinationEntityVersionHashes: third.entityVersionHashes)
        let options = StoreMigrationOptions(modelVersions: versions, mappingModels: [oneToTwo, direct])
        let steps = try #require(try StoreMigration.steps(fromVersionAt: 0, to: third.model, options: options, store: "store"))
        #expect(steps.map(\.destination.name) == ["CoreDataMigration_Example 3"])
        #expect(steps.first?.mappingModel?.sourceEntityVersionHashes == first.entityVersionHashes)
        // Without it: the app's 1 → 2, then 2 → 3 inferred.
        let chain = try #require(try StoreMigration.steps(
            fromVersionAt: 0, to: third.model, options: StoreMigrationOptions(modelVersions: versions, mappingModels: [oneToTwo]), store: "store"))
        #expect(chain.map(\.destination.name) == ["CoreDataMigration_Example 2", "CoreDataMigration_Example 3"])
        #expect(chain.map { $0.mappingModel != nil } == [true, false])
    }

    @Test("Post2ToPost3MigrationPolicy (CoreDataMigration-Example): each post gets a Color holding its former hexColor")
    func post2ToPost3() throws {
        let versions = try ManagedObjectModelVersions(contentsOf: Self.corpus(Self.exampleBundle))
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("wibosco__CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite", into: directory)
        let before = try rawSQL(url.path, "SELECT ZPOSTID, ZHEXCOLOR FROM ZPOST").split(separator: "\n")
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let hexByPost = Dictionary(uniqueKeysWithValues: before.map { ($0[0], $0[1]) })
        let source = AppStoreMigrationTests.Source(
            store: "wibosco__CoreDataMigration-Example/CoreDataMigration_Example_2.sqlite", bundle: Self.exampleBundle, mappingFolder: Self.exampleMappings)
        let model3 = try #require(versions.version(named: "CoreDataMigration_Example 3"))
        let mappings = try AppStoreMigrationTests.mappingModels(for: source, versions: versions)
        let container = try RealStoreMigrationTests.container(model3, versions: versions, at: url) { $0.mappingModels = mappings }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let posts = try context.fetch(FetchRequest<ManagedObject>(entityName: "Post"))
            #expect(posts.count == 5979)
            var colorIDs = Set<String>()
            for post in posts {
                let color = try #require(post.value(forKey: "color") as? ManagedObject)
                #expect(color.value(forKey: "hex") as? String == hexByPost[post.value(forKey: "postID") as? String ?? ""])
                #expect(color.value(forKey: "post") as? ManagedObject === post)
                colorIDs.insert(try #require(color.value(forKey: "colorID") as? String))
            }
            #expect(colorIDs.count == 5979)
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Color")) == 5979)
        }
    }

    @Test("Country5ToCountry6Policy (objcio Moody): each country gets the Continent of its former isoContinent, one per code")
    func country5ToCountry6() throws {
        let versions = try ManagedObjectModelVersions(contentsOf: Self.corpus(Self.moody + "Moody.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("objcio__core-data/Moody 5.moody", into: directory)
        let before = try rawSQL(url.path, "SELECT ZNUMERICISO3166CODE, ZISOCONTINENT FROM ZCOUNTRY").split(separator: "\n")
            .map { $0.split(separator: "|").compactMap { Int($0) } }
        let continentByCountry = Dictionary(uniqueKeysWithValues: before.map { ($0[0], $0[1]) })
        let source = AppStoreMigrationTests.Source(store: "objcio__core-data/Moody 5.moody", bundle: Self.moody + "Moody.xcdatamodeld", mappingFolder: Self.moody)
        let model6 = try #require(versions.version(named: "Moody 6"))
        let mappings = try AppStoreMigrationTests.mappingModels(for: source, versions: versions)
        let container = try RealStoreMigrationTests.container(model6, versions: versions, at: url) { $0.mappingModels = mappings }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let countries = try context.fetch(FetchRequest<ManagedObject>(entityName: "Country"))
            #expect(countries.count == 3)
            for country in countries {
                let code = try #require((country.value(forKey: "numericISO3166Code") as? NSNumber)?.intValue)
                let continent = try #require(country.value(forKey: "continent") as? ManagedObject)
                #expect((continent.value(forKey: "numericISO3166Code") as? NSNumber)?.intValue == continentByCountry[code])
            }
            let continents = try context.fetch(FetchRequest<ManagedObject>(entityName: "Continent"))
            #expect(continents.count == Set(continentByCountry.values).count)
        }
    }

    @Test("MHWBookToBookPolicy (BookMigration), Model1 → Model2: each book's authorName becomes an Author, one per name")
    func bookToBookModel2() throws {
        let bundle = "hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld"
        let versions = try ManagedObjectModelVersions(contentsOf: Self.corpus(bundle))
        let directory = try TemporaryDirectory()
        let url = try RealSQLiteStoreTests.copy("hwaxxer__BookMigration/Model1.sqlite", into: directory)
        let before = try rawSQL(url.path, "SELECT ZTITLE, ZAUTHORNAME FROM ZBOOK").split(separator: "\n")
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let authorByTitle = Dictionary(uniqueKeysWithValues: before.map { ($0[0], $0[1]) })
        let source = AppStoreMigrationTests.Source(
            store: "hwaxxer__BookMigration/Model1.sqlite", bundle: bundle, mappingFolder: "hwaxxer__BookMigration/BookMigration")
        let mappings = try AppStoreMigrationTests.mappingModels(for: source, versions: versions)
        #expect(mappings.first { $0.sourceVersionName == "Model1" }?.entityMappings.first { $0.name == "BookToBook" }?.userInfo == ["modelVersion": "2"])
        let files = try Self.decodedFileURLs(url.path)
        let model2 = try #require(versions.version(named: "Model2"))
        let container = try RealStoreMigrationTests.container(model2, versions: versions, at: url) { $0.mappingModels = mappings }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(books.count == 4)
            for book in books {
                let authors = try #require(book.value(forKey: "authors") as? Set<ManagedObject>)
                #expect(authors.map { $0.value(forKey: "name") as? String } == [authorByTitle[book.value(forKey: "title") as? String ?? ""]])
            }
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Author")) == Set(authorByTitle.values).count)
        }
        // The keyed archives of `fileURL` carry the same values (archived again through the
        // default transformer, so not byte for byte: Foundation on Linux writes its own layout).
        #expect(try Self.decodedFileURLs(url.path) == files)
    }

    /// Each book's title and its `fileURL` archive decoded by Foundation's own unarchiver.
    static func decodedFileURLs(_ path: String) throws -> [String: String] {
        var configuration = Configuration()
        configuration.readonly = true
        let rows = try DatabaseQueue(path: path, configuration: configuration).read { db in
            try Row.fetchAll(db, sql: "SELECT ZTITLE, ZFILEURL FROM ZBOOK WHERE ZFILEURL IS NOT NULL")
        }
        var decoded: [String: String] = [:]
        for row in rows {
            let data: Data = try #require(row["ZFILEURL"])
            decoded[row["ZTITLE"] ?? ""] = try #require(RealStoreFidelityTests.referenceDecoding(of: data) as? String)
        }
        #expect(decoded.count == 4)
        return decoded
    }
}
