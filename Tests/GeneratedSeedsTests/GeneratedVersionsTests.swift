// Models/Notes.xcdatamodeld has two versions; the generated `NotesModel.versions` carries both as
// Swift values, so a store written with the first migrates with no model file at hand.
import Foundation
import ManagedObjects
import Testing

@Suite struct GeneratedVersionsTests {
    @Test func theGeneratedModelCarriesEveryVersionOldestFirst() throws {
        #expect(NotesModel.versions.versions.map(\.name) == ["Notes", "Notes 2"])
        #expect(NotesModel.versions.currentVersionName == "Notes 2")
        #expect(NotesModel.versions.current === NotesModel.managedObjectModel)
        let first = try #require(NotesModel.versions.version(named: "Notes"))
        #expect(first["Note"]?.attribute(named: "body") != nil)
        #expect(first["Tag"] == nil)
    }

    @Test func aStoreOfTheFirstVersionMigratesThroughTheGeneratedVersions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("versions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Notes.sqlite")

        // An app of the first version wrote this store.
        let first = try #require(NotesModel.versions.version(named: "Notes"))
        let old = PersistentContainer(name: "Notes", managedObjectModel: first)
        old.persistentStoreDescriptions = [PersistentStoreDescription(type: .sqlite, url: url)]
        try old.loadPersistentStores()
        try old.viewContext.performAndWait {
            for number in 1...3 {
                let note = ManagedObject(entity: first["Note"]!, insertInto: old.viewContext)
                note.setValue("note \(number)", forKey: "title")
                note.setValue("body \(number)", forKey: "body")
            }
            try old.viewContext.save()
        }

        // Without the versions, the current model refuses the store (Core Data's 134100)…
        let refused = PersistentContainer(name: "Notes", managedObjectModel: NotesModel.managedObjectModel)
        refused.persistentStoreDescriptions = [PersistentStoreDescription(type: .sqlite, url: url)]
        let error = try #require(throws: ManagedObjectError.self) { try refused.loadPersistentStores() }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)

        // …with them it migrates: `body` renamed to `text`, `stars` added with its default.
        let current = PersistentContainer(name: "Notes", managedObjectModel: NotesModel.managedObjectModel)
        var description = PersistentStoreDescription(type: .sqlite, url: url)
        description.modelVersions = NotesModel.versions
        current.persistentStoreDescriptions = [description]
        try current.loadPersistentStores()
        try current.viewContext.performAndWait {
            let notes = try Note.fetch(sortedBy: [ObjectSortDescriptor(key: Note.Keys.title, ascending: true)], in: current.viewContext)
            #expect(notes.map(\.title) == ["note 1", "note 2", "note 3"])
            #expect(notes.map(\.text) == ["body 1", "body 2", "body 3"])
            #expect(notes.allSatisfy { $0.stars == 0 && $0.tags.isEmpty })
            let tag = Tag(context: current.viewContext)
            tag.name = "migrated"
            notes[0].addToTags(tag)
            try current.viewContext.save()
        }
    }
}
