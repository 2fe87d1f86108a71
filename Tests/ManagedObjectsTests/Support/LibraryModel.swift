// Hand-written in the shape ManagedGen generates, for a model that exercises what the seeds'
// models do not: an abstract parent with sub-entities, Deny and No Action delete rules,
// many-to-many and one-to-one relationships, validation bounds, count limits and defaults.
import DataModel
import Foundation
import ManagedObjects

public enum LibraryModel {
    /// 2001-01-01 plus this many seconds: 2000-12-31 is too soon, 2101 too late.
    static let earliestPublication: Double = 0
    static let latestPublication: Double = 100 * 365 * 86_400

    public static let model = Model(entities: [
        Entity(name: "Media", representedClassName: "Media", isAbstract: true, codeGeneration: .class, attributes: [
            Attribute(name: "title", type: .string, minValueString: "1", maxValueString: "20"),
        ]),
        Entity(name: "Book", representedClassName: "Book", parentEntity: "Media", codeGeneration: .class, attributes: [
            Attribute(name: "isbn", type: .string, isOptional: true, regularExpressionString: "[0-9]{13}"),
            Attribute(name: "pages", type: .integer32, isOptional: true, usesScalarValueType: false,
                      minValueString: "1", maxValueString: "5000"),
            Attribute(name: "published", type: .date, isOptional: true,
                      minDateTimeInterval: earliestPublication, maxDateTimeInterval: latestPublication),
        ], relationships: [
            Relationship(name: "library", destinationEntity: "Library", inverseName: "books",
                         inverseEntity: "Library", isOptional: true),
            Relationship(name: "authors", destinationEntity: "Author", inverseName: "books",
                         inverseEntity: "Author", isToMany: true, isOptional: true),
        ]),
        Entity(name: "Album", representedClassName: "Album", parentEntity: "Media", codeGeneration: .class, attributes: [
            Attribute(name: "trackCount", type: .integer16, usesScalarValueType: true, defaultValueString: "NO"),
        ], relationships: [
            Relationship(name: "playlist", destinationEntity: "Playlist", inverseName: "albums",
                         inverseEntity: "Playlist", isOptional: true),
        ]),
        Entity(name: "Library", representedClassName: "Library", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "books", destinationEntity: "Book", inverseName: "library",
                         inverseEntity: "Book", isToMany: true, isOptional: true, deleteRule: .deny),
            Relationship(name: "shelves", destinationEntity: "Shelf", inverseName: "library",
                         inverseEntity: "Shelf", isToMany: true, isOptional: true, deleteRule: .noAction),
        ]),
        Entity(name: "Shelf", representedClassName: "Shelf", codeGeneration: .class, attributes: [
            Attribute(name: "label", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "library", destinationEntity: "Library", inverseName: "shelves",
                         inverseEntity: "Library", isOptional: true),
        ]),
        Entity(name: "Author", representedClassName: "Author", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "books", destinationEntity: "Book", inverseName: "authors",
                         inverseEntity: "Book", isToMany: true, isOptional: true),
            Relationship(name: "passport", destinationEntity: "Passport", inverseName: "holder",
                         inverseEntity: "Passport", isOptional: true, deleteRule: .cascade),
        ]),
        Entity(name: "Passport", representedClassName: "Passport", codeGeneration: .class, attributes: [
            Attribute(name: "number", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "holder", destinationEntity: "Author", inverseName: "passport",
                         inverseEntity: "Author"),
        ]),
        Entity(name: "Playlist", representedClassName: "Playlist", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "albums", destinationEntity: "Album", inverseName: "playlist",
                         inverseEntity: "Album", isToMany: true, isOptional: false, minCount: 2, maxCount: 3),
        ]),
        // Defaults as real models write them, mismatches included.
        Entity(name: "Settings", representedClassName: "Settings", codeGeneration: .class, attributes: [
            Attribute(name: "flag", type: .boolean, isOptional: true, defaultValueString: "YES"),
            Attribute(name: "zeroFlag", type: .boolean, isOptional: true, defaultValueString: "0"),
            Attribute(name: "count", type: .integer16, isOptional: true, defaultValueString: "NO"),
            Attribute(name: "level", type: .integer64, isOptional: true, defaultValueString: "42"),
            Attribute(name: "ratio", type: .double, isOptional: true, defaultValueString: "0.5"),
            Attribute(name: "scale", type: .float, isOptional: true, defaultValueString: "2"),
            Attribute(name: "price", type: .decimal, isOptional: true, defaultValueString: "12.5"),
            Attribute(name: "title", type: .string, isOptional: true, defaultValueString: "Untitled"),
            Attribute(name: "identifier", type: .uuid, isOptional: true, defaultValueString: "not-a-uuid"),
            Attribute(name: "fixedIdentifier", type: .uuid, isOptional: true,
                      defaultValueString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            Attribute(name: "homepage", type: .uri, isOptional: true, defaultValueString: "https://example.com"),
            Attribute(name: "since", type: .date, isOptional: true, defaultDateTimeInterval: 86_400),
            Attribute(name: "nothing", type: .string, isOptional: true),
        ]),
    ])

    public static let managedObjectModel = ManagedObjectModel(model, classes: [
        "Media": Media.self, "Book": Book.self, "Album": Album.self, "Library": Library.self,
        "Shelf": Shelf.self, "Author": Author.self, "Passport": Passport.self, "Playlist": Playlist.self,
    ])
}

