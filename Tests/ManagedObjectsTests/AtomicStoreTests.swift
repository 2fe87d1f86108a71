import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// A coordinator with one atomic store of `type` at `url`, and a private-queue context on it.
private func atomicContext(_ type: PersistentStoreType, _ model: ManagedObjectModel, at url: URL) throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: type, at: url)
    return ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
}

/// Object ID attributes and values XML must escape, beside GalleryModel's types.
private enum NoteModel {
    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Note", attributes: [
            Attribute(name: "text", type: .string, isOptional: true),
            Attribute(name: "link", type: .objectID, isOptional: true),
            Attribute(name: "ratio", type: .double, isOptional: true),
            Attribute(name: "small", type: .float, isOptional: true),
            Attribute(name: "amount", type: .decimal, isOptional: true),
        ]),
    ]))
}

@Suite("Binary and XML stores: Core Data's atomic stores")
struct AtomicStoreTests {
    let model = GalleryModel.managedObjectModel
    static let types: [PersistentStoreType] = [.binary, .xml]

    @Test("every attribute type, to-one, to-many, ordered to-many and many-to-many survive reopening", arguments: types)
    func roundTrip(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.\(type.rawValue)")
        let identifier = UUID()
        let when = Date(timeIntervalSinceReferenceDate: 123_456.75)
        let writer = try atomicContext(type, model, at: url)
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing is written before the first save")
        let paintingURI = try writer.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: writer)
            owner.setValue("Ada", forKey: "name")
            let painting = ManagedObject(entity: model["Painting"]!, insertInto: writer)
            painting.setValue(Int16(-7), forKey: "int16")
            painting.setValue(Int32(70_000), forKey: "int32")
            painting.setValue(Int64.max, forKey: "int64")
            painting.setValue(Decimal(string: "12345.678901234567890123")!, forKey: "decimal")
            painting.setValue(0.1, forKey: "double")
            painting.setValue(Float(2.5), forKey: "float")
            painting.setValue("Mona <&> \"Lisa\"\r\n\ttab", forKey: "string")
            painting.setValue(true, forKey: "flag")
            painting.setValue(when, forKey: "date")
            painting.setValue(Data([0, 1, 2, 255]), forKey: "binary")
            painting.setValue(identifier, forKey: "uuid")
            painting.setValue(URL(string: "https://example.com/a?b=c&d=e")!, forKey: "uri")
            painting.setValue(Data("archived".utf8), forKey: "archived")
            painting.setValue("oil", forKey: "note")
            painting.setValue("not kept", forKey: "scratch")
            painting.setValue(owner, forKey: "owner")
            let photo = ManagedObject(entity: model["Photo"]!, insertInto: writer)
            photo.setValue(Int32(3), forKey: "note")
            photo.setValue(owner, forKey: "owner")
            owner.setValue(photo, forKey: "favorite")
            let steps = (0..<3).map { number in
                let step = ManagedObject(entity: model["Step"]!, insertInto: writer)
                step.setValue("step \(number)", forKey: "label")
                return step
            }
            // Not the insertion order: the relationship's order is what must come back.
            owner.setValue([steps[2], steps[0], steps[1]], forKey: "steps")
            let tags = ["red", "blue"].map { name in
                let tag = ManagedObject(entity: model["Tag"]!, insertInto: writer)
                tag.setValue(name, forKey: "name")
                return tag
            }
            painting.setValue(Set(tags), forKey: "tags")
            photo.setValue(Set([tags[1]]), forKey: "tags")
            try writer.save()
            return painting.objectID.uriRepresentation
        }
        let written = try Data(contentsOf: url)
        #expect(written.starts(with: Data((type == .binary ? "bplist00" : "<?xml").utf8)))

        let reader = try atomicContext(type, model, at: url)
        let store = try #require(reader.persistentStoreCoordinator?.persistentStores.first)
        #expect(store.type == type)
        #expect(paintingURI.host == store.identifier, "the store keeps its UUID")
        try reader.performAndWait {
            let paintings = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Painting"))
            let painting = try #require(paintings.first)
            #expect(paintings.count == 1)
            #expect(painting.objectID.uriRepresentation == paintingURI, "object IDs survive reopening")
            #expect(painting.value(forKey: "int16") as? Int16 == -7)
            #expect(painting.value(forKey: "int32") as? Int32 == 70_000)
            #expect(painting.value(forKey: "int64") as? Int64 == Int64.max)
            #expect(painting.value(forKey: "decimal") as? Decimal == Decimal(string: "12345.678901234567890123"))
            #expect(painting.value(forKey: "double") as? Double == 0.1)
            #expect(painting.value(forKey: "float") as? Float == 2.5)
            #expect(painting.value(forKey: "string") as? String == "Mona <&> \"Lisa\"\r\n\ttab")
            #expect(painting.value(forKey: "flag") as? Bool == true)
            #expect(painting.value(forKey: "date") as? Date == when)
            #expect(painting.value(forKey: "binary") as? Data == Data([0, 1, 2, 255]))
            #expect(painting.value(forKey: "uuid") as? UUID == identifier)
            #expect(painting.value(forKey: "uri") as? URL == URL(string: "https://example.com/a?b=c&d=e"))
            #expect(painting.value(forKey: "archived") as? Data == Data("archived".utf8))
            #expect(painting.value(forKey: "note") as? String == "oil")
            #expect(painting.value(forKey: "scratch") == nil)
            let owner = try #require(painting.value(forKey: "owner") as? ManagedObject)
            #expect(owner.value(forKey: "name") as? String == "Ada")
            #expect((owner.value(forKey: "favorite") as? ManagedObject)?.entity.name == "Photo")
            let samples = try #require(owner.value(forKey: "samples") as? Set<ManagedObject>)
            #expect(Set(samples.map(\.entity.name)) == ["Painting", "Photo"])
            let steps = try #require(owner.value(forKey: "steps") as? OrderedSet<ManagedObject>)
            #expect(steps.map { $0.value(forKey: "label") as? String } == ["step 2", "step 0", "step 1"])
            let tags = try #require(painting.value(forKey: "tags") as? Set<ManagedObject>)
            #expect(Set(tags.map { $0.value(forKey: "name") as? String }) == ["red", "blue"])
            let blue = try #require(tags.first { $0.value(forKey: "name") as? String == "blue" })
            #expect((blue.value(forKey: "samples") as? Set<ManagedObject>)?.count == 2)
            let photo = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Photo")).first)
            #expect(photo.value(forKey: "note") as? Int32 == 3)
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Sample")) == 2)
            let request = FetchRequest<ManagedObject>(entityName: "Step")
            request.predicate = ObjectPredicate("label == %@", "step 0")
            #expect(try reader.fetch(request).count == 1, "predicates evaluate over the loaded graph")
        }
        // The uniqueness constraint holds over what was loaded.
        reader.performAndWait {
            let duplicate = ManagedObject(entity: model["Sample"]!, insertInto: reader)
            duplicate.setValue("Mona <&> \"Lisa\"\r\n\ttab", forKey: "string")
            #expect { try reader.save() } throws: { ($0 as? ManagedObjectError)?.code == .constraintConflict }
        }
        #expect(try Data(contentsOf: url) == written, "a refused save leaves the file as it was")
    }

    @Test("object IDs, text XML cannot hold, and every double survive reopening", arguments: types)
    func valuesThatNeedCare(type: PersistentStoreType) throws {
        let model = NoteModel.model
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        let texts = ["\u{1}control\u{0}", "emoji 🐕 and é", " spaced \n", "]]> & &amp;", ""]
        let ratios: [Double] = [.infinity, -.infinity, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.0 / 3.0]
        let writer = try atomicContext(type, model, at: url)
        try writer.performAndWait {
            var previous: ManagedObject?
            for (index, text) in texts.enumerated() {
                let note = ManagedObject(entity: model["Note"]!, insertInto: writer)
                note.setValue(text, forKey: "text")
                note.setValue(ratios[index], forKey: "ratio")
                note.setValue(Float(index) / 7, forKey: "small")
                note.setValue(Decimal(string: "-0.\(index)1"), forKey: "amount")
                if let previous {
                    try writer.obtainPermanentIDs(for: [previous])
                    note.setValue(previous.objectID, forKey: "link")
                }
                previous = note
            }
            try writer.save()
        }
        let reader = try atomicContext(type, model, at: url)
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Note")
            let notes = try reader.fetch(request)
            #expect(notes.count == texts.count)
            for note in notes {
                let text = try #require(note.value(forKey: "text") as? String)
                let index = try #require(texts.firstIndex(of: text))
                #expect(note.value(forKey: "ratio") as? Double == ratios[index])
                #expect((note.value(forKey: "ratio") as? Double)?.sign == ratios[index].sign)
                #expect(note.value(forKey: "small") as? Float == Float(index) / 7)
                #expect(note.value(forKey: "amount") as? Decimal == Decimal(string: "-0.\(index)1"))
                if index > 0 {
                    let link = try #require(note.value(forKey: "link") as? ManagedObjectID)
                    #expect(try reader.existingObject(with: link).value(forKey: "text") as? String == texts[index - 1])
                }
            }
        }
    }

    @Test("updates, reordering and deletes reach the file; numbers are never given out twice", arguments: types)
    func changesReachTheFile(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.\(type.rawValue)")
        let writer = try atomicContext(type, model, at: url)
        let ids = try writer.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: writer)
            let steps = (0..<3).map { number in
                let step = ManagedObject(entity: model["Step"]!, insertInto: writer)
                step.setValue("step \(number)", forKey: "label")
                return step
            }
            owner.setValue(steps, forKey: "steps")
            let sample = ManagedObject(entity: model["Sample"]!, insertInto: writer)
            let tags = ["red", "blue", "green"].map { name in
                let tag = ManagedObject(entity: model["Tag"]!, insertInto: writer)
                tag.setValue(name, forKey: "name")
                return tag
            }
            sample.setValue(Set(tags), forKey: "tags")
            try writer.save()

            owner.setValue([steps[1], steps[2], steps[0]], forKey: "steps")
            sample.setValue(Set([tags[0], tags[1]]), forKey: "tags")
            writer.delete(tags[1])
            writer.delete(tags[2])
            sample.setValue("renamed", forKey: "string")
            try writer.save()
            return (owner: owner.objectID.uriRepresentation, sample: sample.objectID.uriRepresentation,
                    deleted: tags[2].objectID.uriRepresentation)
        }
        let reader = try atomicContext(type, model, at: url)
        let coordinator = try #require(reader.persistentStoreCoordinator)
        try reader.performAndWait {
            let owner = try reader.existingObject(with: #require(coordinator.managedObjectID(forURIRepresentation: ids.owner)))
            let steps = try #require(owner.value(forKey: "steps") as? OrderedSet<ManagedObject>)
            #expect(steps.map { $0.value(forKey: "label") as? String } == ["step 1", "step 2", "step 0"])
            let sample = try reader.existingObject(with: #require(coordinator.managedObjectID(forURIRepresentation: ids.sample)))
            #expect(sample.value(forKey: "string") as? String == "renamed")
            let tags = try #require(sample.value(forKey: "tags") as? Set<ManagedObject>)
            #expect(tags.compactMap { $0.value(forKey: "name") as? String } == ["red"])
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 1)
            // The deleted last tag's number stays given out after reopening.
            let tag = ManagedObject(entity: model["Tag"]!, insertInto: reader)
            try reader.obtainPermanentIDs(for: [tag])
            #expect(tag.objectID.storeNumber == 4, "tags 1–3 were numbered before")
            #expect(tag.objectID.uriRepresentation != ids.deleted)
        }
    }

    @Test("a save stopped after writing its temporary file and before the rename leaves the last complete file", arguments: types)
    func interruptedSave(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.\(type.rawValue)")
        let writer = try atomicContext(type, model, at: url)
        let store = try #require(writer.persistentStoreCoordinator?.persistentStores.first as? AtomicStore)
        try writer.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: writer)
            owner.setValue("saved", forKey: "name")
            try writer.save()
        }
        let complete = try Data(contentsOf: url)
        struct Killed: Error {}
        let leftover = directory.file("leftover")
        store.beforeRename = { temporary in
            // Where a killed process stops: the new file is whole beside the old one.
            #expect(temporary.deletingLastPathComponent().standardizedFileURL == url.deletingLastPathComponent().standardizedFileURL)
            try FileManager.default.copyItem(at: temporary, to: leftover)
            throw Killed()
        }
        try writer.performAndWait {
            let owner = try #require(try writer.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).first)
            owner.setValue("not saved", forKey: "name")
            ManagedObject(entity: model["Tag"]!, insertInto: writer).setValue("not saved", forKey: "name")
            #expect(throws: Killed.self) { try writer.save() }
        }
        #expect(try Data(contentsOf: url) == complete, "the store file is the last complete save")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [url.lastPathComponent, "leftover"],
                "the failed save's temporary file is gone")
        // The store itself still holds the last complete save.
        let sibling = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: writer.persistentStoreCoordinator!)
        try sibling.performAndWait { () throws in
            #expect(try sibling.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).map { $0.value(forKey: "name") as? String } == ["saved"])
            #expect(try sibling.count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 0)
        }
        // A killed process leaves its temporary file behind: opening the store ignores it.
        try FileManager.default.moveItem(at: leftover, to: directory.file(AtomicStoreFile.temporaryPrefix(for: url) + "killed"))
        let reader = try atomicContext(type, model, at: url)
        try reader.performAndWait { () throws in
            #expect(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).map { $0.value(forKey: "name") as? String } == ["saved"])
            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 0)
        }
        // The interrupted save's file was whole: had the rename happened, it would have read.
        let interrupted = directory.file(AtomicStoreFile.temporaryPrefix(for: url) + "killed")
        let renamed = directory.file("Renamed.\(type.rawValue)")
        try FileManager.default.moveItem(at: interrupted, to: renamed)
        let later = try atomicContext(type, model, at: renamed)
        try later.performAndWait { () throws in
            #expect(try later.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).map { $0.value(forKey: "name") as? String } == ["not saved"])
        }
    }

    @Test("a damaged, cut short or foreign file is refused with an error naming it, and left unchanged", arguments: types)
    func damagedFile(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.\(type.rawValue)")
        let writer = try atomicContext(type, model, at: url)
        try writer.performAndWait {
            for name in ["a", "b", "c"] {
                ManagedObject(entity: model["Tag"]!, insertInto: writer).setValue(name, forKey: "name")
            }
            try writer.save()
        }
        let whole = try Data(contentsOf: url)
        var spoiled: [(String, Data)] = [
            ("cut in half", whole.prefix(whole.count / 2)),
            ("cut short by two bytes", whole.dropLast(2)),
            ("garbage", Data("not a store at all".utf8)),
        ]
        // A byte changed near the end: in the XML, the last </object>; in the binary property
        // list, its trailer's object count.
        var flipped = whole
        flipped[flipped.count - 20] ^= 0x5A
        spoiled.append(("a changed byte", flipped))
        let other = try Data(contentsOf: try {
            let otherURL = directory.file("Other")
            let context = try atomicContext(type == .binary ? .xml : .binary, model, at: otherURL)
            try context.performAndWait {
                _ = ManagedObject(entity: model["Tag"]!, insertInto: context)
                try context.save()
            }
            return otherURL
        }())
        spoiled.append(("the other atomic type's file", other))
        // An object number the graph could not make room for (it keeps objects in an array by
        // number): a damaged or hostile file, refused before anything is allocated.
        let hugeNumber = type == .xml
            ? Data(String(decoding: whole, as: UTF8.self).replacingOccurrences(of: "id=\"z3\"", with: "id=\"z9223372036854775807\"").utf8)
            : try PropertyListSerialization.data(fromPropertyList: {
                var root = try #require(try PropertyListSerialization.propertyList(from: whole, format: nil) as? [String: Any])
                var objects = try #require(root["objects"] as? [[String: Any]])
                objects[2]["number"] = Int64.max
                root["objects"] = objects
                return root
            }(), format: .binary, options: 0)
        #expect(hugeNumber != whole)
        spoiled.append(("a huge object number", hugeNumber))
        for (what, bytes) in spoiled {
            try bytes.write(to: url)
            #expect("\(what) is refused") { _ = try atomicContext(type, model, at: url) } throws: { error in
                guard let error = error as? ManagedObjectError else { return false }
                return error.code == .persistentStoreOpen && error.message.contains(url.path)
            }
            #expect(try Data(contentsOf: url) == bytes, "\(what): the file changed")
        }
    }

    @Test("the XML store writes the elements of Core Data's XML store; a file Core Data wrote is refused, naming it")
    func xmlShape() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Gallery.xml")
        let writer = try atomicContext(.xml, model, at: url)
        try writer.performAndWait {
            let owner = ManagedObject(entity: model["Owner"]!, insertInto: writer)
            let tag = ManagedObject(entity: model["Tag"]!, insertInto: writer)
            tag.setValue("red", forKey: "name")
            let painting = ManagedObject(entity: model["Painting"]!, insertInto: writer)
            painting.setValue(Int32(7), forKey: "int32")
            painting.setValue(true, forKey: "flag")
            painting.setValue(owner, forKey: "owner")
            painting.setValue(Set([tag]), forKey: "tags")
            try writer.save()
        }
        let xml = try String(contentsOf: url, encoding: .utf8)
        // Core Data's element and type names, as a real XML store file shows them.
        for expected in [
            "<database>", "<databaseInfo>", "<format>ManagedObjects.XMLStore</format>", "<formatVersion>1</formatVersion>",
            "<object type=\"Tag\" id=\"z1\">", "<attribute name=\"name\" type=\"string\">red</attribute>",
            "<object type=\"Painting\" id=\"z1\">", "<attribute name=\"int32\" type=\"int32\">7</attribute>",
            "<attribute name=\"flag\" type=\"bool\">1</attribute>",
            "<relationship name=\"owner\" destination=\"Owner\" idrefs=\"z1\"></relationship>",
            "<relationship name=\"tags\" destination=\"Tag\" idrefs=\"z1\"></relationship>",
            "<relationship name=\"samples\" destination=\"Sample\" idrefs=\"z1\"></relationship>",
        ] {
            #expect(xml.contains(expected), "\(expected) in\n\(xml)")
        }
        // The layout of an XML store Core Data wrote (its <databaseInfo> holds a <version>).
        let coreData = """
            <?xml version="1.0"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
                <databaseInfo>
                    <version>134481920</version>
                    <UUID>0C4B5D53-1B0E-4E39-9C55-2D6A1A9A0A11</UUID>
                    <nextObjectID>101</nextObjectID>
                    <metadata></metadata>
                </databaseInfo>
                <object type="TAG" id="z101">
                    <attribute name="name" type="string">red</attribute>
                    <relationship name="samples" type="0/0" destination="SAMPLE"></relationship>
                </object>
            </database>
            """
        let foreign = directory.file("CoreData.xml")
        try Data(coreData.utf8).write(to: foreign)
        #expect { try atomicContext(.xml, model, at: foreign) } throws: { error in
            guard let error = error as? ManagedObjectError else { return false }
            return error.code == .persistentStoreOpen && error.message.contains(foreign.path)
                && error.message.contains("written by Core Data (XML store version 134481920)")
        }
        #expect(try String(contentsOf: foreign, encoding: .utf8) == coreData)
    }

    @Test("a file written with another model version is refused with 134100 and left unchanged", arguments: types)
    func otherModelVersion(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        let writer = try atomicContext(type, NoteModel.model, at: url)
        try writer.performAndWait {
            ManagedObject(entity: NoteModel.model["Note"]!, insertInto: writer).setValue("kept", forKey: "text")
            try writer.save()
        }
        let before = try Data(contentsOf: url)
        var changed = NoteModel.model.model
        changed.entities[0].attributes.append(Attribute(name: "added", type: .string, isOptional: true))
        #expect { try atomicContext(type, ManagedObjectModel(changed), at: url) } throws: { error in
            guard let error = error as? ManagedObjectError else { return false }
            return error.code == .persistentStoreIncompatibleVersionHash && error.message.contains(url.path) && error.message.contains("Note")
        }
        #expect(try Data(contentsOf: url) == before)
        // The version that wrote it still opens it, and its metadata says what it is.
        let store = try AtomicStore(type: type, model: NoteModel.model, url: url)
        let metadata = store.metadata
        #expect(metadata["NSStoreType"] as? String == type.rawValue)
        #expect(metadata["NSStoreUUID"] as? String == store.identifier)
        #expect(NoteModel.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    @Test("metadata an app sets is written with the next save and read back", arguments: types)
    func appMetadata(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        let store = try AtomicStore(type: type, model: NoteModel.model, url: url)
        store.metadata["seeded"] = "2026-11-28"
        try store.save(StoreChangeSet())
        let reopened = try AtomicStore(type: type, model: NoteModel.model, url: url)
        #expect(reopened.metadata["seeded"] as? String == "2026-11-28")
        #expect(reopened.metadata["NSStoreUUID"] as? String == store.identifier)
    }

    @Test("metadataForPersistentStore and setMetadata(_:forPersistentStoreOfType:at:) read and write a binary or XML file's metadata; its objects stay",
          arguments: types)
    func fileMetadata(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        let context = try atomicContext(type, NoteModel.model, at: url)
        try context.performAndWait {
            let note = ManagedObject(entity: NoteModel.model["Note"]!, insertInto: context)
            note.setValue("a < b & \"c\"", forKey: "text")
            try context.save()
        }
        let identifier = try #require(context.persistentStoreCoordinator.persistentStores.first).identifier
        let read = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        #expect(read["NSStoreUUID"] as? String == identifier)
        #expect(read["NSStoreType"] as? String == type.rawValue)
        #expect(read["NSStoreModelVersionHashes"] as? [String: Data] == NoteModel.model.entityVersionHashesByName)

        var metadata = read
        metadata["com.example.seeded"] = "</metadata> & <x>"
        metadata["com.example.counts"] = ["entries": 3] as [String: Any]
        try PersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: type, at: url)
        let written = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        #expect(written["com.example.seeded"] as? String == "</metadata> & <x>")
        #expect((written["com.example.counts"] as? [String: Any])?["entries"] as? Int == 3)
        #expect(written["NSStoreUUID"] as? String == identifier)

        // Without the model's keys, a UUID or type of its own: the store's stay, and it opens.
        try PersistentStoreCoordinator.setMetadata(
            ["only": 1, "NSStoreUUID": "not-the-store", "NSStoreType": "SQLite"], forPersistentStoreOfType: type, at: url)
        let reopened = try AtomicStore(type: type, model: NoteModel.model, url: url)
        #expect(reopened.identifier == identifier)
        #expect(reopened.metadata["only"] as? Int == 1)
        #expect(reopened.metadata["com.example.seeded"] == nil)
        #expect(reopened.metadata["NSStoreType"] as? String == type.rawValue)
        let reopenedContext = try atomicContext(type, NoteModel.model, at: url)
        let texts = try reopenedContext.performAndWait {
            try reopenedContext.fetch(FetchRequest<ManagedObject>(entityName: "Note")).map { $0.value(forKey: "text") as? String }
        }
        #expect(texts == ["a < b & \"c\""])

        // Bad input: not a property list (134070), the other atomic type (134080), no file (134080); the file unchanged.
        let before = try Data(contentsOf: url)
        let notPlist = try #require(throws: ManagedObjectError.self) {
            try PersistentStoreCoordinator.setMetadata(["bad": NSObject()], forPersistentStoreOfType: type, at: url)
        }
        #expect(notPlist.code == .persistentStoreOperation)
        #expect("\(notPlist)".contains("bad"))
        let other: PersistentStoreType = type == .binary ? .xml : .binary
        let wrongType = try #require(throws: ManagedObjectError.self) {
            try PersistentStoreCoordinator.setMetadata(["key": 1], forPersistentStoreOfType: other, at: url)
        }
        #expect(wrongType.code == .persistentStoreOpen)
        #expect("\(wrongType)".contains(url.path))
        #expect(try Data(contentsOf: url) == before)
        let missing = try #require(throws: ManagedObjectError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: directory.file("None.\(type.rawValue)"))
        }
        #expect(missing.code == .persistentStoreOpen)
    }

    @Test("a container loads binary and XML stores from their descriptions", arguments: types)
    func containerDescription(type: PersistentStoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Notes.\(type.rawValue)")
        for run in 0..<2 {
            let container = PersistentContainer(name: "Notes", managedObjectModel: NoteModel.model)
            container.persistentStoreDescriptions = [PersistentStoreDescription(type: type, url: url)]
            try container.loadPersistentStores()
            let context = container.newBackgroundContext()
            try context.performAndWait {
                #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Note")) == run)
                _ = ManagedObject(entity: NoteModel.model["Note"]!, insertInto: context)
                try context.save()
            }
        }
    }
}

