import DataModel
import Foundation
import ManagedObjects
import PostgresNIO
@testable import PostgreSQLStore
import Testing

/// Lightweight migration of a PostgreSQL store: written with the first version, opened with the
/// last through a container that knows every version, as the SQLite store's migration tests do.
@Suite("PostgreSQL store: migration", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLMigrationTests {
    /// A store in a fresh schema, written with one version and opened with another.
    final class Fixture: Sendable {
        let database = PostgreSQLTestServer.freshDatabase()
        let versions: ManagedObjectModelVersions

        init(_ models: [Model]) {
            versions = ManagedObjectModelVersions(versions: models.enumerated().map {
                .init(name: "V\($0.offset + 1)", model: ManagedObjectModel($0.element))
            })
            PostgreSQLStore.registerStoreType()
        }

        func model(_ number: Int) -> ManagedObjectModel { versions.versions[number - 1].model }

        /// Saves what `body` inserts, in a store of version `number` (no migration).
        func write(version number: Int = 1, _ body: (ManagedObjectContext, ManagedObjectModel) throws -> Void) throws {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(model(number)))
            try context.performAndWait {
                try body(context, model(number))
                try context.save()
            }
        }

        /// A context on the store opened with version `number` (the last by default) through a
        /// container, migrating as the description says.
        func open(version number: Int? = nil, configure: (inout PersistentStoreDescription) -> Void = { _ in }) throws -> ManagedObjectContext {
            let container = PersistentContainer(name: "Store", managedObjectModel: model(number ?? versions.versions.count))
            var description = PersistentStoreDescription(type: .postgreSQL, url: database.url)
            description.modelVersions = versions
            configure(&description)
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            return container.newBackgroundContext()
        }

        /// The objects of `entity` sorted by `sort`, as the values of `keys` (related objects by
        /// their name: `name`, or Owner's `fullName`).
        func values(_ entity: String, _ keys: [String], sortedBy sort: String, in context: ManagedObjectContext) throws -> [[String]] {
            try context.performAndWait {
                try fetch(entity, sortedBy: sort, in: context).map { object in
                    keys.map { key in
                        switch object.value(forKey: key) {
                        case let related as ManagedObject: Self.name(of: related)
                        case let set as Set<ManagedObject>: set.map(Self.name(of:)).sorted().joined(separator: "+")
                        case let value?: "\(value)"
                        case nil: "nil"
                        }
                    }
                }
            }
        }

        private static func name(of object: ManagedObject) -> String {
            let key = object.entity.property(named: "name") == nil ? "fullName" : "name"
            return object.value(forKey: key) as? String ?? "?"
        }

        /// Rows of `sql` in the store's schema, each column as text (`nil` for NULL).
        func rows(_ sql: String) throws -> [[String?]] {
            let pool = PostgreSQLConnectionPool(try PostgreSQLStore.connectionSettings(from: database.url))
            defer { pool.close() }
            return try pool.withConnection { connection in
                try pool.query(sql, on: connection).map { row in
                    PostgresRandomAccessRow(row).map { cell in
                        switch PostgreSQLConnectionPool.value(cell) {
                        case .null: nil
                        case .integer(let value): String(value)
                        case .real(let value): String(value)
                        case .text(let value): value
                        case .blob(let value): value.base64EncodedString()
                        }
                    }
                }
            }
        }

        /// Every table and column of the store's schema, every row of its entity tables, and the
        /// schemas of the database: what a failed migration must leave as it was.
        func everything() throws -> [[String?]] {
            var all = try rows("""
                SELECT table_name || '.' || column_name || ':' || data_type FROM information_schema.columns \
                WHERE table_schema = current_schema() ORDER BY 1
                """)
            for table in try rows("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1") {
                all += try rows("SELECT t::text FROM \(table[0]!) t ORDER BY 1")
            }
            return all + (try rows("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'z_migrating%'"))
        }
    }

    static func insert(_ entity: String, _ values: [String: Any?], in context: ManagedObjectContext, model: ManagedObjectModel) -> ManagedObject {
        let object = ManagedObject(entity: model[entity]!, insertInto: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    /// People with pets (one-to-many) and pets with tags (many-to-many).
    static let shelter = Model(entities: [
        Entity(
            name: "Person",
            attributes: [Attribute(name: "name", type: .string), Attribute(name: "age", type: .integer64, isOptional: true)],
            relationships: [Relationship(name: "pets", destinationEntity: "Pet", inverseName: "owner", inverseEntity: "Pet", isToMany: true, isOptional: true)]),
        Entity(
            name: "Pet",
            attributes: [Attribute(name: "name", type: .string)],
            relationships: [
                Relationship(name: "owner", destinationEntity: "Person", inverseName: "pets", inverseEntity: "Person", isOptional: true),
                Relationship(name: "tags", destinationEntity: "Tag", inverseName: "pets", inverseEntity: "Tag", isToMany: true, isOptional: true),
            ]),
        Entity(
            name: "Tag",
            attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "pets", destinationEntity: "Pet", inverseName: "tags", inverseEntity: "Pet", isToMany: true, isOptional: true)]),
    ])

    /// Two people, three pets, two tags.
    static func seedShelter(_ context: ManagedObjectContext, _ model: ManagedObjectModel) {
        let ada = insert("Person", ["name": "Ada", "age": Int64(36)], in: context, model: model)
        let bob = insert("Person", ["name": "Bob"], in: context, model: model)
        let calm = insert("Tag", ["name": "calm"], in: context, model: model)
        let loud = insert("Tag", ["name": "loud"], in: context, model: model)
        _ = insert("Pet", ["name": "Rex", "owner": ada, "tags": Set([calm, loud])], in: context, model: model)
        _ = insert("Pet", ["name": "Tom", "owner": ada, "tags": Set([calm])], in: context, model: model)
        _ = insert("Pet", ["name": "Zed", "owner": bob], in: context, model: model)
    }

    /// The shelter with Person renamed Owner, its name fullName, its pets animals (Pet's owner
    /// keeper), a required attribute added with a default and Person's age removed.
    static let renamedShelter = Model(entities: [
        Entity(
            name: "Owner", renamingIdentifier: "Person",
            attributes: [
                Attribute(name: "fullName", type: .string, renamingIdentifier: "name"),
                Attribute(name: "rank", type: .integer32, defaultValueString: "3"),
            ],
            relationships: [Relationship(
                name: "animals", destinationEntity: "Pet", inverseName: "keeper", inverseEntity: "Pet", isToMany: true, isOptional: true,
                renamingIdentifier: "pets")]),
        Entity(
            name: "Pet",
            attributes: [Attribute(name: "name", type: .string)],
            relationships: [
                Relationship(name: "keeper", destinationEntity: "Owner", inverseName: "animals", inverseEntity: "Owner", isOptional: true, renamingIdentifier: "owner"),
                Relationship(name: "tags", destinationEntity: "Tag", inverseName: "pets", inverseEntity: "Tag", isToMany: true, isOptional: true),
            ]),
        Entity(
            name: "Tag",
            attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "pets", destinationEntity: "Pet", inverseName: "tags", inverseEntity: "Pet", isToMany: true, isOptional: true)]),
    ])

    @Test("renames and an added attribute with a default keep every object and relationship, the store's UUID and its keys")
    func renamesAndAddedAttribute() throws {
        let fixture = Fixture([Self.shelter, Self.renamedShelter])
        try fixture.write(Self.seedShelter)
        let original = try fixture.database.makeStore(fixture.model(1))
        let identifier = original.identifier
        original.metadata["com.example.lastSync"] = "2026-11-28"
        try original.save(StoreChangeSet())
        let highestPetKey = try #require(fixture.rows("SELECT MAX(Z_PK) FROM ZPET").first?.first.flatMap { $0.flatMap { Int64($0) } })

        let context = try fixture.open()
        #expect(context.persistentStoreCoordinator.persistentStores.first?.identifier == identifier)
        // The app's metadata key stays; the model keys are the new version's.
        let metadata = try #require(context.persistentStoreCoordinator.persistentStores.first?.metadata)
        #expect(metadata["com.example.lastSync"] as? String == "2026-11-28")
        #expect(metadata["NSStoreModelVersionHashes"] as? [String: Data] == fixture.model(2).entityVersionHashesByName)
        #expect(try fixture.values("Owner", ["fullName", "rank", "animals"], sortedBy: "fullName", in: context)
            == [["Ada", "3", "Rex+Tom"], ["Bob", "3", "Zed"]])
        #expect(try fixture.values("Pet", ["name", "keeper", "tags"], sortedBy: "name", in: context)
            == [["Rex", "Ada", "calm+loud"], ["Tom", "Ada", "calm"], ["Zed", "Bob", ""]])
        #expect(try fixture.values("Tag", ["name", "pets"], sortedBy: "name", in: context) == [["calm", "Rex+Tom"], ["loud", "Rex"]])
        #expect(try fixture.rows("SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'zowner'")
            == [["z_pk,z_ent,z_opt,zfullname,zrank"]])
        #expect(try fixture.rows("SELECT to_regclass('zperson') IS NULL, COUNT(*) FROM pg_namespace WHERE nspname LIKE 'z_migrating%'") == [["1", "0"]])

        // New objects take keys past the old ones, and save beside the migrated ones.
        try context.performAndWait {
            let model = fixture.model(2)
            let ada = try #require(try fetch("Owner", "fullName == 'Ada'", in: context).first)
            let pet = Self.insert("Pet", ["name": "Max", "keeper": ada], in: context, model: model)
            try context.save()
            #expect(try #require(pet.objectID.storeNumber) > highestPetKey)
        }
        #expect(try fixture.values("Owner", ["fullName", "animals"], sortedBy: "fullName", in: fixture.open())
            == [["Ada", "Max+Rex+Tom"], ["Bob", "Zed"]])

        // The metadata names the new version: opened with the old one, the store is later than it.
        let error = #expect(throws: ManagedObjectError.self) { try fixture.open(version: 1) }
        #expect(error?.code.rawValue == 134100)
    }

    @Test("a to-one made a to-many (many-to-many) keeps the pairs, through the versions in order")
    func toOneMadeToMany() throws {
        let book = Entity(
            name: "Book", attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "author", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author", isOptional: true)])
        let author = Entity(
            name: "Author", attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "books", destinationEntity: "Book", inverseName: "author", inverseEntity: "Book", isToMany: true, isOptional: true)])
        var booksMany = book
        booksMany.relationships = [Relationship(
            name: "authors", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author", isToMany: true, isOptional: true,
            renamingIdentifier: "author")]
        var authorMany = author
        authorMany.relationships = [Relationship(name: "books", destinationEntity: "Book", inverseName: "authors", inverseEntity: "Book", isToMany: true, isOptional: true)]
        var booksWithYear = booksMany
        booksWithYear.attributes.append(Attribute(name: "year", type: .integer16, defaultValueString: "1999"))
        let fixture = Fixture([
            Model(entities: [author, book]), Model(entities: [authorMany, booksMany]), Model(entities: [authorMany, booksWithYear]),
        ])
        try fixture.write { context, model in
            let ann = Self.insert("Author", ["name": "Ann"], in: context, model: model)
            _ = Self.insert("Book", ["name": "One", "author": ann], in: context, model: model)
            _ = Self.insert("Book", ["name": "Two", "author": ann], in: context, model: model)
            _ = Self.insert("Book", ["name": "Three"], in: context, model: model)
        }
        let context = try fixture.open()
        #expect(try fixture.values("Book", ["name", "authors", "year"], sortedBy: "name", in: context)
            == [["One", "Ann", "1999"], ["Three", "", "1999"], ["Two", "Ann", "1999"]])
        #expect(try fixture.values("Author", ["name", "books"], sortedBy: "name", in: context) == [["Ann", "One+Two"]])
    }

    @Test("attribute types: numbers convert as the SQLite store converts them (the fraction goes, non-zero is true); added attributes take defaults of every type")
    func attributeTypes() throws {
        let fixture = Fixture([
            Model(entities: [Entity(name: "Item", attributes: [
                Attribute(name: "name", type: .string), Attribute(name: "ratio", type: .integer32),
                Attribute(name: "flag", type: .integer16), Attribute(name: "price", type: .double), Attribute(name: "amount", type: .integer64),
            ])]),
            Model(entities: [Entity(name: "Item", attributes: [
                Attribute(name: "name", type: .string), Attribute(name: "ratio", type: .double),
                Attribute(name: "flag", type: .boolean), Attribute(name: "price", type: .integer32), Attribute(name: "amount", type: .decimal),
                Attribute(name: "born", type: .date, defaultDateTimeInterval: 100),
                Attribute(name: "fee", type: .decimal, defaultValueString: "1.25"),
                Attribute(name: "active", type: .boolean, defaultValueString: "YES"),
                Attribute(name: "weight", type: .float, defaultValueString: "0.5"),
                Attribute(name: "label", type: .string, defaultValueString: "none"),
            ])]),
        ])
        try fixture.write { context, model in
            _ = Self.insert("Item", ["name": "a", "ratio": Int32(3), "flag": Int16(2), "price": 9.75, "amount": Int64(7)], in: context, model: model)
            _ = Self.insert("Item", ["name": "b", "ratio": Int32(0), "flag": Int16(0), "price": -2.5, "amount": Int64(-1)], in: context, model: model)
        }
        let context = try fixture.open()
        try context.performAndWait {
            let items = try fetch("Item", sortedBy: "name", in: context)
            #expect(items.map { $0.value(forKey: "ratio") as? Double } == [3, 0])
            #expect(items.map { $0.value(forKey: "flag") as? Bool } == [true, false])
            #expect(items.map { ($0.value(forKey: "price") as? NSNumber)?.int64Value } == [9, -2])
            #expect(items.map { $0.value(forKey: "amount") as? Decimal } == [7, -1])
            for item in items {
                #expect(item.value(forKey: "born") as? Date == Date(timeIntervalSinceReferenceDate: 100))
                #expect(item.value(forKey: "fee") as? Decimal == Decimal(string: "1.25"))
                #expect(item.value(forKey: "active") as? Bool == true)
                #expect((item.value(forKey: "weight") as? NSNumber)?.doubleValue == 0.5)
                #expect(item.value(forKey: "label") as? String == "none")
            }
        }
    }

    @Test("entities added, removed and renamed; an entity moved into another's table: its keys and the keys pointing to it move, and new keys go past them")
    func entitiesAndHierarchy() throws {
        let animal = Entity(name: "Animal", attributes: [Attribute(name: "name", type: .string)])
        let person = { (pet: String) in
            Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)],
                   relationships: [Relationship(name: "pet", destinationEntity: pet, isOptional: true)])
        }
        let fixture = Fixture([
            Model(entities: [
                animal, Entity(name: "Cat", attributes: [Attribute(name: "name", type: .string)]), person("Cat"),
                Entity(name: "Old", attributes: [Attribute(name: "name", type: .string)]),
                Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)]),
            ]),
            Model(entities: [
                animal, Entity(name: "Cat", parentEntity: "Animal"), person("Animal"),
                Entity(name: "Label", renamingIdentifier: "Tag", attributes: [Attribute(name: "name", type: .string)]),
                Entity(name: "Box", attributes: [Attribute(name: "name", type: .string)]),
            ]),
        ])
        try fixture.write { context, model in
            for name in ["Rex", "Bella"] { _ = Self.insert("Animal", ["name": name], in: context, model: model) }
            let tom = Self.insert("Cat", ["name": "Tom"], in: context, model: model)
            _ = Self.insert("Person", ["name": "Ann", "pet": tom], in: context, model: model)
            _ = Self.insert("Old", ["name": "gone"], in: context, model: model)
            for name in ["red", "blue"] { _ = Self.insert("Tag", ["name": name], in: context, model: model) }
        }
        let tagKeys = try fixture.rows("SELECT Z_PK, ZNAME FROM ZTAG ORDER BY Z_PK")
        let context = try fixture.open()
        #expect(try fixture.values("Animal", ["name"], sortedBy: "name", in: context) == [["Bella"], ["Rex"], ["Tom"]])
        #expect(try fixture.values("Cat", ["name"], sortedBy: "name", in: context) == [["Tom"]])
        #expect(try fixture.values("Label", ["name"], sortedBy: "name", in: context) == [["blue"], ["red"]])
        #expect(try fixture.values("Box", ["name"], sortedBy: "name", in: context).isEmpty)
        #expect(try fixture.rows("SELECT Z_PK, ZNAME FROM ZLABEL ORDER BY Z_PK") == tagKeys)
        #expect(try fixture.rows("SELECT to_regclass('zold') IS NULL, to_regclass('zcat') IS NULL, to_regclass('ztag') IS NULL") == [["1", "1", "1"]])
        try context.performAndWait {
            let ann = try #require(try fetch("Person", in: context).first)
            let pet = try #require(ann.value(forKey: "pet") as? ManagedObject)
            #expect(pet.entity.name == "Cat")
            #expect(pet.value(forKey: "name") as? String == "Tom")
            #expect(pet.objectID.storeNumber == 3)
            let newcomer = Self.insert("Animal", ["name": "Max"], in: context, model: fixture.model(2))
            try context.save()
            #expect(newcomer.objectID.storeNumber == 4)
        }
    }

    /// Author ↔ Book, `books` one-to-many or many-to-many, ordered or not.
    static func library(manyToMany: Bool, ordered: Bool) -> Model {
        Model(entities: [
            Entity(name: "Author", attributes: [Attribute(name: "name", type: .string)], relationships: [
                Relationship(name: "books", destinationEntity: "Book", inverseName: manyToMany ? "authors" : "author", inverseEntity: "Book",
                             isToMany: true, isOrdered: ordered, isOptional: true),
            ]),
            Entity(name: "Book", attributes: [Attribute(name: "name", type: .string)], relationships: [
                Relationship(name: manyToMany ? "authors" : "author", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author",
                             isToMany: manyToMany, isOptional: true),
            ]),
        ])
    }

    @Test("a to-many made ordered: its members take the order of their keys (one-to-many and many-to-many)")
    func toManyMadeOrdered() throws {
        for manyToMany in [false, true] {
            let fixture = Fixture([Self.library(manyToMany: manyToMany, ordered: false), Self.library(manyToMany: manyToMany, ordered: true)])
            try fixture.write { context, model in
                let ann = Self.insert("Author", ["name": "Ann"], in: context, model: model)
                let bob = Self.insert("Author", ["name": "Bob"], in: context, model: model)
                let books = ["Z", "A", "M", "Q"].map { Self.insert("Book", ["name": $0], in: context, model: model) }
                ann.setValue(Set(books.prefix(3)), forKey: "books")
                bob.setValue(Set([books[3]]), forKey: "books")
            }
            // The books' keys, in the order they were stored.
            let keyOrder = try fixture.rows("SELECT ZNAME FROM ZBOOK WHERE ZNAME <> 'Q' ORDER BY Z_PK").map { $0[0] ?? "" }
            let context = try fixture.open()
            try context.performAndWait {
                let authors = try fetch("Author", sortedBy: "name", in: context)
                let titles = authors.map { (($0.value(forKey: "books") as? OrderedSet<ManagedObject>) ?? []).map { $0.value(forKey: "name") as? String ?? "" } }
                #expect(titles == [keyOrder, ["Q"]], "many-to-many: \(manyToMany)")
            }
        }
    }

    @Test("with automatic migration off, opening the store with a later version fails with 134100 and changes nothing; a mapping model, 134110")
    func migrationOff() throws {
        let fixture = Fixture([Self.shelter, Self.renamedShelter])
        try fixture.write(Self.seedShelter)
        let before = try fixture.everything()
        let error = #expect(throws: ManagedObjectError.self) {
            try fixture.open { $0.shouldMigrateStoreAutomatically = false }
        }
        #expect(error?.code.rawValue == 134100)
        #expect(error?.message.contains("V1") == true)
        #expect(try fixture.everything() == before)

        // A mapping model for the step: the PostgreSQL store migrates by inference only.
        let mapped = #expect(throws: ManagedObjectError.self) {
            try fixture.open { $0.mappingModels = [MappingModel(from: "V1", to: "V2", entityMappings: [])] }
        }
        #expect(mapped?.code.rawValue == 134110)
        #expect(mapped?.message.contains("mapping model") == true)
        #expect(try fixture.everything() == before)
        #expect(try fixture.values("Person", ["name"], sortedBy: "name", in: fixture.open(version: 1)) == [["Ada"], ["Bob"]])
    }

    @Test("a mapping that cannot be inferred (String → Integer 64) fails with 134140 naming entity and property; the data is untouched")
    func uninferable() throws {
        var changed = Self.shelter
        changed.entities[0].attributes[0] = Attribute(name: "name", type: .integer64)
        let fixture = Fixture([Self.shelter, changed])
        try fixture.write(Self.seedShelter)
        let before = try fixture.everything()
        let error = #expect(throws: ManagedObjectError.self) { try fixture.open() }
        #expect(error?.code.rawValue == 134140)
        #expect(error?.entityName == "Person")
        #expect(error?.key == "name")
        #expect(try fixture.everything() == before)

        // Inference off: 134140 too, before anything is read into the new version.
        let noInference = #expect(throws: ManagedObjectError.self) {
            try fixture.open { $0.shouldInferMappingModelAutomatically = false }
        }
        #expect(noInference?.code.rawValue == 134140)
        #expect(try fixture.everything() == before)
    }

    @Test("a migration that fails in the middle (a required attribute without a default, a broken uniqueness constraint) leaves the old tables and rows as they were")
    func failingMigrationLeavesStore() throws {
        var required = Self.shelter
        required.entities[1].attributes.append(Attribute(name: "chip", type: .string))
        var unique = Self.shelter
        unique.entities[1].uniquenessConstraints = [["name"]]
        for (model, key) in [(required, "chip"), (unique, nil as String?)] {
            let fixture = Fixture([Self.shelter, model])
            try fixture.write { context, model in
                Self.seedShelter(context, model)
                // A second Rex: the uniqueness constraint cannot hold.
                _ = Self.insert("Pet", ["name": "Rex"], in: context, model: model)
            }
            let before = try fixture.everything()
            let error = #expect(throws: ManagedObjectError.self) { try fixture.open() }
            #expect(error?.code.rawValue == 134110)
            #expect(error?.entityName == "Pet")
            #expect(error?.key == key)
            #expect(try fixture.everything() == before)
            let context = try fixture.open(version: 1)
            #expect(try fixture.values("Pet", ["name", "owner", "tags"], sortedBy: "name", in: context).count == 4)
            #expect(try fixture.values("Person", ["name", "pets"], sortedBy: "name", in: context) == [["Ada", "Rex+Tom"], ["Bob", "Zed"]])
        }
    }

    @Test("processes opening the store at once: one migrates, the others wait and find it migrated")
    func openedAtOnce() throws {
        let fixture = Fixture([Self.shelter, Self.renamedShelter])
        try fixture.write(Self.seedShelter)
        let failures = LockedValue<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            do {
                _ = try fixture.open()
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try fixture.values("Owner", ["fullName", "animals"], sortedBy: "fullName", in: fixture.open())
            == [["Ada", "Rex+Tom"], ["Bob", "Zed"]])
        #expect(try fixture.rows("SELECT COUNT(*) FROM Z_METADATA") == [["1"]])
    }
}
