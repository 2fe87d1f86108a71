import DataModel
import Foundation
import Testing
@testable import ManagedObjects

@Suite("ManagedObjectModel")
struct ModelTests {
    @Test("property index is the position in Model.storedProperties(of:)")
    func propertyIndexes() throws {
        let model = LibraryModel.managedObjectModel
        for entity in model.entities {
            let stored = model.model.storedProperties(of: entity.entity).map(\.name)
            #expect(entity.properties.map(\.name) == stored)
            #expect(entity.properties.map(\.index) == Array(stored.indices))
        }
        let book = try #require(model["Book"])
        #expect(book.properties.map(\.name) == ["title", "isbn", "pages", "published", "library", "authors"])
        #expect(book.propertiesByName["authors"]?.index == 5)
        #expect(book[0].name == "title")
        #expect(book.attribute(named: "pages")?.type == .integer32)
        #expect(book.relationship(named: "title") == nil)
    }

    @Test("inheritance: superentity, subentities, classes")
    func inheritance() throws {
        let model = LibraryModel.managedObjectModel
        let media = try #require(model["Media"])
        let book = try #require(model["Book"])
        let album = try #require(model["Album"])
        #expect(book.superentity === media)
        #expect(media.subentities.map(\.name) == ["Book", "Album"])
        #expect(media.selfAndDescendants.map(\.name) == ["Media", "Book", "Album"])
        #expect(book.isKind(of: media) && !media.isKind(of: book))
        #expect(album.rootEntity === media)
        #expect(book.managedObjectClass == Book.self)
        #expect(media.isAbstract)
        #expect(model.entity(for: Album.self) === album)
    }

    @Test("inverses and destinations are resolved, on inherited relationships too")
    func inverses() throws {
        let model = TwitterModel.managedObjectModel
        let tweeter = try #require(model["Tweet"]?.relationship(named: "tweeter"))
        let tweets = try #require(model["TwitterUser"]?.relationship(named: "tweets"))
        #expect(tweeter.destinationEntity === model["TwitterUser"])
        #expect(tweeter.inverseRelationship === tweets)
        #expect(tweets.inverseRelationship === tweeter)
        #expect(tweets.isToMany && !tweeter.isToMany)
        #expect(tweets.deleteRule == .cascade)
        #expect(tweeter.entity === model["Tweet"])

        let library = LibraryModel.managedObjectModel
        let playlistAlbums = try #require(library["Playlist"]?.relationship(named: "albums"))
        #expect(playlistAlbums.inverseRelationship?.name == "playlist")
        #expect(playlistAlbums.inverseRelationship?.index == 2)
    }

    @Test("an entity without a registered class uses ManagedObject")
    func unregisteredClass() throws {
        let model = ManagedObjectModel(TwitterModel.model)
        let context = try makeContainer(model).newBackgroundContext()
        context.performAndWait {
            let tweet = ManagedObject(entity: model["Tweet"]!, insertInto: context)
            #expect(type(of: tweet) == ManagedObject.self)
            tweet.setValue("plain", forKey: "text")
            #expect(tweet.value(forKey: "text") as? String == "plain")
        }
    }

    @Test("defaults are parsed per attribute type, tolerating real-world mismatches")
    func defaults() throws {
        let settings = try #require(LibraryModel.managedObjectModel["Settings"])
        func value(_ name: String) -> Any? { settings.attribute(named: name)?.defaultValue }
        #expect(value("flag") as? Bool == true)
        #expect(value("zeroFlag") as? Bool == false)
        #expect(value("count") as? Int16 == 0)
        #expect(value("level") as? Int64 == 42)
        #expect(value("ratio") as? Double == 0.5)
        #expect(value("scale") as? Float == 2)
        #expect(value("price") as? Decimal == Decimal(string: "12.5"))
        #expect(value("title") as? String == "Untitled")
        #expect(value("identifier") == nil)
        #expect(value("fixedIdentifier") as? UUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(value("homepage") as? URL == URL(string: "https://example.com"))
        #expect(value("since") as? Date == Date(timeIntervalSinceReferenceDate: 86_400))
        #expect(value("nothing") == nil)
        #expect(LibraryModel.managedObjectModel["Album"]?.attribute(named: "trackCount")?.defaultValue as? Int16 == 0)
    }

    /// The same inputs as the generator's `defaultsAreReadAsTheRuntimeReadsThem`: both read
    /// `Attribute.parsedDefault`, so a wrapper's fallback is the value a new object gets.
    @Test("tricky defaults are read as the generated getters read them")
    func trickyDefaults() throws {
        let texts: [(String, AttributeType, String)] = [
            ("wholeAsDecimal", .integer16, "1.0"), ("yesOnInteger", .integer32, "YES"),
            ("zeroOnBoolean", .boolean, "0"), ("junkUUID", .uuid, "junk"), ("tooBig", .integer16, "40000"),
            ("padded", .integer64, " 7\n"), ("noOnDecimal", .decimal, "NO"), ("padText", .string, " a "),
        ]
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "T", attributes: texts.map { Attribute(name: $0.0, type: $0.1, defaultValueString: $0.2) }),
        ]))
        let entity = try #require(model["T"])
        func value(_ name: String) -> Any? { entity.attribute(named: name)?.defaultValue }
        #expect(value("wholeAsDecimal") as? Int16 == 1)
        #expect(value("yesOnInteger") as? Int32 == 1)
        #expect(value("zeroOnBoolean") as? Bool == false)
        #expect(value("junkUUID") == nil)
        #expect(value("tooBig") == nil)
        #expect(value("padded") as? Int64 == 7)
        #expect(value("noOnDecimal") as? Decimal == 0)
        #expect(value("padText") as? String == " a ")
    }

    @Test("defaults are applied to inserted objects")
    func defaultsOnInsert() throws {
        try withContext(LibraryModel.managedObjectModel) { (context) throws in
            let entity = try #require(context.managedObjectModel["Settings"])
            let settings = ManagedObject(entity: entity, insertInto: context)
            #expect(settings.value(forKey: "flag") as? Bool == true)
            #expect(settings.value(forKey: "level") as? Int64 == 42)
            #expect(settings.value(forKey: "since") as? Date == Date(timeIntervalSinceReferenceDate: 86_400))
            #expect(settings.value(forKey: "identifier") == nil)
        }
    }
}
