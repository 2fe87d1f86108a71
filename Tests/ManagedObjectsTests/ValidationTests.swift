import DataModel
import Foundation
import Testing
@testable import ManagedObjects

@Suite("Validation at save")
struct ValidationTests {
    /// Saves a context holding one valid book plus whatever `prepare` adds, and returns the
    /// error, checking that nothing reached the store.
    private func saveError(
        _ prepare: (ManagedObjectContext) throws -> Void
    ) throws -> ManagedObjectError {
        let container = try makeContainer(LibraryModel.managedObjectModel)
        let context = container.newBackgroundContext()
        let error = try context.performAndWait {
            let valid = Book(context: context)
            valid.title = "Valid"
            try prepare(context)
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(context.hasChanges, "a failed save leaves the changes in the context")
            #expect(context.insertedObjects.contains(valid))
            #expect(valid.objectID.isTemporaryID)
            return error
        }
        let other = container.newBackgroundContext()
        let stored = try other.performAndWait { try other.count(for: FetchRequest<Media>(entityName: "Media")) }
        #expect(stored == 0, "nothing was saved")
        return error
    }

    private func book(_ context: ManagedObjectContext, _ configure: (Book) -> Void) {
        let book = Book(context: context)
        book.title = "Book"
        configure(book)
    }

    @Test("missing mandatory attribute: 1570")
    func mandatoryAttribute() throws {
        let error = try saveError { context in book(context) { $0.title = nil } }
        #expect(error.code.rawValue == 1570)
        #expect(error.entityName == "Book" && error.key == "title")
    }

    @Test("missing mandatory to-one: 1570")
    func mandatoryToOne() throws {
        let error = try saveError { context in _ = Passport(context: context) }
        #expect(error.code == .missingMandatoryProperty && error.key == "holder")
    }

    @Test("numbers: too large 1610, too small 1620")
    func numbers() throws {
        #expect(try saveError { context in book(context) { $0.pages = 5001 } }.code.rawValue == 1610)
        #expect(try saveError { context in book(context) { $0.pages = 0 } }.code.rawValue == 1620)
    }

    @Test("dates: too late 1630, too soon 1640")
    func dates() throws {
        let late = Date(timeIntervalSinceReferenceDate: LibraryModel.latestPublication + 1)
        let soon = Date(timeIntervalSinceReferenceDate: LibraryModel.earliestPublication - 1)
        #expect(try saveError { context in book(context) { $0.published = late } }.code.rawValue == 1630)
        #expect(try saveError { context in book(context) { $0.published = soon } }.code.rawValue == 1640)
    }

    @Test("strings: too long 1660, too short 1670, pattern 1680")
    func strings() throws {
        let long = try saveError { context in book(context) { $0.title = String(repeating: "x", count: 21) } }
        #expect(long.code.rawValue == 1660 && long.key == "title")
        #expect(try saveError { context in book(context) { $0.title = "" } }.code.rawValue == 1670)
        let pattern = try saveError { context in book(context) { $0.isbn = "978-0441013593" } }
        #expect(pattern.code.rawValue == 1680 && pattern.key == "isbn")
    }

    @Test("to-many counts: lacks minimum 1580, exceeds maximum 1590")
    func counts() throws {
        func playlist(_ albums: Int) -> (ManagedObjectContext) -> Void {
            { context in
                let playlist = Playlist(context: context)
                for index in 0..<albums {
                    let album = Album(context: context)
                    album.title = "Album \(index)"
                    album.playlist = playlist
                }
            }
        }
        #expect(try saveError(playlist(1)).code.rawValue == 1580)
        #expect(try saveError(playlist(0)).code.rawValue == 1580)
        #expect(try saveError(playlist(4)).code.rawValue == 1590)
    }

