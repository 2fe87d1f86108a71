import DataModel
import Foundation
import ManagedObjects

/// Differential: a format string fetched from the same objects in an SQLite store (where the
/// SQL translator runs it, or declines and the context evaluates it) and in an in-memory store
/// (evaluated in Swift). Both give the same objects or both refuse; the SQLite store's count
/// equals its fetch.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSQLTranslation(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let predicate = try? ObjectPredicate(parsing: text) else { return 0 }
    let stores = Stores.shared
    let inSQL = stores.answer(predicate, in: stores.sqlite)
    let inMemory = stores.answer(predicate, in: stores.inMemory)
    switch (inSQL, inMemory) {
    case (.success(let sql), .success(let memory)):
        guard sql.ids == memory.ids else {
            fatalError("""
                \(text.debugDescription) finds different items
                  SQLite:    \(sql.ids.sorted())
                  in memory: \(memory.ids.sorted())
                """)
        }
        guard sql.count == sql.ids.count else {
            fatalError("\(text.debugDescription): the SQLite store counts \(sql.count), its fetch finds \(sql.ids.count)")
        }
    case (.failure, .failure):
        break
    case (.success, .failure(let error)), (.failure(let error), .success):
        fatalError("\(text.debugDescription) is refused by one store only: \(error)")
    }
    return 0
}

struct Answer {
    var ids: Set<Int64>
    var count: Int
}

/// The two stores, filled once per process with the same deterministic objects.
final class Stores: @unchecked Sendable {
    static let shared = Stores()
    let sqlite: ManagedObjectContext
    let inMemory: ManagedObjectContext

    private init() {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("FuzzSQLTranslation-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            sqlite = try Self.filledContext(PersistentStoreDescription(url: directory.appendingPathComponent("Fuzz.sqlite")))
            inMemory = try Self.filledContext(PersistentStoreDescription(type: .inMemory))
        } catch {
            fatalError("could not set up the stores: \(error)")
        }
    }

    func answer(_ predicate: ObjectPredicate, in context: ManagedObjectContext) -> Result<Answer, Error> {
        context.performAndWait {
            Result {
                let request = FetchRequest<ManagedObject>(entityName: "Item")
                request.predicate = predicate
                let ids = try context.fetch(request).map { $0.value(forKey: "id") as? Int64 ?? -1 }
                return Answer(ids: Set(ids), count: try context.count(for: request))
            }
        }
    }

    static let model = Model(entities: [
        Entity(name: "Item", attributes: [
            Attribute(name: "id", type: .integer64, isOptional: false),
            Attribute(name: "count", type: .integer32, isOptional: true),
            Attribute(name: "ratio", type: .double, isOptional: true),
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "flag", type: .boolean, isOptional: true),
            Attribute(name: "when", type: .date, isOptional: true),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Person", inverseName: "items", inverseEntity: "Person", isOptional: true),
            Relationship(name: "tags", destinationEntity: "Tag", inverseName: "items", inverseEntity: "Tag",
                         isToMany: true, isOptional: true),
        ]),
        Entity(name: "Person", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "age", type: .integer16, isOptional: true),
        ], relationships: [
            Relationship(name: "items", destinationEntity: "Item", inverseName: "owner", inverseEntity: "Item",
                         isToMany: true, isOptional: true),
        ]),
        Entity(name: "Tag", attributes: [
            Attribute(name: "label", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "items", destinationEntity: "Item", inverseName: "tags", inverseEntity: "Item",
                         isToMany: true, isOptional: true),
        ]),
    ])

    /// Strings that tell case, diacritics, wildcards and empty apart.
    static let names: [String?] = [nil, "", "Émile", "emile", "EMILE", "a%b", "under_score", "ß", "straße", "x*y?", "Zoë", "名前", "abc", "ABD"]

    static func filledContext(_ description: PersistentStoreDescription) throws -> ManagedObjectContext {
        let container = PersistentContainer(name: "Fuzz", managedObjectModel: ManagedObjectModel(model))
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var seed: UInt64 = 0x5EED
            func next(_ bound: Int) -> Int {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Int((seed >> 33) % UInt64(bound))
            }
            let people = (0..<5).map { number in
                let person = ManagedObject(entity: container.managedObjectModel.entitiesByName["Person"]!, insertInto: context)
                person.setValue(names[next(names.count)], forKey: "name")
                person.setValue(next(4) == 0 ? nil : Int16(number * 17 - 20), forKey: "age")
                return person
            }
            let tags = (0..<6).map { _ in
                let tag = ManagedObject(entity: container.managedObjectModel.entitiesByName["Tag"]!, insertInto: context)
                tag.setValue(names[next(names.count)], forKey: "label")
                return tag
            }
            for id in 0..<40 {
                let item = ManagedObject(entity: container.managedObjectModel.entitiesByName["Item"]!, insertInto: context)
                item.setValue(Int64(id), forKey: "id")
                item.setValue(next(5) == 0 ? nil : Int32(next(21) - 10), forKey: "count")
                item.setValue(next(5) == 0 ? nil : Double(next(2001) - 1000) / 100, forKey: "ratio")
                item.setValue(names[next(names.count)], forKey: "name")
                item.setValue(next(3) == 0 ? nil : next(2) == 0, forKey: "flag")
                item.setValue(next(4) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(next(1000)) * 86_400), forKey: "when")
                item.setValue(next(4) == 0 ? nil : people[next(people.count)], forKey: "owner")
                item.setValue(Set((0..<next(4)).map { _ in tags[next(tags.count)] }), forKey: "tags")
            }
            try context.save()
            context.reset()
        }
        // The context keeps the coordinator, and with it the store, for the process's life.
        return context
    }
}