@Suite("Binary and XML stores: a process killed while saving")
struct AtomicStoreCrashTests {
    @Test("after each of at least 20 kills (until 10 landed during saves) the store opens and holds exactly whole saves, every one that returned",
          .timeLimit(.minutes(5)), arguments: AtomicStoreTests.types)
    func killedWhileSaving(type: PersistentStoreType) throws {
        try #require(FileManager.default.isExecutableFile(atPath: SQLiteCrashSafetyTests.saveLoopExecutable.path),
                     "build StoreSaveLoop first (swift build)")
        let directory = try TemporaryDirectory()
        let store = directory.file("SaveLoop.\(type.rawValue)")
        let model = SaveLoopModel.managedObjectModel
        var lastKept: Int64 = 0
        var killsDuringSaves = 0
        var window = KillWindow()
        var run = 0
        // An atomic save rewrites the whole file, so on a loaded machine a kill often lands
        // before the first save returns: go on (to at most 80 kills) until 10 landed during saves.
        while run < 20 || (killsDuringSaves < 10 && run < 80) {
            run += 1
            let output = try SQLiteCrashSafetyTests.runSaveLoop(
                ["atomic", type.rawValue, store.path, String(lastKept + 1)], killAfter: window.nextDelay())
            var lines = output.components(separatedBy: "\n")
            lines.removeLast()  // only whole lines: a report cut short by the kill was never made
            try #require(lines.first == "open", "run \(run): the save loop did not open the store: \(lines)")
            let reported = Set(lines.dropFirst().compactMap { Int64($0) })
            if !reported.isEmpty { killsDuringSaves += 1 }
            window.record(savesReturned: !reported.isEmpty)

            let context = try atomicContext(type, model, at: store)
            let batches = try context.performAndWait {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Entry")).reduce(into: [Int64: Int]()) { counts, entry in
                    counts[entry.value(forKey: "batch") as? Int64 ?? -1, default: 0] += 1
                }
            }
            #expect(batches.values.allSatisfy { $0 == SaveLoopModel.batchSize }, "run \(run): a batch is half saved: \(batches)")
            let kept = Set(batches.keys.filter { $0 > lastKept })
            #expect(reported.subtracting(kept).isEmpty, "run \(run): saves that returned are lost: \(reported.subtracting(kept).sorted())")
            let lastReported = reported.max() ?? lastKept
            #expect(kept.subtracting(reported).isSubset(of: [lastReported + 1]), "run \(run): kept saves that never ran")
            lastKept = batches.keys.max() ?? lastKept
        }
        #expect(killsDuringSaves >= 10, "the kills must land during saves: \(killsDuringSaves) of \(run) did")
    }
}
