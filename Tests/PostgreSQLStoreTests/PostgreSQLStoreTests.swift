import DataModel
import Foundation
import ManagedObjects
@testable import PostgreSQLStore
import StoreTestSupport
import Testing

/// A small graph with every attribute type the store keeps, a uniqueness constraint, a
/// cascading and a nullifying to-many, and a many-to-many.
enum ShelterModel {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(
            name: "Person",
            attributes: [
                Attribute(name: "name", type: .string, isOptional: true),
                Attribute(name: "age", type: .integer64, isOptional: true),
                Attribute(name: "born", type: .date, isOptional: true),
                Attribute(name: "score", type: .double, isOptional: true),
                Attribute(name: "balance", type: .decimal, isOptional: true),
                Attribute(name: "photo", type: .binary, isOptional: true),
                Attribute(name: "badge", type: .uuid, isOptional: true),
                Attribute(name: "active", type: .boolean, isOptional: true),
            ],
            relationships: [
                Relationship(name: "pets", destinationEntity: "Pet", inverseName: "owner", inverseEntity: "Pet",
                             isToMany: true, isOptional: true, deleteRule: .cascade),
                Relationship(name: "visits", destinationEntity: "Visit", inverseName: "visitor", inverseEntity: "Visit",
                             isToMany: true, isOptional: true, deleteRule: .nullify),
            ],
            uniquenessConstraints: [["name"]]),
        Entity(
            name: "Pet",
            attributes: [Attribute(name: "name", type: .string, isOptional: true)],
            relationships: [
                Relationship(name: "owner", destinationEntity: "Person", inverseName: "pets", inverseEntity: "Person", isOptional: true),
                Relationship(name: "tags", destinationEntity: "Tag", inverseName: "pets", inverseEntity: "Tag",
                             isToMany: true, isOptional: true),
            ]),
        Entity(
            name: "Tag",
            attributes: [Attribute(name: "label", type: .string, isOptional: true)],
            relationships: [
                Relationship(name: "pets", destinationEntity: "Pet", inverseName: "tags", inverseEntity: "Pet",
                             isToMany: true, isOptional: true),
            ]),
        Entity(
            name: "Visit",
            attributes: [Attribute(name: "day", type: .integer32, isOptional: true)],
            relationships: [
                Relationship(name: "visitor", destinationEntity: "Person", inverseName: "visits", inverseEntity: "Person", isOptional: true),
            ]),
    ]))
}

func fetch(_ entity: String, _ format: String? = nil, _ arguments: [Any?] = [], sortedBy key: String? = nil, in context: ManagedObjectContext) throws -> [ManagedObject] {
    let request = FetchRequest<ManagedObject>(entityName: entity)
    if let format { request.predicate = ObjectPredicate(format, argumentArray: arguments) }
    if let key { request.sortDescriptors = [ObjectSortDescriptor(key: key, ascending: true)] }
    return try context.fetch(request)
}

/// The error a save throws; `nil` when it succeeds.
func saveError(_ context: ManagedObjectContext) -> (any Error)? {
    do {
        try context.save()
        return nil
    } catch {
        return error
    }
}

