import ModelFileLoading
import DataModel
import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// Lightweight migration, change by change, with models written for the purpose: a store saved
/// with the first version, opened with the last through a container that knows every version.
@Suite("Migration: what is inferred")
struct InferredMigrationTests {
    /// A store file in a temporary directory, written with one version and opened with another.
    final class Fixture {
        let directory: TemporaryDirectory
        let url: URL
        let versions: ManagedObjectModelVersions

        init(_ models: [Model]) throws {
            directory = try TemporaryDirectory()
            url = directory.file("Store.sqlite")
            versions = ManagedObjectModelVersions(versions: models.enumerated().map {
                .init(name: "V\($0.offset + 1)", model: ManagedObjectModel($0.element))
            })
        }

        func model(_ number: Int) -> ManagedObjectModel { versions.versions[number - 1].model }

        /// Saves what `body` inserts, in a store of version `number` (no migration).
        func write(version number: Int = 1, _ body: (ManagedObjectContext, ManagedObjectModel) throws -> Void) throws {
            let context = try sqliteContext(model(number), at: url)
            try context.performAndWait {
                try body(context, model(number))
                try context.save()
            }
        }

        /// A context on the store opened with version `number` (the last by default), migrating.
        func open(version number: Int? = nil, configure: (inout PersistentStoreDescription) -> Void = { _ in }) throws -> ManagedObjectContext {
            let model = model(number ?? versions.versions.count)
            let container = PersistentContainer(name: "Store", managedObjectModel: model)
            var description = PersistentStoreDescription(url: url)
            description.modelVersions = versions
            configure(&description)
            container.persistentStoreDescriptions = [description]
            try container.loadPersistentStores()
            return container.newBackgroundContext()
        }