open class Media: ManagedObject {
    open override class var entityName: String { "Media" }

    public class func fetchRequest() -> FetchRequest<Media> {
        FetchRequest<Media>(entityName: "Media")
    }
}

extension Media {
    public var title: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }
}

public final class Book: Media {
    public override class var entityName: String { "Book" }
}

extension Book {
    public var isbn: String? {
        get { attributeValue(at: 1) }
        set { setAttributeValue(newValue, at: 1) }
    }

    // Non-scalar number: Xcode parity `NSNumber?`, converted by the generated getter/setter.
    public var pages: NSNumber? {
        get { (attributeValue(at: 2) as Int32?).map { NSNumber(value: $0) } }
        set { setAttributeValue(newValue?.int32Value, at: 2) }
    }

    public var published: Date? {
        get { attributeValue(at: 3) }
        set { setAttributeValue(newValue, at: 3) }
    }

    public var library: Library? {
        get { toOneRelationship(at: 4) }
        set { setToOneRelationship(newValue, at: 4) }
    }

    public var authors: Set<Author> {
        get { relationship(at: 5) }
        set { setRelationship(newValue, at: 5) }
    }
}

public final class Album: Media {
    public override class var entityName: String { "Album" }
}

extension Album {
    public var trackCount: Int16 {
        get { attributeValue(at: 1) ?? 0 }
        set { setAttributeValue(newValue, at: 1) }
    }

    public var playlist: Playlist? {
        get { toOneRelationship(at: 2) }
        set { setToOneRelationship(newValue, at: 2) }
    }
}

public final class Library: ManagedObject {
    public override class var entityName: String { "Library" }
}

extension Library {
    public var name: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var books: Set<Book> {
        get { relationship(at: 1) }
        set { setRelationship(newValue, at: 1) }
    }

    public var shelves: Set<Shelf> {
        get { relationship(at: 2) }
        set { setRelationship(newValue, at: 2) }
    }

    public func addToBooks(_ value: Book) { addToRelationship([value], at: 1) }
    public func removeFromBooks(_ value: Book) { removeFromRelationship([value], at: 1) }
    public func addToShelves(_ value: Shelf) { addToRelationship([value], at: 2) }
}

public final class Shelf: ManagedObject {
    public override class var entityName: String { "Shelf" }
}

extension Shelf {
    public var label: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var library: Library? {
        get { toOneRelationship(at: 1) }
        set { setToOneRelationship(newValue, at: 1) }
    }
}

public final class Author: ManagedObject {
    public override class var entityName: String { "Author" }
}

extension Author {
    public var name: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var books: Set<Book> {
        get { relationship(at: 1) }
        set { setRelationship(newValue, at: 1) }
    }

    public var passport: Passport? {
        get { toOneRelationship(at: 2) }
        set { setToOneRelationship(newValue, at: 2) }
    }

    public func addToBooks(_ value: Book) { addToRelationship([value], at: 1) }
    public func removeFromBooks(_ value: Book) { removeFromRelationship([value], at: 1) }
}

public final class Passport: ManagedObject {
    public override class var entityName: String { "Passport" }
}

extension Passport {
    public var number: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var holder: Author? {
        get { toOneRelationship(at: 1) }
        set { setToOneRelationship(newValue, at: 1) }
    }
}

public final class Playlist: ManagedObject {
    public override class var entityName: String { "Playlist" }
}

extension Playlist {
    public var name: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var albums: Set<Album> {
        get { relationship(at: 1) }
        set { setRelationship(newValue, at: 1) }
    }
}