// Skipped without a server: `Scripts/postgres.sh start` starts one and prints its URL, which
// MANAGEDGEN_POSTGRES_URL must hold (`.ci/run` does both, and fails when it cannot start one).
@Suite("PostgreSQL store", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLStoreTests {
    @Test("objects saved in one coordinator are fetched, counted and related in another, every value as saved")
    func roundTrip() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let badge = UUID()
        let born = Date(timeIntervalSinceReferenceDate: 123_456.5)
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        try writer.performAndWait {
            let ada = ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: writer)
            ada.setValue("Ada", forKey: "name")
            ada.setValue(Int64(36), forKey: "age")
            ada.setValue(born, forKey: "born")
            ada.setValue(2.5, forKey: "score")
            ada.setValue(Decimal(string: "12345678901234567890.25")!, forKey: "balance")
            ada.setValue(Data([0, 1, 2, 255]), forKey: "photo")
            ada.setValue(badge, forKey: "badge")
            ada.setValue(true, forKey: "active")
            let grace = ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: writer)
            grace.setValue("Grace", forKey: "name")
            grace.setValue(Int64(45), forKey: "age")
            let tag = ManagedObject(entity: ShelterModel.model["Tag"]!, insertInto: writer)
            tag.setValue("friendly", forKey: "label")
            for name in ["Rex", "Fido"] {
                let pet = ManagedObject(entity: ShelterModel.model["Pet"]!, insertInto: writer)
                pet.setValue(name, forKey: "name")
                pet.setValue(ada, forKey: "owner")
                pet.setValue(Set([tag]), forKey: "tags")
            }
            try writer.save()
        }

        // Another store instance on the same database: what another process sees.
        let readerStore = try database.makeStore(ShelterModel.model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: ShelterModel.model)
        coordinator.addPersistentStore(readerStore)
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try reader.performAndWait {
            let people = try fetch("Person", sortedBy: "name", in: reader)
            #expect(people.map { $0.value(forKey: "name") as? String } == ["Ada", "Grace"])
            let ada = try #require(people.first)
            #expect(ada.value(forKey: "age") as? Int64 == 36)
            #expect(ada.value(forKey: "born") as? Date == born)
            #expect(ada.value(forKey: "score") as? Double == 2.5)
            #expect(ada.value(forKey: "balance") as? Decimal == Decimal(string: "12345678901234567890.25"))
            #expect(ada.value(forKey: "photo") as? Data == Data([0, 1, 2, 255]))
            #expect(ada.value(forKey: "badge") as? UUID == badge)
            #expect(ada.value(forKey: "active") as? Bool == true)
            let pets = (ada.value(forKey: "pets") as? Set<ManagedObject>) ?? []
            #expect(Set(pets.compactMap { $0.value(forKey: "name") as? String }) == ["Rex", "Fido"])
            let tagged = try fetch("Pet", "ANY tags.label == %@ AND owner.name BEGINSWITH[c] %@", ["friendly", "a"], sortedBy: "name", in: reader)
            #expect(tagged.map { $0.value(forKey: "name") as? String } == ["Fido", "Rex"])
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.predicate = ObjectPredicate("age > %@ AND pets.@count == 0", 40)
            #expect(try reader.count(for: request) == 1)
            #expect(try fetch("Person", "name CONTAINS 'rac'", in: reader).count == 1)
            #expect(try fetch("Person", "name LIKE[c] 'a?A'", in: reader).count == 1)
            #expect(try fetch("Person", "name MATCHES 'G.*e'", in: reader).count == 1)
        }
        #expect(readerStore.identifier == (writer.persistentStoreCoordinator.persistentStores.first?.identifier))
    }

    @Test("deleting applies the delete rules: cascade removes the pets, nullify leaves the visits without visitor")
    func deleteRules() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        try context.performAndWait {
            let person = ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: context)
            person.setValue("Ada", forKey: "name")
            let pet = ManagedObject(entity: ShelterModel.model["Pet"]!, insertInto: context)
            pet.setValue(person, forKey: "owner")
            let visit = ManagedObject(entity: ShelterModel.model["Visit"]!, insertInto: context)
            visit.setValue(person, forKey: "visitor")
            try context.save()
            context.delete(person)
            try context.save()
        }
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        try reader.performAndWait {
            #expect(try fetch("Person", in: reader).isEmpty)
            #expect(try fetch("Pet", in: reader).isEmpty)
            let visits = try fetch("Visit", in: reader)
            #expect(visits.count == 1)
            #expect(visits.first?.value(forKey: "visitor") == nil)
        }
    }

    @Test("a save of an object another process saved since it was read fails with 133020 and changes nothing")
    func optimisticLocking() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let first = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        let second = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        try first.performAndWait {
            let person = ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: first)
            person.setValue("Ada", forKey: "name")
            person.setValue(Int64(1), forKey: "age")
            try first.save()
        }
        // Both read version 1.
        let mine = try second.performAndWait { try #require(try fetch("Person", in: second).first) }
        try first.performAndWait {
            try fetch("Person", in: first).first?.setValue(Int64(2), forKey: "age")
            try first.save()
        }
        let error = second.performAndWait { () -> (any Error)? in
            mine.setValue(Int64(3), forKey: "age")
            return saveError(second)
        }
        #expect((error as? ManagedObjectError)?.code == .mergeConflict)
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        let age = try reader.performAndWait { try fetch("Person", in: reader).first?.value(forKey: "age") as? Int64 }
        #expect(age == 2)
    }

    @Test("a string holding a NUL fails the save with 1550 naming the attribute (the store refuses it, not the server); nothing is written")
    func textWithNUL() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        let error = context.performAndWait { () -> (any Error)? in
            let fine = ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: context)
            fine.setValue("Ada", forKey: "name")
            let person = ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: context)
            person.setValue("Gr\u{0}ace", forKey: "name")
            return saveError(context)
        }
        let refused = try #require(error as? ManagedObjectError)
        #expect(refused.code == .validation)
        #expect(refused.entityName == "Person" && refused.key == "name")
        #expect("\(refused)".contains("Person.name") && "\(refused)".contains("NUL"))
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        #expect(try reader.performAndWait { try fetch("Person", in: reader).count } == 0)
    }

    @Test("a second object with a constrained value, saved by another process, fails with 133021; the store's unique index holds")
    func uniqueness() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        for _ in 0..<2 {
            let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
            try context.performAndWait {
                let person = ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: context)
                person.setValue("Ada", forKey: "name")
                if try fetch("Person", in: context).count == 1 {
                    try context.save()
                } else {
                    #expect((saveError(context) as? ManagedObjectError)?.code == .constraintConflict)
                }
            }
        }
        // Written past the context's own check, the server's unique index refuses it.
        let store = try database.makeStore(ShelterModel.model)
        let person = ShelterModel.model["Person"]!
        let id = try #require(try store.obtainPermanentIDs(for: person, count: 1).first)
        var changes = StoreChangeSet()
        changes.inserted = [StoredObject(
            objectID: id, version: 1,
            values: person.properties.map { property -> StoredValue in
                switch property.kind {
                case .attribute(let attribute): .attribute(attribute.name == "name" ? "Ada" : nil)
                case .relationship(let relationship): relationship.isToMany ? .toMany([]) : .toOne(nil)
                case .fetchedProperty: .attribute(nil)
                }
            })]
        let error = #expect(throws: ManagedObjectError.self) { try store.save(changes) }
        #expect(error?.code == .constraintConflict)
        #expect(error?.key == "name")
        #expect(try store.execute(StoreRequest(entity: person, resultType: .count)).countValue == 1)
    }

    @Test("keys come from a sequence: stores obtaining IDs at the same time never get the same one")
    func keysFromSequence() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let stores = try (0..<4).map { _ in try database.makeStore(ShelterModel.model) }
        let pet = ShelterModel.model["Pet"]!
        let keys = LockedKeys()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<10 {
                if let ids = try? stores[index % stores.count].obtainPermanentIDs(for: pet, count: 25) {
                    keys.add(ids.compactMap(\.storeNumber))
                }
            }
        }
        let all = keys.all
        #expect(all.count == 8 * 10 * 25)
        #expect(Set(all).count == all.count)
    }

    @Test("stores opened at once on an empty database make its schema and tables once, and all have the same UUID")
    func openedAtOnce() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let identifiers = LockedValue<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let store = try? database.makeStore(ShelterModel.model) { identifiers.withLock { $0.append(store.identifier) } }
        }
        let opened = identifiers.withLock { $0 }
        #expect(opened.count == 4)
        #expect(Set(opened).count == 1)
    }

    @Test("a container opens a PostgreSQL store from its description once the type is registered")
    func containerByType() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        PostgreSQLStore.registerStoreType()
        let container = PersistentContainer(name: "Shelter", managedObjectModel: ShelterModel.model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .postgreSQL, url: database.url)]
        try container.loadPersistentStores()
        #expect(container.persistentStoreCoordinator.persistentStores.first is PostgreSQLStore)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: context).setValue("Ada", forKey: "name")
            try context.save()
        }
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        #expect(try reader.performAndWait { try fetch("Person", in: reader).count } == 1)
        let withoutURL = PersistentContainer(name: "Shelter", managedObjectModel: ShelterModel.model)
        withoutURL.persistentStoreDescriptions = [PersistentStoreDescription(type: .postgreSQL)]
        #expect(throws: ManagedObjectError.self) { try withoutURL.loadPersistentStores() }
    }

    @Test("TLS from the URL: required on a server without it is refused (134080), preferred falls back to plain")
    func tlsModes() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let required = URL(string: database.url.absoluteString + "&sslmode=require")!
        let error = #expect(throws: ManagedObjectError.self) { try PostgreSQLStore(model: ShelterModel.model, url: required) }
        #expect(error?.code == .persistentStoreOpen)
        #expect(error?.message.contains("127.0.0.1") == true)
        let preferred = URL(string: database.url.absoluteString + "&sslmode=prefer")!
        let store = try PostgreSQLStore(model: ShelterModel.model, url: preferred)
        #expect(store.url?.query?.contains("sslmode=prefer") == true)
    }

    @Test("a database holding another model's tables is refused with 134100, naming what is missing")
    func incompatibleModel() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        _ = try database.makeStore(ShelterModel.model)
        let other = ManagedObjectModel(Model(entities: [Entity(name: "Invoice", attributes: [Attribute(name: "total", type: .double, isOptional: true)])]))
        let error = #expect(throws: ManagedObjectError.self) { try database.makeStore(other) }
        #expect(error?.code == .persistentStoreIncompatibleVersionHash)
        #expect(error?.message.contains("Invoice") == true)
    }

    @Test("bad URLs and unreachable servers are errors naming the database, not traps", arguments: [
        "mysql://user@127.0.0.1/db", "postgres://127.0.0.1:5432/db", "postgres://user@127.0.0.1:1/nothing",
        "postgres://user@127.0.0.1/db?sslmode=sometimes", "postgres://user@127.0.0.1/db?schema=a;drop",
        "postgres://user@127.0.0.1/db?max_connections=0", "postgres://user@127.0.0.1/db?max_connections=many",
    ])
    func badConfiguration(url: String) throws {
        let error = #expect(throws: ManagedObjectError.self) { try PostgreSQLStore(model: ShelterModel.model, url: URL(string: url)!) }
        #expect(error?.code == .persistentStoreOpen)
    }

    @Test func atMostMaxConnectionsAreInUseAtOnceAndTheOthersWait() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let url = URL(string: database.url.absoluteString + "&max_connections=2")!
        let pool = PostgreSQLConnectionPool(try PostgreSQLStore.connectionSettings(from: url))
        defer { pool.close() }
        #expect(pool.maximumConnections == 2)
        let inUse = LockedValue((now: 0, most: 0, done: 0))
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let done: Bool? = try? pool.withConnection { connection in
                inUse.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                defer { inUse.withLock { $0.now -= 1 } }
                try pool.execute("SELECT pg_sleep(0.2)", on: connection)
                return true
            }
            if done == true { inUse.withLock { $0.done += 1 } }
        }
        let counts = inUse.withLock { $0 }
        #expect(counts.done == 6, "every call got a connection in turn")
        #expect(counts.most == 2)
    }

    @Test func aCallThatWaitsTooLongForAConnectionThrowsNamingTheStore() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let url = URL(string: database.url.absoluteString + "&max_connections=1")!
        let pool = PostgreSQLConnectionPool(try PostgreSQLStore.connectionSettings(from: url), connectionWaitTimeout: 0.2)
        defer { pool.close() }
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
            finished.signal()
        }
        holder.start()
        holding.wait()
        let error = #expect(throws: ManagedObjectError.self) { try pool.withConnection { _ in } }
        #expect(error?.code == .persistentStoreOperation)
        #expect(error?.message.contains("max_connections") == true)
        release.signal()
        finished.wait()
        // The permit came back: the next call gets the connection.
        try pool.withConnection { try pool.execute("SELECT 1", on: $0) }
    }

    @Test("metadata set on the store is written with the next save; another coordinator reads it with the store's own keys")
    func metadataRoundTrip() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let coordinator = try database.makeCoordinator(ShelterModel.model)
        let store = try #require(coordinator.persistentStores.first)
        let hashes = try #require(store.metadata["NSStoreModelVersionHashes"] as? [String: Data])
        var metadata = coordinator.metadata(for: store)
        metadata["com.example.lastSync"] = "2026-11-28"
        coordinator.setMetadata(metadata, for: store)
        #expect(try database.makeStore(ShelterModel.model).metadata["com.example.lastSync"] == nil)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            ManagedObject(entity: ShelterModel.model["Tag"]!, insertInto: context).setValue("new", forKey: "label")
            try context.save()
        }
        let reopened = try database.makeStore(ShelterModel.model)
        #expect(reopened.metadata["com.example.lastSync"] as? String == "2026-11-28")
        #expect(reopened.metadata["NSStoreUUID"] as? String == store.identifier)
        #expect(reopened.metadata["NSStoreType"] as? String == PersistentStoreType.postgreSQL.rawValue)
        #expect(reopened.metadata["NSStoreModelVersionHashes"] as? [String: Data] == hashes)
    }
}

