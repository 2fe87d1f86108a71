import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// Folders cascade to their items; items nullify their folder and share tags (many-to-many);
/// a shelf denies the delete of its folders; a badge's holder is mandatory; nodes make a tree
/// that cascades through two self-referencing relationships.
enum BatchModel {
    static let model = Model(entities: [
        Entity(name: "Folder", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "items", destinationEntity: "Item", inverseName: "folder", inverseEntity: "Item",
                         isToMany: true, isOptional: true, deleteRule: .cascade),
            Relationship(name: "shelf", destinationEntity: "Shelf", inverseName: "folders", inverseEntity: "Shelf", isOptional: true),
        ]),
        Entity(name: "Item", attributes: [
            Attribute(name: "code", type: .string, isOptional: true),
            Attribute(name: "count", type: .integer64, isOptional: true, defaultValueString: "7"),
            Attribute(name: "title", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "folder", destinationEntity: "Folder", inverseName: "items", inverseEntity: "Folder", isOptional: true),
            Relationship(name: "tags", destinationEntity: "Tag", inverseName: "items", inverseEntity: "Tag",
                         isToMany: true, isOptional: true),
        ], uniquenessConstraints: [["code"]]),
        Entity(name: "Tag", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "items", destinationEntity: "Item", inverseName: "tags", inverseEntity: "Item",
                         isToMany: true, isOptional: true),
        ]),
        Entity(name: "Shelf", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "folders", destinationEntity: "Folder", inverseName: "shelf", inverseEntity: "Folder",
                         isToMany: true, isOptional: true, deleteRule: .deny),
        ]),
        Entity(name: "Holder", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "badges", destinationEntity: "Badge", inverseName: "holder", inverseEntity: "Badge",
                         isToMany: true, isOptional: true),
        ]),
        Entity(name: "Badge", attributes: [
            Attribute(name: "label", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "holder", destinationEntity: "Holder", inverseName: "badges", inverseEntity: "Holder"),
        ]),
        Entity(name: "Node", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "children", destinationEntity: "Node", inverseName: "parent", inverseEntity: "Node",
                         isToMany: true, isOptional: true, deleteRule: .cascade),
            Relationship(name: "parent", destinationEntity: "Node", inverseName: "children", inverseEntity: "Node", isOptional: true),
            Relationship(name: "owner", destinationEntity: "Node", inverseName: "owned", inverseEntity: "Node", isOptional: true),
            Relationship(name: "owned", destinationEntity: "Node", inverseName: "owner", inverseEntity: "Node",
                         isToMany: true, isOptional: true, deleteRule: .cascade),
        ]),
    ])

    static let managedObjectModel = ManagedObjectModel(model)
}