        /// The objects of `entity`, sorted by `key`, as `key`'s values (and others).
        func values(_ entity: String, _ keys: [String], in context: ManagedObjectContext, sortedBy sort: String) throws -> [[String]] {
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: entity)
                request.sortDescriptors = [ObjectSortDescriptor(key: sort, ascending: true)]
                return try context.fetch(request).map { object in keys.map { key in object.storedValue(forKey: key).map { "\($0)" } ?? "nil" } }
            }
        }

        var bytes: Data { get throws { try Data(contentsOf: url) } }
    }

    static func insert(_ entity: String, _ values: [String: Any?], in context: ManagedObjectContext, model: ManagedObjectModel) -> ManagedObject {
        let object = ManagedObject(entity: model[entity]!, insertInto: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    static func item(_ attributes: [Attribute], constraints: [[String]] = [], renamingIdentifier: String? = nil, name: String = "Item") -> Entity {
        Entity(name: name, renamingIdentifier: renamingIdentifier, attributes: attributes, uniquenessConstraints: constraints)
    }

    // MARK: Attributes

    @Test("attributes added: a required one takes its default, an optional one is nil")
    func attributesAdded() throws {
        let fixture = try Fixture([
            Model(entities: [Self.item([Attribute(name: "name", type: .string)])]),
            Model(entities: [Self.item([
                Attribute(name: "name", type: .string),
                Attribute(name: "count", type: .integer32, defaultValueString: "7"),
                Attribute(name: "note", type: .string, isOptional: true),
            ])]),
        ])
        try fixture.write { context, model in
            for name in ["a", "b"] { _ = Self.insert("Item", ["name": name], in: context, model: model) }
        }
        let context = try fixture.open()
        #expect(try fixture.values("Item", ["name", "count", "note"], in: context, sortedBy: "name") == [["a", "7", "nil"], ["b", "7", "nil"]])
    }

    @Test("a required attribute added without a default fails with 134110 naming it; the store is left as it was")
    func requiredAttributeWithoutDefault() throws {
        let fixture = try Fixture([
            Model(entities: [Self.item([Attribute(name: "name", type: .string)])]),
            Model(entities: [Self.item([Attribute(name: "name", type: .string), Attribute(name: "code", type: .string)])]),
        ])
        try fixture.write { context, model in _ = Self.insert("Item", ["name": "a"], in: context, model: model) }
        let before = try fixture.bytes
        let error = #expect(throws: ManagedObjectError.self) { try fixture.open() }
        #expect(error?.code.rawValue == 134110)
        #expect(error?.entityName == "Item")
        #expect(error?.key == "code")
        #expect(try fixture.bytes == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path).filter { $0.contains("migrating") }.isEmpty)
        #expect(try fixture.values("Item", ["name"], in: fixture.open(version: 1), sortedBy: "name") == [["a"]])
    }

    @Test("attributes removed, and renamed through their renaming identifier")
    func attributesRemovedAndRenamed() throws {
        let fixture = try Fixture([
            Model(entities: [Self.item([
                Attribute(name: "name", type: .string),
                Attribute(name: "note", type: .string, isOptional: true),
            ])]),
            Model(entities: [Self.item([Attribute(name: "title", type: .string, renamingIdentifier: "name")])]),
        ])
        try fixture.write { context, model in
            _ = Self.insert("Item", ["name": "first", "note": "x"], in: context, model: model)
            _ = Self.insert("Item", ["name": "second"], in: context, model: model)
        }
        let context = try fixture.open()
        #expect(try fixture.values("Item", ["title"], in: context, sortedBy: "title") == [["first"], ["second"]])
        #expect(try rawSQL(fixture.url.path, "SELECT group_concat(name) FROM pragma_table_info('ZITEM')") == "Z_PK,Z_ENT,Z_OPT,ZTITLE")
    }

    @Test("optional → required: nil becomes the default; without a default, 134110 naming the attribute")
    func optionalToRequired() throws {
        let v1 = Model(entities: [Self.item([
            Attribute(name: "name", type: .string),
            Attribute(name: "nickname", type: .string, isOptional: true),
        ])])
        func v2(default value: String?) -> Model {
            Model(entities: [Self.item([
                Attribute(name: "name", type: .string),
                Attribute(name: "nickname", type: .string, defaultValueString: value),
            ])])
        }
        let seed: (ManagedObjectContext, ManagedObjectModel) throws -> Void = { context, model in
            _ = Self.insert("Item", ["name": "a", "nickname": "Al"], in: context, model: model)
            _ = Self.insert("Item", ["name": "b"], in: context, model: model)
        }
        let withDefault = try Fixture([v1, v2(default: "none")])
        try withDefault.write(seed)
        // Same tables and columns: the version is told by the hashes this runtime wrote.
        #expect(try withDefault.versions.sourceVersion(ofStoreAt: withDefault.url)?.name == "V1")
        #expect(try withDefault.values("Item", ["name", "nickname"], in: withDefault.open(), sortedBy: "name") == [["a", "Al"], ["b", "none"]])
        #expect(try withDefault.versions.sourceVersion(ofStoreAt: withDefault.url)?.name == "V2")

        let withoutDefault = try Fixture([v1, v2(default: nil)])
        try withoutDefault.write(seed)
        let error = #expect(throws: ManagedObjectError.self) { try withoutDefault.open() }
        #expect(error?.code.rawValue == 134110)
        #expect(error?.key == "nickname")
        #expect(error?.message.contains("1 Item object") == true)
    }

    @Test("attribute types: numbers convert to one another; String → Date is not inferred (134140 naming it)")
    func attributeTypes() throws {
        let fixture = try Fixture([
            Model(entities: [Self.item([
                Attribute(name: "small", type: .integer16), Attribute(name: "ratio", type: .integer32),
                Attribute(name: "flag", type: .integer32), Attribute(name: "price", type: .double),
            ])]),
            Model(entities: [Self.item([
                Attribute(name: "small", type: .integer64), Attribute(name: "ratio", type: .double),
                Attribute(name: "flag", type: .boolean), Attribute(name: "price", type: .integer32),
            ])]),
        ])
        try fixture.write { context, model in
            _ = Self.insert("Item", ["small": Int16(300), "ratio": Int32(3), "flag": Int32(2), "price": 9.75], in: context, model: model)
            _ = Self.insert("Item", ["small": Int16(-1), "ratio": Int32(0), "flag": Int32(0), "price": -2.5], in: context, model: model)
        }
        let context = try fixture.open()
        // Moonlight's bundle (corpus) changes an Integer 32 to a Boolean and relies on inference.
        #expect(try fixture.values("Item", ["small", "ratio", "flag", "price"], in: context, sortedBy: "small")
            == [["-1", "0.0", "false", "-2"], ["300", "3.0", "true", "9"]])

        let refused = try Fixture([
            Model(entities: [Self.item([Attribute(name: "name", type: .string)])]),
            Model(entities: [Self.item([Attribute(name: "name", type: .date)])]),
        ])
        try refused.write { context, model in _ = Self.insert("Item", ["name": "a"], in: context, model: model) }
        let error = #expect(throws: ManagedObjectError.self) { try refused.open() }
        #expect(error?.code.rawValue == 134140)
        #expect(error?.entityName == "Item")
        #expect(error?.key == "name")
    }

    // MARK: Entities

    @Test("entities added, removed, and renamed through their renaming identifier; keys stay")
    func entities() throws {
        let fixture = try Fixture([
            Model(entities: [
                Self.item([Attribute(name: "name", type: .string)]),
                Entity(name: "Tag", attributes: [Attribute(name: "label", type: .string)]),
                Entity(name: "Old", attributes: [Attribute(name: "x", type: .string)]),
            ]),
            Model(entities: [
                Self.item([Attribute(name: "name", type: .string)]),
                Entity(name: "Label", renamingIdentifier: "Tag", attributes: [Attribute(name: "label", type: .string)]),
                Entity(name: "Box", attributes: [Attribute(name: "size", type: .integer64)]),
            ]),
        ])
        try fixture.write { context, model in
            _ = Self.insert("Item", ["name": "i"], in: context, model: model)
            for label in ["red", "blue"] { _ = Self.insert("Tag", ["label": label], in: context, model: model) }
            _ = Self.insert("Old", ["x": "gone"], in: context, model: model)
        }
        let keys = try rawSQL(fixture.url.path, "SELECT Z_PK, ZLABEL FROM ZTAG ORDER BY Z_PK")
        let context = try fixture.open()
        #expect(try fixture.values("Label", ["label"], in: context, sortedBy: "label") == [["blue"], ["red"]])
        #expect(try fixture.values("Box", ["size"], in: context, sortedBy: "size").isEmpty)
        #expect(try rawSQL(fixture.url.path, "SELECT Z_PK, ZLABEL FROM ZLABEL ORDER BY Z_PK") == keys)
        #expect(try rawSQL(fixture.url.path, "SELECT count(*) FROM sqlite_master WHERE name = 'ZOLD'") == "0")
        #expect(try rawSQL(fixture.url.path, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == "Box|0\nItem|1\nLabel|2")
    }

    @Test("an entity moved out of its parent's hierarchy keeps its rows; moved into another's, its keys and the keys pointing to it move")
    func hierarchy() throws {
        let animal = Entity(name: "Animal", attributes: [Attribute(name: "name", type: .string)])
        let out = try Fixture([
            Model(entities: [animal, Entity(name: "Dog", parentEntity: "Animal", attributes: [Attribute(name: "breed", type: .string, isOptional: true)])]),
            Model(entities: [animal, Entity(name: "Dog", attributes: [
                Attribute(name: "name", type: .string), Attribute(name: "breed", type: .string, isOptional: true),
            ])]),
        ])
        try out.write { context, model in
            _ = Self.insert("Animal", ["name": "generic"], in: context, model: model)
            _ = Self.insert("Dog", ["name": "Fido", "breed": "collie"], in: context, model: model)
        }
        let context = try out.open()
        #expect(try out.values("Dog", ["name", "breed"], in: context, sortedBy: "name") == [["Fido", "collie"]])
        #expect(try out.values("Animal", ["name"], in: context, sortedBy: "name") == [["generic"]])

        // Cat moves under Animal, into Animal's table: its keys move past Animal's, and the
        // foreign key that points to it follows.
        let person = { (pet: String) in
            Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)],
                   relationships: [Relationship(name: "pet", destinationEntity: pet, isOptional: true)])
        }
        let into = try Fixture([
            Model(entities: [animal, Entity(name: "Cat", attributes: [Attribute(name: "name", type: .string)]), person("Cat")]),
            Model(entities: [animal, Entity(name: "Cat", parentEntity: "Animal"), person("Animal")]),
        ])
        try into.write { context, model in
            for name in ["Rex", "Bella"] { _ = Self.insert("Animal", ["name": name], in: context, model: model) }
            let tom = Self.insert("Cat", ["name": "Tom"], in: context, model: model)
            _ = Self.insert("Person", ["name": "Ann", "pet": tom], in: context, model: model)
        }
        let moved = try into.open()
        #expect(try into.values("Animal", ["name"], in: moved, sortedBy: "name") == [["Bella"], ["Rex"], ["Tom"]])
        #expect(try into.values("Cat", ["name"], in: moved, sortedBy: "name") == [["Tom"]])
        try moved.performAndWait {
            let ann = try #require(try moved.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first)
            let pet = try #require(ann.value(forKey: "pet") as? ManagedObject)
            #expect(pet.entity.name == "Cat")
            #expect(pet.value(forKey: "name") as? String == "Tom")
            #expect(pet.objectID.storeNumber == 3)
            let newcomer = Self.insert("Animal", ["name": "Max"], in: moved, model: into.model(2))
            try moved.save()
            #expect(newcomer.objectID.storeNumber == 4)
        }
    }

    // MARK: Relationships

    static func library(bookSide: Relationship, authorSide: Relationship, extra: [Relationship] = []) -> Model {
        Model(entities: [
            Entity(name: "Author", attributes: [Attribute(name: "name", type: .string)], relationships: [authorSide]),
            Entity(name: "Book", attributes: [Attribute(name: "title", type: .string)], relationships: [bookSide] + extra),
        ])
    }

    static let oneToMany = library(
        bookSide: Relationship(name: "author", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author", isOptional: true),
        authorSide: Relationship(name: "books", destinationEntity: "Book", inverseName: "author", inverseEntity: "Book", isToMany: true, isOptional: true))

    static func seedLibrary(_ context: ManagedObjectContext, _ model: ManagedObjectModel) {
        let ann = insert("Author", ["name": "Ann"], in: context, model: model)
        let bob = insert("Author", ["name": "Bob"], in: context, model: model)
        for (title, author) in [("A1", ann), ("A2", ann), ("B1", bob), ("none", nil)] {
            let book = insert("Book", ["title": title], in: context, model: model)
            if let author { book.setValue(author, forKey: "author") }
        }
    }

    static func authors(of context: ManagedObjectContext, key: String) throws -> [String: [String]] {
        try context.performAndWait {
            var result: [String: [String]] = [:]
            for book in try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
                let value = book.value(forKey: key)
                let related = (value as? Set<ManagedObject>).map(Array.init) ?? (value as? ManagedObject).map { [$0] } ?? []
                result[book.value(forKey: "title") as! String] = related.map { $0.value(forKey: "name") as! String }.sorted()
            }
            return result
        }
    }

    @Test("one-to-many → many-to-many: the join table is filled from the foreign keys; a relationship added is empty")
    func toOneToToMany() throws {
        let fixture = try Fixture([
            Self.oneToMany,
            Self.library(
                bookSide: Relationship(name: "authors", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author",
                                       isToMany: true, isOptional: true, renamingIdentifier: "author"),
                authorSide: Relationship(name: "books", destinationEntity: "Book", inverseName: "authors", inverseEntity: "Book", isToMany: true, isOptional: true),
                extra: [Relationship(name: "editor", destinationEntity: "Author", isOptional: true)]),
        ])
        try fixture.write(Self.seedLibrary)
        let context = try fixture.open()
        #expect(try Self.authors(of: context, key: "authors") == ["A1": ["Ann"], "A2": ["Ann"], "B1": ["Bob"], "none": []])
        #expect(try Self.authors(of: context, key: "editor") == ["A1": [], "A2": [], "B1": [], "none": []])
    }

    @Test("a to-many without inverse keeps its members, kept in its destination's rows (Z<n><NAME>), through a migration")
    func toManyWithoutInverse() throws {
        func model(extra: [Attribute]) -> Model {
            Model(entities: [
                Entity(name: "Author", attributes: [Attribute(name: "name", type: .string)] + extra,
                       relationships: [Relationship(name: "books", destinationEntity: "Book", isToMany: true, isOptional: true)]),
                Entity(name: "Book", attributes: [Attribute(name: "title", type: .string)]),
            ])
        }
        let fixture = try Fixture([model(extra: []), model(extra: [Attribute(name: "born", type: .integer16, isOptional: true)])])
        try fixture.write { context, model in
            let ann = Self.insert("Author", ["name": "Ann"], in: context, model: model)
            let bob = Self.insert("Author", ["name": "Bob"], in: context, model: model)
            let books = ["A1", "A2", "B1", "none"].map { Self.insert("Book", ["title": $0], in: context, model: model) }
            ann.setValue(Set(books[0...1]), forKey: "books")
            bob.setValue(Set([books[2]]), forKey: "books")
        }
        #expect(try rawSQL(fixture.url.path, "SELECT COUNT(Z1BOOKS) FROM ZBOOK") == "3")
        let context = try fixture.open()
        let titles = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")).reduce(into: [String: [String]]()) { result, author in
                result[author.value(forKey: "name") as! String] = (author.value(forKey: "books") as! Set<ManagedObject>)
                    .map { $0.value(forKey: "title") as! String }.sorted()
            }
        }
        #expect(titles == ["Ann": ["A1", "A2"], "Bob": ["B1"]])
    }

    /// Author ↔ Book with `books` one-to-many or many-to-many, ordered or not (the same order
    /// columns Core Data names: `Z_FOK_AUTHOR` in ZBOOK, `Z_FOK_<n>BOOKS` in the join table).
    static func orderedLibrary(manyToMany: Bool, ordered: Bool, extra: [Relationship] = []) -> Model {
        library(
            bookSide: Relationship(name: manyToMany ? "authors" : "author", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author",
                                   isToMany: manyToMany, isOptional: true),
            authorSide: Relationship(name: "books", destinationEntity: "Book", inverseName: manyToMany ? "authors" : "author", inverseEntity: "Book",
                                     isToMany: true, isOrdered: ordered, isOptional: true),
            extra: extra)
    }

    /// Ann's books Z, A, M (keys in that order, titles not: a sort by title would show) in
    /// `order` (indexes; nil: unordered), Bob's Q.
    static func seedOrdered(order: [Int]?) -> (ManagedObjectContext, ManagedObjectModel) throws -> Void {
        { context, model in
            let ann = insert("Author", ["name": "Ann"], in: context, model: model)
            let bob = insert("Author", ["name": "Bob"], in: context, model: model)
            let books = ["Z", "A", "M", "Q"].map { insert("Book", ["title": $0], in: context, model: model) }
            if let order {
                ann.setValue(OrderedSet(order.map { books[$0] }), forKey: "books")
                bob.setValue(OrderedSet([books[3]]), forKey: "books")
            } else {
                ann.setValue(Set(books.prefix(3)), forKey: "books")
                bob.setValue(Set([books[3]]), forKey: "books")
            }
        }
    }

    static func orderedTitles(_ context: ManagedObjectContext, author: String) throws -> [String] {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Author")
            request.predicate = ObjectPredicate("name = %@", author)
            let books = try #require(try context.fetch(request).first?.value(forKey: "books") as? OrderedSet<ManagedObject>)
            return books.map { $0.value(forKey: "title") as? String ?? "" }
        }
    }

    @Test("a to-many made ordered: existing members take the order of their keys (one-to-many and many-to-many), in the order column")
    func toManyMadeOrdered() throws {
        for manyToMany in [false, true] {
            let fixture = try Fixture([
                Self.orderedLibrary(manyToMany: manyToMany, ordered: false),
                Self.orderedLibrary(manyToMany: manyToMany, ordered: true),
            ])
            try fixture.write(Self.seedOrdered(order: nil))
            let context = try fixture.open()
            #expect(try Self.orderedTitles(context, author: "Ann") == ["Z", "A", "M"], "many-to-many: \(manyToMany)")
            #expect(try Self.orderedTitles(context, author: "Bob") == ["Q"], "many-to-many: \(manyToMany)")
            // The order is stored, 1, 2, … per owner, as a save would store it.
            let sql = manyToMany
                ? "SELECT group_concat(Z_FOK_2BOOKS) FROM (SELECT Z_FOK_2BOOKS FROM Z_1BOOKS ORDER BY Z_1AUTHORS, Z_2BOOKS)"
                : "SELECT group_concat(Z_FOK_AUTHOR) FROM (SELECT Z_FOK_AUTHOR FROM ZBOOK WHERE ZAUTHOR IS NOT NULL ORDER BY ZAUTHOR, Z_PK)"
            #expect(try rawSQL(fixture.url.path, sql) == "1,2,3,1", "many-to-many: \(manyToMany)")
        }
    }

    @Test("an ordered to-many keeps its order through a migration that rebuilds its pairs (one-to-many and many-to-many)")
    func orderKept() throws {
        for manyToMany in [false, true] {
            let fixture = try Fixture([
                Self.orderedLibrary(manyToMany: manyToMany, ordered: true),
                Self.orderedLibrary(manyToMany: manyToMany, ordered: true, extra: [Relationship(name: "editor", destinationEntity: "Author", isOptional: true)]),
            ])
            try fixture.write(Self.seedOrdered(order: [2, 0, 1]))
            let context = try fixture.open()
            #expect(try Self.orderedTitles(context, author: "Ann") == ["M", "Z", "A"], "many-to-many: \(manyToMany)")
            #expect(try Self.orderedTitles(context, author: "Bob") == ["Q"], "many-to-many: \(manyToMany)")
        }
    }

    @Test("many-to-many → one-to-many: each object keeps one of its related objects; a relationship removed goes")
    func toManyToToOne() throws {
        let manyToMany = Self.library(
            bookSide: Relationship(name: "authors", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author", isToMany: true, isOptional: true),
            authorSide: Relationship(name: "books", destinationEntity: "Book", inverseName: "authors", inverseEntity: "Book", isToMany: true, isOptional: true),
            extra: [Relationship(name: "editor", destinationEntity: "Author", isOptional: true)])
        let fixture = try Fixture([
            manyToMany,
            Self.library(
                bookSide: Relationship(name: "author", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author", isOptional: true, renamingIdentifier: "authors"),
                authorSide: Relationship(name: "books", destinationEntity: "Book", inverseName: "author", inverseEntity: "Book", isToMany: true, isOptional: true)),
        ])
        try fixture.write { context, model in
            let ann = Self.insert("Author", ["name": "Ann"], in: context, model: model)
            let bob = Self.insert("Author", ["name": "Bob"], in: context, model: model)
            let solo = Self.insert("Book", ["title": "solo"], in: context, model: model)
            solo.setValue(Set([bob]), forKey: "authors")
            let both = Self.insert("Book", ["title": "both"], in: context, model: model)
            both.setValue(Set([ann, bob]), forKey: "authors")
            both.setValue(ann, forKey: "editor")
        }
        let context = try fixture.open()
        let authors = try Self.authors(of: context, key: "author")
        #expect(authors["solo"] == ["Bob"])
        #expect(authors["both"] == ["Ann"])  // the first by key
        // The many-to-many's join table and the removed editor's column are gone.
        #expect(try rawSQL(fixture.url.path, "SELECT group_concat(name) FROM sqlite_master WHERE type = 'table' ORDER BY name")
            == "ZAUTHOR,ZBOOK,Z_PRIMARYKEY,Z_METADATA,Z_MODELCACHE")
        #expect(try rawSQL(fixture.url.path, "SELECT group_concat(name) FROM pragma_table_info('ZBOOK')") == "Z_PK,Z_ENT,Z_OPT,ZTITLE,ZAUTHOR")
    }

    @Test("a many-to-many becoming a to-one to an entity with sub-entities keeps the related object's entity")
    func toManyToToOneWithSubentities() throws {
        let animals = [
            Entity(name: "Animal", attributes: [Attribute(name: "name", type: .string)], relationships: [
                Relationship(name: "owners", destinationEntity: "Person", inverseName: "pets", inverseEntity: "Person", isToMany: true, isOptional: true),
            ]),
            Entity(name: "Dog", parentEntity: "Animal"),
        ]
        let fixture = try Fixture([
            Model(entities: animals + [Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)], relationships: [
                Relationship(name: "pets", destinationEntity: "Animal", inverseName: "owners", inverseEntity: "Animal", isToMany: true, isOptional: true),
            ])]),
            Model(entities: [
                Entity(name: "Animal", attributes: [Attribute(name: "name", type: .string)], relationships: [
                    Relationship(name: "owners", destinationEntity: "Person", inverseName: "pet", inverseEntity: "Person", isToMany: true, isOptional: true),
                ]),
                Entity(name: "Dog", parentEntity: "Animal"),
                Entity(name: "Person", attributes: [Attribute(name: "name", type: .string)], relationships: [
                    Relationship(name: "pet", destinationEntity: "Animal", inverseName: "owners", inverseEntity: "Animal", isOptional: true, renamingIdentifier: "pets"),
                ]),
            ]),
        ])
        try fixture.write { context, model in
            let rex = Self.insert("Dog", ["name": "Rex"], in: context, model: model)
            let ann = Self.insert("Person", ["name": "Ann"], in: context, model: model)
            ann.setValue(Set([rex]), forKey: "pets")
        }
        let context = try fixture.open()
        try context.performAndWait {
            let ann = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first)
            let pet = try #require(ann.value(forKey: "pet") as? ManagedObject)
            #expect(pet.entity.name == "Dog")
            #expect(pet.value(forKey: "name") as? String == "Rex")
        }
    }

    // MARK: Constraints and steps

    @Test("a uniqueness constraint added: its index is made; values that break it fail with 134110")
    func uniquenessAdded() throws {
        let v1 = Model(entities: [Self.item([Attribute(name: "name", type: .string)])])
        let v2 = Model(entities: [Self.item([Attribute(name: "name", type: .string)], constraints: [["name"]])])
        let unique = try Fixture([v1, v2])
        try unique.write { context, model in for name in ["a", "b"] { _ = Self.insert("Item", ["name": name], in: context, model: model) } }
        _ = try unique.open()
        #expect(try rawSQL(unique.url.path, "SELECT count(*) FROM sqlite_master WHERE name = 'Z_Item_UNIQUE_name'") == "1")

        let duplicated = try Fixture([v1, v2])
        try duplicated.write { context, model in for name in ["a", "a"] { _ = Self.insert("Item", ["name": name], in: context, model: model) } }
        let before = try duplicated.bytes
        let error = #expect(throws: ManagedObjectError.self) { try duplicated.open() }
        #expect(error?.code.rawValue == 134110)
        #expect(error?.entityName == "Item")
        #expect(try duplicated.bytes == before)
    }

    @Test("several steps: a name renamed twice (v1 a → v2 b → v3 c) keeps its values")
    func severalSteps() throws {
        let fixture = try Fixture([
            Model(entities: [Self.item([Attribute(name: "a", type: .string)])]),
            Model(entities: [Self.item([Attribute(name: "b", type: .string, renamingIdentifier: "a")])]),
            Model(entities: [Self.item([Attribute(name: "c", type: .string, renamingIdentifier: "b"),
                                        Attribute(name: "d", type: .boolean, defaultValueString: "YES")])]),
        ])
        try fixture.write { context, model in _ = Self.insert("Item", ["a": "kept"], in: context, model: model) }
        let context = try fixture.open()
        #expect(try fixture.values("Item", ["c", "d"], in: context, sortedBy: "c") == [["kept", "true"]])
    }

    @Test("version hashes: SHA-256 itself, and each entity's hash follows what it documents")
    func versionHashes() throws {
        #expect(SHA256.digest(of: Data()).hexadecimal == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.digest(of: Data("abc".utf8)).hexadecimal == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Data(String(repeating: "a", count: 1000).utf8)
        #expect(SHA256.digest(of: long).hexadecimal == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        func hash(_ attributes: [Attribute], modifier: String? = nil) -> Data {
            ManagedObjectModel(Model(entities: [Entity(name: "Item", versionHashModifier: modifier, attributes: attributes)]))["Item"]!.versionHash
        }
        let base = hash([Attribute(name: "name", type: .string)])
        #expect(base.count == 32)
        #expect(hash([Attribute(name: "name", type: .string)]) == base)
        #expect(hash([Attribute(name: "name", type: .string, isOptional: true)]) != base)
        #expect(hash([Attribute(name: "name", type: .date)]) != base)
        #expect(hash([Attribute(name: "title", type: .string)]) != base)
        #expect(hash([Attribute(name: "name", type: .string)], modifier: "2") != base)
        // What does not change what is stored does not change the hash.
        #expect(hash([Attribute(name: "name", type: .string, defaultValueString: "x", userInfo: [])]) == base)
        // A new store says its model's hashes.
        let fixture = try Fixture([Model(entities: [Self.item([Attribute(name: "name", type: .string)])])])
        try fixture.write { _, _ in }
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: .sqlite, at: fixture.url)
        #expect(metadata["NSStoreModelVersionHashes"] as? [String: Data] == fixture.model(1).entityVersionHashesByName)
        #expect(fixture.model(1).isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!ManagedObjectModel(Model(entities: [Self.item([Attribute(name: "name", type: .date)])]))
            .isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }
}