@Suite("Predicate conformance through the PostgreSQL store", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLConformanceTests {
    /// The count of `shape`'s objects matching `predicate` after `values` were saved to `store`.
    static func count(_ testCase: StoreConformanceCase, model: ManagedObjectModel, store: any PersistentStore) throws -> Int? {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        return try context.performAndWait { () throws -> Int? in
            _ = testCase.shape.insert(testCase.values, into: context, model: model)
            try context.save()
            context.reset()
            let request = FetchRequest<ManagedObject>(entityName: testCase.shape.name)
            request.predicate = testCase.predicate
            return try? context.count(for: request)
        }
    }

    @Test("each typed record case answers as the in-memory store (whose answers the context's are) and as the table says")
    func conformance() throws {
        let (cases, skipped) = StoreConformanceCase.all(typed: true)
        var compared = 0
        var asTabled = 0
        var translated = 0
        for testCase in cases {
            let model = ManagedObjectModel(Model(entities: testCase.shape.all.map(\.entity)))
            let database = PostgreSQLTestServer.freshDatabase()
            let store = try database.makeStore(model)
            let byPostgreSQL = try Self.count(testCase, model: model, store: store)
            let inMemory = try Self.count(testCase, model: model, store: InMemoryStore())
            #expect(byPostgreSQL == inMemory, "line \(testCase.line): \(testCase.format)")
            compared += 1
            if byPostgreSQL == (testCase.expected ? 1 : 0) { asTabled += 1 }
            // Whatever SQLite's dialect translates, PostgreSQL's does, but `[d]` (no `unaccent`).
            let request = StoreRequest(entity: try #require(model[testCase.shape.name]), predicate: testCase.predicate)
            let inPostgreSQL = SQLStatementPlan(request, schema: store.schema, dialect: .postgreSQL).rest.predicate == nil
            let inSQLite = SQLStatementPlan(request, schema: store.schema, dialect: .sqlite).rest.predicate == nil
            if inPostgreSQL { translated += 1 }
            if inSQLite && !inPostgreSQL && !testCase.format.contains("d]") {
                Issue.record("line \(testCase.line): \(testCase.format) translates for SQLite, not for PostgreSQL")
            }
        }
        print("conformance cases through the PostgreSQL store: \(compared) compared (\(translated) translated whole to SQL), \(asTabled) as the table says; not run: \(skipped)")
        #expect(compared >= 90)
        #expect(translated >= 30)
        #expect(asTabled >= compared - 3)
    }
}

/// Keys collected from several threads.
final class LockedKeys: @unchecked Sendable {
    // Unchecked: `keys` is only touched under `lock`.
    private let lock = NSLock()
    private var keys: [Int64] = []
    func add(_ more: [Int64]) { lock.withLock { keys += more } }
    var all: [Int64] { lock.withLock { keys } }
}

extension StoreResult {
    var countValue: Int? {
        if case .count(let count) = self { count } else { nil }
    }
}

@Suite("PostgreSQL dialect of the predicate translator", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLDialectTests {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Word", attributes: [
            Attribute(name: "text", type: .string, isOptional: true),
            Attribute(name: "rank", type: .integer64, isOptional: true),
        ]),
    ]))

    /// Strings where SQL's and Swift's comparisons could part: case, accents, LIKE's own
    /// wildcards and escape, an empty string, no value.
    static let texts: [String?] = [
        "Ada", "ada", "ADA", "Adam", "Zürich", "zürich", "a%b", "a_b", "axb", "back\\slash", "Smíth", "", nil, "b", "B", "a\nb", "x\ny",
    ]

    static var predicates: [(String, [Any?])] { [
        ("text == %@", ["ada"]), ("text ==[c] %@", ["ada"]), ("text != %@", ["ada"]), ("text <[c] %@", ["b"]),
        ("text < %@", ["b"]), ("text >= %@", ["Zürich"]), ("text BETWEEN %@", [["A", "b"]]), ("text IN %@", [["a%b", "B", "nothing"]]),
        ("text IN[c] %@", [["ADAM", "zÜrich"]]),
        ("text BEGINSWITH %@", ["a"]), ("text BEGINSWITH[c] %@", ["a"]), ("text ENDSWITH %@", ["b"]), ("text ENDSWITH[c] %@", ["ICH"]),
        ("text CONTAINS %@", ["%"]), ("text CONTAINS %@", ["_"]), ("text CONTAINS %@", ["\\"]), ("text CONTAINS[c] %@", ["D"]),
        ("text LIKE %@", ["a?b"]), ("text LIKE %@", ["a*"]), ("text LIKE[c] %@", ["A*"]), ("text LIKE %@", ["*%*"]),
        ("text MATCHES %@", ["[A-Z].*"]), ("text MATCHES %@", ["a.b"]), ("text MATCHES[c] %@", ["ada.?"]), ("text MATCHES %@", ["a|b"]), ("text MATCHES %@", ["x.y"]), ("text MATCHES %@", [".*b"]), ("text MATCHES %@", ["a[^_]b"]),
        ("NOT text BEGINSWITH %@", ["A"]), ("text == nil", []), ("text != nil AND rank > %@", [5]), ("text ==[d] %@", ["zurich"]),
    ] }

    /// The words' texts as a fetch in `context` returns them.
    static func texts(_ predicate: ObjectPredicate?, sortedBy sorts: [ObjectSortDescriptor], in context: ManagedObjectContext) throws -> [String?] {
        let request = FetchRequest<ManagedObject>(entityName: "Word")
        request.predicate = predicate
        request.sortDescriptors = sorts
        return try context.fetch(request).map { $0.value(forKey: "text") as? String }
    }

    @Test("string comparisons, matches and sorts in SQL answer as the in-memory store does, in the same order")
    func sameAnswers() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let store = try database.makeStore(Self.model)
        var contexts: [ManagedObjectContext] = []
        for store in [store, InMemoryStore()] as [any PersistentStore] {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: Self.model)
            coordinator.addPersistentStore(store)
            let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
            try context.performAndWait {
                for (rank, text) in Self.texts.enumerated() {
                    let word = ManagedObject(entity: Self.model["Word"]!, insertInto: context)
                    word.setValue(text, forKey: "text")
                    word.setValue(Int64(rank), forKey: "rank")
                }
                try context.save()
            }
            contexts.append(context)
        }
        let sorts = [
            [ObjectSortDescriptor(key: "text", ascending: true)], [ObjectSortDescriptor(key: "text", ascending: false)],
            [ObjectSortDescriptor(key: "rank", ascending: true)],
        ]
        var translated = 0
        for (format, arguments) in Self.predicates {
            let predicate = ObjectPredicate(format, argumentArray: arguments)
            let request = StoreRequest(entity: try #require(Self.model["Word"]), predicate: predicate, sortDescriptors: sorts[0])
            let plan = SQLStatementPlan(request, schema: store.schema, dialect: .postgreSQL)
            if plan.rest.predicate == nil { translated += 1 }
            for sort in sorts {
                let fromPostgreSQL = try contexts[0].performAndWait { try Self.texts(predicate, sortedBy: sort, in: contexts[0]) }
                let inMemory = try contexts[1].performAndWait { try Self.texts(predicate, sortedBy: sort, in: contexts[1]) }
                #expect(fromPostgreSQL == inMemory, "\(format) \(arguments) sorted by \(sort)")
            }
        }
        // All but `[d]` become SQL.
        #expect(translated == Self.predicates.count - 1)
        let sortPlan = SQLStatementPlan(
            StoreRequest(entity: try #require(Self.model["Word"]), sortDescriptors: sorts[1]), schema: store.schema, dialect: .postgreSQL)
        #expect(sortPlan.rest.sortDescriptors.isEmpty)
    }
}

@Suite("PostgreSQL store remote changes (LISTEN/NOTIFY)", .enabled(if: PostgreSQLTestServer.isConfigured, "set MANAGEDGEN_POSTGRES_URL (Scripts/postgres.sh start)"))
struct PostgreSQLRemoteChangeTests {
    @Test("another store's save reaches this store's observer with the changed IDs, and merging shows its values")
    func otherStoresSavesArrive() throws {
        let database = PostgreSQLTestServer.freshDatabase()
        let observing = try database.makeStore(ShelterModel.model)
        let received = LockedValue<[ManagedObjectContext.RemoteChanges]>([])
        let arrived = DispatchSemaphore(value: 0)
        try observing.startObservingRemoteChanges { changes in
            received.withLock { $0.append(changes) }
            arrived.signal()
        }
        #expect(throws: ManagedObjectError.self) { try observing.startObservingRemoteChanges { _ in } }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: ShelterModel.model)
        coordinator.addPersistentStore(observing)
        let mine = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        // This store's own saves are not remote changes.
        try mine.performAndWait {
            ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: mine).setValue("Ada", forKey: "name")
            try mine.save()
        }
        let ada = try mine.performAndWait { try #require(try fetch("Person", in: mine).first) }
        #expect(mine.performAndWait { ada.value(forKey: "age") } == nil)

        // Another process (a store with connections of its own) changes Ada and adds Grace.
        let other = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: try database.makeCoordinator(ShelterModel.model))
        try other.performAndWait {
            try fetch("Person", in: other).first?.setValue(Int64(37), forKey: "age")
            ManagedObject(entity: ShelterModel.model["Person"]!, insertInto: other).setValue("Grace", forKey: "name")
            try other.save()
        }
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        let changes = received.withLock { $0 }
        #expect(changes.count == 2)
        #expect(changes.flatMap(\.updated) == [ada.objectID])
        #expect(changes.flatMap(\.inserted).count == 1)
        for change in changes { ManagedObjectContext.mergeChanges(fromRemoteContextSave: change, into: [mine]) }
        #expect(mine.performAndWait { ada.value(forKey: "age") as? Int64 } == 37)

        try other.performAndWait {
            for person in try fetch("Person", "name == 'Grace'", in: other) { other.delete(person) }
            try other.save()
        }
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(received.withLock { $0.last?.deleted.count } == 1)
        #expect(received.withLock { $0.count } == 3)
    }
}