@discardableResult
private func make(_ entityName: String, _ values: [String: Any], in context: ManagedObjectContext) throws -> ManagedObject {
    let object = ManagedObject(entity: try #require(context.managedObjectModel[entityName]), insertInto: context)
    for (key, value) in values { object.setValue(value, forKey: key) }
    return object
}

private func fetch(_ entityName: String, _ predicate: ObjectPredicate? = nil, in context: ManagedObjectContext) throws -> [ManagedObject] {
    try context.fetch(FetchRequest<ManagedObject>(entityName: entityName, predicate: predicate))
}

private func count(_ entityName: String, in context: ManagedObjectContext) throws -> Int {
    try context.count(for: FetchRequest<ManagedObject>(entityName: entityName))
}

/// The error `body` throws, which must be a `ManagedObjectError`.
private func managedObjectError<T>(_ body: () throws -> T) -> ManagedObjectError? {
    do {
        _ = try body()
    } catch let error as ManagedObjectError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
    Issue.record("expected an error")
    return nil
}

@Suite("Batch requests executed by the store")
struct BatchRequestTests {
    let model = BatchModel.managedObjectModel

    // MARK: Insert

    @Test("batch insert from dictionaries: each result type, defaults for missing keys, a fetch sees the rows", arguments: StoreKind.allCases)
    func insertDictionaries(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let request = BatchInsertRequest(entityName: "Item", objects: [
                ["code": "a", "count": 1, "title": "first"],
                ["code": "b", "count": Int16(2)],
                ["code": "c", "title": NSNull()],
            ])
            request.resultType = .objectIDs
            let result = try context.execute(request)
            let ids = try #require(result.objectIDs)
            #expect(ids.count == 3)
            #expect(ids.allSatisfy { !$0.isTemporaryID && $0.entity.name == "Item" })
            #expect(context.registeredObjects.isEmpty, "the context is bypassed")

            let items = try fetch("Item", in: context)
            #expect(Set(items.map(\.objectID)) == Set(ids))
            let byCode = Dictionary(uniqueKeysWithValues: items.map { ($0.value(forKey: "code") as? String ?? "", $0) })
            #expect(byCode["a"]?.value(forKey: "title") as? String == "first")
            #expect(byCode["b"]?.value(forKey: "count") as? Int64 == 2)
            #expect(byCode["c"]?.value(forKey: "count") as? Int64 == 7, "a missing key gets the model default")
            #expect(byCode["c"]?.value(forKey: "title") == nil)

            let counted = BatchInsertRequest(entityName: "Item", objects: [["code": "d"], ["code": "e"]])
            counted.resultType = .count
            #expect(try context.execute(counted).count == 2)
            let status = try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "f"]]))
            #expect(status.result as? Bool == true)
            #expect(try count("Item", in: context) == 6)
        }
    }

    @Test("batch insert from a dictionary handler and a managed-object handler, until they return true", arguments: StoreKind.allCases)
    func insertHandlers(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            var next = 0
            let dictionaries = BatchInsertRequest(entityName: "Item", dictionaryHandler: { dictionary in
                guard next < 5 else { return true }
                dictionary["code"] = "d\(next)"
                dictionary["count"] = next
                next += 1
                return false
            })
            dictionaries.resultType = .count
            #expect(try context.execute(dictionaries).count == 5)

            var made = 0
            let objects = BatchInsertRequest(entityName: "Item", managedObjectHandler: { object in
                guard made < 2 else { return true }
                #expect(object.managedObjectContext == nil)
                object.setValue("o\(made)", forKey: "code")
                object.setValue(100 + made, forKey: "count")
                made += 1
                return false
            })
            objects.resultType = .objectIDs
            #expect(try context.execute(objects).objectIDs?.count == 2)

            let items = try fetch("Item", ObjectPredicate("count >= 100"), in: context)
            #expect(Set(items.compactMap { $0.value(forKey: "code") as? String }) == ["o0", "o1"])
            #expect(try count("Item", in: context) == 7)
        }
    }

    @Test("bad batch insert input throws naming the entity, key or row, and writes nothing", arguments: StoreKind.allCases)
    func insertBadInput(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let unknownEntity = managedObjectError { try context.execute(BatchInsertRequest(entityName: "Nope", objects: [[:]])) }
            #expect(unknownEntity?.code == .invalidFetchRequest)
            #expect(unknownEntity?.entityName == "Nope")

            let unknownKey = managedObjectError {
                try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "ok"], ["colour": "red"]]))
            }
            #expect(unknownKey?.code == .invalidFetchRequest)
            #expect(unknownKey?.key == "colour")
            #expect(unknownKey?.message.contains("row 2") == true)

            let relationship = managedObjectError { try context.execute(BatchInsertRequest(entityName: "Item", objects: [["folder": NSNull()]])) }
            #expect(relationship?.key == "folder")
            #expect(relationship?.message.contains("relationships") == true)

            let wrongType = managedObjectError {
                try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "x"], ["code": "y", "count": "many"]]))
            }
            #expect(wrongType?.code == .validation)
            #expect(wrongType?.entityName == "Item")
            #expect(wrongType?.key == "count")
            let remaining = try count("Item", in: context)
            #expect(remaining == 0, "nothing written")
        }
    }

    @Test("a batch insert conflicting with a uniqueness constraint fails whole (error merge policy)", arguments: StoreKind.allCases)
    func insertConstraintConflict(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            try make("Item", ["code": "taken", "count": 1], in: context)
            try context.save()
            let error = managedObjectError {
                try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "new"], ["code": "taken"]]))
            }
            #expect(error?.code == .constraintConflict)
            #expect(error?.key == "code")
            #expect(try count("Item", in: context) == 1, "nothing written")
            let duplicates = managedObjectError {
                try context.execute(BatchInsertRequest(entityName: "Item", objects: [["code": "twin"], ["code": "twin"]]))
            }
            #expect(duplicates?.code == .constraintConflict)
            #expect(try count("Item", in: context) == 1)
        }
    }

    @Test("under an object-trump merge policy a context's batch insert upserts by constraint", arguments: StoreKind.allCases)
    func insertUpsertThroughMergePolicy(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            try make("Item", ["code": "taken", "count": 1], in: context)
            try context.save()
            context.mergePolicy = .mergeByPropertyObjectTrump
            let request = BatchInsertRequest(entityName: "Item", objects: [["code": "taken", "count": 42], ["code": "new"]])
            request.resultType = .count
            #expect(try context.execute(request).count == 2)
            #expect(try count("Item", in: context) == 2)
            context.reset()
            let fetch = FetchRequest<ManagedObject>(entityName: "Item")
            fetch.predicate = ObjectPredicate("code == 'taken'")
            let taken = try context.fetch(fetch)
            #expect(taken.count == 1)
            #expect(taken.first?.value(forKey: "count") as? Int64 == 42)
        }
    }

    @Test("a store's batch insert upserts by constraint: the object with the values is updated, the others inserted", arguments: StoreKind.allCases)
    func insertUpsert(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let existing = try make("Item", ["code": "taken", "count": 1, "title": "old"], in: context)
            try context.save()
            let store = try #require(context.persistentStoreCoordinator.persistentStores.first)
            let entity = try #require(model["Item"])
            let attributes = [try #require(entity.attribute(named: "code")), try #require(entity.attribute(named: "count"))]
            var insert = StoreBatchInsert(entity: entity, attributes: attributes, values: ["taken", Int64(5), "fresh", Int64(6)], rowCount: 2)
            insert.updatesObjectsOnConstraintConflict = true
            let outcome = try store.batchInsert(insert)
            #expect(outcome.count == 2)
            #expect(outcome.objectIDs?.first == existing.objectID)
            let stored = try #require(try store.snapshot(for: existing.objectID))
            #expect(stored.version == 2)
            let countIndex = try #require(entity.attribute(named: "count")).index
            guard case .attribute(let storedCount) = stored.values[countIndex] else { Issue.record("no count"); return }
            #expect(storedCount as? Int64 == 5)
            #expect(try count("Item", in: context) == 2)
        }
    }

    @Test("SQLite batch insert: keys from Z_MAX kept current, Z_ENT and Z_OPT as Core Data writes them")
    func insertSQLiteKeys() throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: .sqlite, files: files)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let request = BatchInsertRequest(entityName: "Item", objects: (0..<250).map { ["code": "c\($0)", "count": $0] })
            request.resultType = .objectIDs
            let ids = try #require(try context.execute(request).objectIDs)
            #expect(ids.compactMap(\.storeNumber) == Array(1...250))
            let path = files.file("Test.sqlite").path
            let itemNumber = try rawSQL(path, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'")
            #expect(try rawSQL(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'") == "250")
            #expect(try rawSQL(path, "SELECT DISTINCT Z_ENT || '/' || Z_OPT FROM ZITEM") == "\(itemNumber)/1")
            let later = try make("Item", ["code": "later"], in: context)
            try context.save()
            #expect(later.objectID.storeNumber == 251)
        }
    }

    // MARK: Update

    @Test("batch update: each result type, constants and expressions, versions increased", arguments: StoreKind.allCases)
    func update(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            for index in 1...4 { try make("Item", ["code": "i\(index)", "count": index], in: context) }
            try context.save()
            let store = try #require(context.persistentStoreCoordinator.persistentStores.first)

            let byIDs = BatchUpdateRequest(entityName: "Item")
            byIDs.predicate = ObjectPredicate("count >= %d", 3)
            byIDs.propertiesToUpdate = ["title": "big"]
            byIDs.resultType = .updatedObjectIDsResultType
            let ids = try #require(try context.execute(byIDs).objectIDs)
            #expect(ids.count == 2)
            for id in ids { #expect(try store.snapshot(for: id)?.version == 2) }

            let counted = BatchUpdateRequest(entityName: "Item")
            counted.propertiesToUpdate = ["count": try ObjectExpression(parsing: "count + 10")]
            counted.resultType = .updatedObjectsCountResultType
            #expect(try context.execute(counted).count == 4)

            let status = BatchUpdateRequest(entityName: "Item")
            status.predicate = ObjectPredicate("code == %@", "i1")
            status.propertiesToUpdate = ["title": NSNull(), "count": 0]
            #expect(try context.execute(status).result as? Bool == true)

            let items = try fetch("Item", in: context)
            let counts = Dictionary(uniqueKeysWithValues: items.map { ($0.value(forKey: "code") as? String ?? "", $0.value(forKey: "count") as? Int64) })
            #expect(counts == ["i1": 0, "i2": 12, "i3": 13, "i4": 14])
            #expect(Set(try fetch("Item", ObjectPredicate("title == 'big'"), in: context).map(\.objectID)) == Set(ids))
        }
    }

    @Test("batch update with a predicate SQL cannot answer is evaluated in memory, all in one transaction", arguments: StoreKind.allCases)
    func updateUntranslatedPredicate(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let full = try make("Folder", ["name": "full"], in: context)
            let lone = try make("Folder", ["name": "lone"], in: context)
            for index in 1...3 { try make("Item", ["code": "f\(index)", "folder": full], in: context) }
            try make("Item", ["code": "l1", "folder": lone], in: context)
            try context.save()
            let request = BatchUpdateRequest(entityName: "Item")
            request.predicate = ObjectPredicate("folder.items.@count >= 2")
            request.propertiesToUpdate = ["title": "crowded"]
            request.resultType = .updatedObjectsCountResultType
            #expect(try context.execute(request).count == 3)
            #expect(try fetch("Item", ObjectPredicate("title == 'crowded'"), in: context).count == 3)
        }
    }

    @Test("bad batch update input throws naming the key or entity and changes nothing", arguments: StoreKind.allCases)
    func updateBadInput(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            try make("Item", ["code": "a", "count": 1], in: context)
            try context.save()
            let unknown = BatchUpdateRequest(entityName: "Item")
            unknown.propertiesToUpdate = ["colour": "red"]
            #expect(managedObjectError { try context.execute(unknown) }?.key == "colour")
            let relationship = BatchUpdateRequest(entityName: "Item")
            relationship.propertiesToUpdate = ["tags": NSNull()]
            #expect(managedObjectError { try context.execute(relationship) }?.key == "tags")
            let wrongType = BatchUpdateRequest(entityName: "Item")
            wrongType.propertiesToUpdate = ["count": "lots"]
            let error = managedObjectError { try context.execute(wrongType) }
            #expect(error?.code == .validation)
            #expect(error?.key == "count")
            let badPredicate = BatchUpdateRequest(entityName: "Item")
            badPredicate.predicate = ObjectPredicate("colour == 'red'")
            badPredicate.propertiesToUpdate = ["count": 2]
            #expect(managedObjectError { try context.execute(badPredicate) }?.code == .invalidFetchRequest)
            #expect(managedObjectError { try context.execute(BatchUpdateRequest(entityName: "Nope")) }?.entityName == "Nope")
            let item = try #require(try fetch("Item", in: context).first)
            #expect(item.value(forKey: "count") as? Int64 == 1)
            let store = try #require(context.persistentStoreCoordinator.persistentStores.first)
            #expect(try store.snapshot(for: item.objectID)?.version == 1)
        }
    }

    @Test("a batch update breaking a uniqueness constraint fails whole", arguments: StoreKind.allCases)
    func updateConstraintConflict(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            try make("Item", ["code": "a", "count": 1], in: context)
            try make("Item", ["code": "b", "count": 2], in: context)
            try context.save()
            let request = BatchUpdateRequest(entityName: "Item")
            request.propertiesToUpdate = ["code": "same"]
            #expect(managedObjectError { try context.execute(request) }?.code == .constraintConflict)
            #expect(Set(try fetch("Item", in: context).compactMap { $0.value(forKey: "code") as? String }) == ["a", "b"])
        }
    }

    // MARK: Delete

    @Test("batch delete by predicate and by IDs: each result type", arguments: StoreKind.allCases)
    func delete(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let insert = BatchInsertRequest(entityName: "Item", objects: (1...10).map { ["code": "c\($0)", "count": $0] })
            insert.resultType = .objectIDs
            let ids = try #require(try context.execute(insert).objectIDs)

            let counted = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("count <= 3")))
            counted.resultType = .resultTypeCount
            #expect(try context.execute(counted).count == 3)

            let listed = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("count > 8")))
            listed.resultType = .resultTypeObjectIDs
            #expect(Set(try #require(try context.execute(listed).objectIDs)) == Set(ids[8...]))

            let byID = BatchDeleteRequest(objectIDs: [ids[3], ids[4], ids[0]])  // ids[0] is gone already
            byID.resultType = .resultTypeObjectIDs
            #expect(Set(try #require(try context.execute(byID).objectIDs)) == [ids[3], ids[4]])

            let status = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("code == 'c6'"))))
            #expect(status.result as? Bool == true)
            #expect(Set(try fetch("Item", in: context).map(\.objectID)) == [ids[6], ids[7]])

            let everything = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item"))
            everything.resultType = .resultTypeCount
            #expect(try context.execute(everything).count == 2)
            #expect(try count("Item", in: context) == 0)
        }
    }

    @Test("batch delete applies delete rules: cascade, nullify (to-one and many-to-many)", arguments: StoreKind.allCases)
    func deleteRules(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let doomed = try make("Folder", ["name": "doomed"], in: context)
            let kept = try make("Folder", ["name": "kept"], in: context)
            let tag = try make("Tag", ["name": "t"], in: context)
            let inDoomed = try make("Item", ["code": "d", "folder": doomed], in: context)
            let inKept = try make("Item", ["code": "k1", "folder": kept], in: context)
            let other = try make("Item", ["code": "k2", "folder": kept], in: context)
            tag.setValue(Set([inDoomed, inKept, other]), forKey: "items")
            try context.save()
            let (doomedID, inDoomedID, inKeptID, keptID, tagID) = (doomed.objectID, inDoomed.objectID, inKept.objectID, kept.objectID, tag.objectID)

            // Cascade: the folder's item goes too, and leaves its tag.
            let folders = BatchDeleteRequest(objectIDs: [doomedID])
            folders.resultType = .resultTypeObjectIDs
            #expect(Set(try #require(try context.execute(folders).objectIDs)) == [doomedID, inDoomedID])
            // Nullify through the to-one inverse: the kept folder loses the item.
            let items = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("code == 'k1'")))
            items.resultType = .resultTypeCount
            #expect(try context.execute(items).count == 1)

            context.reset()
            #expect(try count("Item", in: context) == 1)
            let keptAgain = try context.existingObject(with: keptID)
            #expect((keptAgain.value(forKey: "items") as? Set<ManagedObject>)?.map(\.objectID) == [other.objectID])
            let tagAgain = try context.existingObject(with: tagID)
            #expect((tagAgain.value(forKey: "items") as? Set<ManagedObject>)?.map(\.objectID) == [other.objectID])
            #expect(throws: ManagedObjectError.self) { try context.existingObject(with: inKeptID) }
        }
    }

    @Test("batch delete: Deny with related objects throws 1600, a mandatory inverse throws 134030; nothing deleted", arguments: StoreKind.allCases)
    func deleteRefused(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let shelf = try make("Shelf", ["name": "s"], in: context)
            try make("Folder", ["name": "f", "shelf": shelf], in: context)
            let holder = try make("Holder", ["name": "h"], in: context)
            try make("Badge", ["label": "b", "holder": holder], in: context)
            try make("Shelf", ["name": "empty"], in: context)
            try context.save()

            let denied = managedObjectError { try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Shelf"))) }
            #expect(denied?.code == .relationshipDeniedDelete)
            #expect(denied?.key == "folders")
            #expect(try count("Shelf", in: context) == 2)

            let mandatory = managedObjectError { try context.execute(BatchDeleteRequest(objectIDs: [holder.objectID])) }
            #expect(mandatory?.code == .persistentStoreSave)
            #expect(mandatory?.message.contains("Badge/holder") == true)
            #expect(try count("Holder", in: context) == 1)

            let empty = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Shelf", predicate: ObjectPredicate("name == 'empty'")))
            empty.resultType = .resultTypeCount
            #expect(try context.execute(empty).count == 1)
        }
    }

    @Test("bad batch delete input throws", arguments: StoreKind.allCases)
    func deleteBadInput(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let folder = try make("Folder", ["name": "f"], in: context)
            let item = try make("Item", ["code": "i"], in: context)
            try context.save()
            #expect(managedObjectError { try context.execute(BatchDeleteRequest(objectIDs: [folder.objectID, item.objectID])) }?.code == .invalidFetchRequest)
            let limited = FetchRequest<ManagedObject>(entityName: "Item")
            limited.fetchLimit = 1
            #expect(managedObjectError { try context.execute(BatchDeleteRequest(fetchRequest: limited)) }?.code == .invalidFetchRequest)
            let unknownKey = FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("colour == 'red'"))
            #expect(managedObjectError { try context.execute(BatchDeleteRequest(fetchRequest: unknownKey)) }?.key == "colour")
            #expect(try count("Item", in: context) == 1)
            #expect(try count("Folder", in: context) == 1)
        }
    }

    @Test("SQLite: batch update bumps Z_OPT in SQL; batch delete removes join-table rows")
    func sqliteRows() throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: .sqlite, files: files)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let tag = try make("Tag", ["name": "t"], in: context)
            let items = try (1...3).map { try make("Item", ["code": "c\($0)", "count": $0], in: context) }
            tag.setValue(Set(items), forKey: "items")
            try context.save()
            let path = files.file("Test.sqlite").path
            let update = BatchUpdateRequest(entityName: "Item")
            update.predicate = ObjectPredicate("count >= 2")
            update.propertiesToUpdate = ["title": "x"]
            try context.execute(update)
            #expect(try rawSQL(path, "SELECT ZCODE || ':' || Z_OPT FROM ZITEM ORDER BY Z_PK") == "c1:1\nc2:2\nc3:2")
            let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("count >= 2")))
            try context.execute(delete)
            let join = try #require(try rawSQL(path, "SELECT name FROM sqlite_master WHERE name LIKE 'Z\\_%TAGS' ESCAPE '\\'").split(separator: "\n").first)
            #expect(try rawSQL(path, "SELECT COUNT(*) FROM \(join)") == "1")
        }
    }

    // MARK: Merging

    @Test("a batch delete merged into the view context removes the objects from it; a merged update refreshes them", arguments: StoreKind.allCases)
    func mergeIntoViewContext(kind: StoreKind) async throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: kind, files: files)
        let viewContext = container.viewContext
        let background = container.newBackgroundContext()
        try await viewContext.perform { () throws -> Void in
            // Held here, as an app holds what it shows: registered until merged away.
            let items = try (1...4).map { try make("Item", ["code": "c\($0)", "count": $0], in: viewContext) }
            try viewContext.save()
            let deletedIDs = items.prefix(3).map(\.objectID)
            let kept = items[3]
            let changes = try background.performAndWait {
                let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item", predicate: ObjectPredicate("count <= 3")))
                delete.resultType = .resultTypeObjectIDs
                let deleted = try #require(try background.execute(delete).objectIDs)
                let update = BatchUpdateRequest(entityName: "Item")
                update.propertiesToUpdate = ["title": "merged"]
                update.resultType = .updatedObjectIDsResultType
                let updated = try #require(try background.execute(update).objectIDs)
                return ManagedObjectContext.RemoteChanges(updated: updated, deleted: deleted)
            }
            #expect(Set(changes.deleted) == Set(deletedIDs))
            #expect(changes.updated == [kept.objectID])
            #expect(deletedIDs.allSatisfy { viewContext.registeredObject(for: $0) != nil }, "not merged yet")
            #expect(kept.value(forKey: "title") == nil, "the context still has the old values")
            var announced: [ContextNotification] = []
            let observation = viewContext.addObserver(for: [.objectsDidChange]) { announced.append($0) }
            ManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [ManagedObjectContext.deletedObjectsKey: changes.deleted, ManagedObjectContext.updatedObjectsKey: changes.updated],
                into: [viewContext])
            observation.cancel()
            #expect(deletedIDs.allSatisfy { viewContext.registeredObject(for: $0) == nil })
            #expect(items.prefix(3).allSatisfy { $0.managedObjectContext == nil })
            #expect(kept.value(forKey: "title") as? String == "merged")
            #expect(Set(announced.flatMap(\.deletedObjectIDs)) == Set(deletedIDs))
            #expect(announced.flatMap(\.refreshedObjectIDs) == [kept.objectID])
            #expect(try count("Item", in: viewContext) == 1)
        }
    }

    @Test("the README's example runs: insert, rename, then a delete merged into the view context", arguments: StoreKind.allCases)
    func readmeExample(kind: StoreKind) async throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(DogWalkModel.managedObjectModel, kind: kind, files: files)
        try await container.viewContext.perform { () throws -> Void in
            let context = container.viewContext
            let insert = BatchInsertRequest(entityName: "Dog", objects: [["name": "Rex"], ["name": "Bella"]])
            try context.execute(insert)

            let rename = BatchUpdateRequest(entityName: "Dog")
            rename.predicate = ObjectPredicate("name == %@", "Rex")
            rename.propertiesToUpdate = ["name": "Max"]
            try context.execute(rename)
            let shown = try context.fetch(Dog.fetchRequest())
            #expect(Set(shown.compactMap(\.name)) == ["Max", "Bella"])

            let delete = BatchDeleteRequest(fetchRequest: Dog.fetchRequest())
            delete.resultType = .resultTypeObjectIDs
            let deleted = try context.execute(delete).objectIDs ?? []
            ManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [ManagedObjectContext.deletedObjectsKey: deleted], into: [container.viewContext])
            #expect(Set(deleted) == Set(shown.map(\.objectID)))
            #expect(shown.allSatisfy { $0.managedObjectContext == nil })
            #expect(try context.fetch(Dog.fetchRequest()).isEmpty)
        }
    }


    @Test("batch delete cascades through a self-referencing tree, deleting each object once", arguments: StoreKind.allCases)
    func deleteTree(kind: StoreKind) throws {
        try withContext(model, kind: kind) { context in
            let root = try make("Node", ["name": "root"], in: context)
            let child = try make("Node", ["name": "child", "parent": root], in: context)
            let grandchild = try make("Node", ["name": "grandchild", "parent": child, "owner": root], in: context)
            let other = try make("Node", ["name": "other"], in: context)
            try make("Node", ["name": "owned by other", "owner": other, "parent": grandchild], in: context)
            try context.save()
            let request = BatchDeleteRequest(objectIDs: [root.objectID])
            request.resultType = .resultTypeObjectIDs
            let deleted = try #require(try context.execute(request).objectIDs)
            #expect(deleted.count == 4, "each once, though reached twice")
            #expect(Set(deleted).isSuperset(of: [root.objectID, child.objectID, grandchild.objectID]))
            context.reset()
            let left = try fetch("Node", in: context)
            #expect(left.map(\.objectID) == [other.objectID])
            let otherAgain = try #require(left.first)
            #expect((otherAgain.value(forKey: "owned") as? Set<ManagedObject>)?.isEmpty == true)
        }
    }

}