    /// Core Data counts a to-many's members against its declared `minCount` and `maxCount` only:
    /// a required (non-optional) to-many without `minCount` saves empty (a real app's store has
    /// 26 such relationships empty), one with `minCount` does not (1580), and `maxCount` holds
    /// whether or not the relationship is optional.
    @Test("a required to-many is held to its declared minimum: without minCount it saves empty",
          arguments: StoreKind.allCases)
    func requiredToManyCountsAgainstItsDeclaredMinimum(_ kind: StoreKind) throws {
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "Folder", attributes: [Attribute(name: "name", type: .string, isOptional: true)], relationships: [
                Relationship(name: "files", destinationEntity: "File", inverseName: "folder", inverseEntity: "File",
                             isToMany: true, isOptional: false),
                Relationship(name: "pinned", destinationEntity: "File", inverseName: "pinnedIn", inverseEntity: "File",
                             isToMany: true, isOptional: false, minCount: 1),
                Relationship(name: "recent", destinationEntity: "File", inverseName: "recentIn", inverseEntity: "File",
                             isToMany: true, isOptional: true, maxCount: 1),
            ]),
            Entity(name: "File", relationships: [
                Relationship(name: "folder", destinationEntity: "Folder", inverseName: "files", inverseEntity: "Folder",
                             isOptional: true),
                Relationship(name: "pinnedIn", destinationEntity: "Folder", inverseName: "pinned", inverseEntity: "Folder",
                             isOptional: true),
                Relationship(name: "recentIn", destinationEntity: "Folder", inverseName: "recent", inverseEntity: "Folder",
                             isOptional: true),
            ]),
        ]))
        try withContext(model, kind: kind) { context in
            let folder = ManagedObject(entity: try #require(model["Folder"]), insertInto: context)
            // `files` is required, has no minCount and is empty; `pinned` requires one.
            let lacking = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(lacking.code == .relationshipLacksMinimumCount && lacking.key == "pinned", "\(kind)")
            let file = ManagedObject(entity: try #require(model["File"]), insertInto: context)
            file.setValue(folder, forKey: "pinnedIn")
            try context.save()
            #expect((folder.value(forKey: "files") as? Set<ManagedObject>)?.isEmpty == true)
            // The maximum of an optional to-many holds too.
            let other = ManagedObject(entity: try #require(model["File"]), insertInto: context)
            file.setValue(folder, forKey: "recentIn")
            other.setValue(folder, forKey: "recentIn")
            let exceeding = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(exceeding.code == .relationshipExceedsMaximumCount && exceeding.key == "recent", "\(kind)")
        }
    }

    @Test("a value of the wrong type: 1550")
    func wrongType() throws {
        let error = try saveError { context in book(context) { $0.setPrimitiveValue(42, forKey: "title") } }
        #expect(error.code.rawValue == 1550)
    }

    @Test("validation reads each value's type where it lies: the type it was stored as, nil for no value")
    func storedTypesReadInPlace() throws {
        final class Base {}
        final class Box<Value> { let value: Value; init(_ value: Value) { self.value = value } }
        let context = try makeContainer(LibraryModel.managedObjectModel).newBackgroundContext()
        let base = Base()
        let values: [Any?] = [
            nil, "short", String(repeating: "long ", count: 20), Int64(7), Int16(3), 2.5, true,
            Date(timeIntervalSinceReferenceDate: 0), Data([1, 2, 3]), UUID(), Decimal(12.5),
            URL(string: "https://example.com")!, Box(1), base, Optional<Int>.none as Any, [1, 2],
        ]
        context.performAndWait {
            let book = Book(context: context)
            let index = book.entity.properties.first { $0.name == "title" }!.index
            for value in values {
                book.values[index] = value
                let read = book.attributeStorageType(at: index)
                #expect(read.map(ObjectIdentifier.init) == value.map { ObjectIdentifier(type(of: $0)) },
                        "\(String(describing: value)): read \(String(describing: read))")
            }
        }
    }

    @Test("several problems: 1560 with each one in detailedErrors")
    func multiple() throws {
        let error = try saveError { context in
            book(context) {
                $0.title = nil
                $0.pages = 9999
            }
            _ = Passport(context: context)
        }
        #expect(error.code.rawValue == 1560)
        #expect(Set(error.detailedErrors.map(\.code.rawValue)) == [1570, 1610])
        #expect(error.detailedErrors.count == 3)
        #expect(error.description.contains("Book.title is required"))
    }

    @Test("valid objects save: bounds are inclusive, counts within limits")
    func validSaves() throws {
        try withContext(LibraryModel.managedObjectModel) { (context) throws in
            let book = Book(context: context)
            book.title = String(repeating: "x", count: 20)
            book.pages = 5000
            book.isbn = "9780441013593"
            book.published = Date(timeIntervalSinceReferenceDate: LibraryModel.latestPublication)
            let playlist = Playlist(context: context)
            for index in 0..<3 {
                let album = Album(context: context)
                album.title = "Album \(index)"
                album.playlist = playlist
            }
            try context.save()
            #expect(!context.hasChanges)
        }
    }
}
