import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// A model built in code as Core Data code builds one: Author (name, to-many `publications`
/// cascading), abstract Publication (date, views with a default, to-one `author`), Article
/// (text) under Publication. Each call builds new drafts.
private func publicationsModel() -> (model: ManagedObjectModel, author: EntityDescription, publication: EntityDescription, article: EntityDescription) {
    let author = EntityDescription()
    author.name = "Author"
    let authorName = AttributeDescription()
    authorName.name = "name"
    authorName.type = .string
    authorName.isOptional = false

    let publication = EntityDescription()
    publication.name = "Publication"
    publication.isAbstract = true
    let date = AttributeDescription()
    date.name = "publicationDate"
    date.type = .date
    let views = AttributeDescription()
    views.name = "numberOfViews"
    views.type = .integer64
    views.defaultValue = 0

    let article = EntityDescription()
    article.name = "Article"
    let text = AttributeDescription()
    text.name = "text"
    text.type = .string

    let publications = RelationshipDescription()
    publications.name = "publications"
    publications.isToMany = true
    publications.maxCount = nil
    publications.deleteRule = .cascade
    publications.destinationEntity = publication
    let writer = RelationshipDescription()
    writer.name = "author"
    writer.isOptional = false
    writer.destinationEntity = author
    publications.inverseRelationship = writer
    writer.inverseRelationship = publications

    author.properties = [authorName, publications]
    publication.properties = [date, views, writer]
    article.properties = [text]
    publication.subentities = [article]
    author.uniquenessConstraints = [["name"]]
    author.indexes = [FetchIndexDescription(name: "byName", elements: [FetchIndexElementDescription(property: authorName, collationType: .binary)])]

    let model = ManagedObjectModel()
    model.entities = [author, publication, article]
    return (model, author, publication, article)
}

@Suite("A model built in code (ManagedObjectModel(), drafts, first use)")
struct ModelBuiltInCodeTests {
    @Test("a draft reads as Core Data's does before use: inherited properties, inverse, to-many")
    func draftReads() throws {
        let (model, author, publication, article) = publicationsModel()
        #expect(model.entitiesByName["Article"] === article)
        #expect(article.superentity === publication)
        #expect(article.propertiesByName["numberOfViews"] != nil, "inherited from Publication")
        #expect(article.properties.map(\.name) == ["publicationDate", "numberOfViews", "author", "text"])
        let publications = try #require(author.relationship(named: "publications"))
        #expect(publications.inverseRelationship?.name == "author")
        #expect(publications.inverseRelationship?.entity === publication)
        #expect(model.model.entity(named: "Article")?.parentEntity == "Publication")
        #expect(model.model.entity(named: "Publication")?.attributes.first { $0.name == "numberOfViews" }?.defaultValueString == "0")
    }

    @Test("saved and fetched through the abstract entity, default value, cascade", arguments: [PersistentStoreType.inMemory, .sqlite])
    func saveAndFetch(type: PersistentStoreType) throws {
        let (model, _, publication, article) = publicationsModel()
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: type == .sqlite ? directory.file("Publications.sqlite") : nil)
        #expect(article.superentity === publication, "the same entity objects are the model's in use")
        #expect(model["Article"] === article)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
        try context.performAndWait {
            let ursula = ManagedObject(entity: model["Author"]!, insertInto: context)
            ursula.setValue("Ursula", forKey: "name")
            for (index, title) in ["The Dispossessed", "The Left Hand of Darkness"].enumerated() {
                let piece = ManagedObject(entity: article, insertInto: context)
                piece.setValue(title, forKey: "text")
                piece.setValue(Date(timeIntervalSince1970: Double(index)), forKey: "publicationDate")
                piece.setValue(ursula, forKey: "author")
            }
            try context.save()
            context.reset()
            let request = FetchRequest<ManagedObject>(
                entityName: "Publication", predicate: ObjectPredicate("author.name == %@", "Ursula"),
                sortDescriptors: [ObjectSortDescriptor(key: "publicationDate", ascending: true)])
            let found = try context.fetch(request)
            #expect(found.compactMap { $0.value(forKey: "text") as? String } == ["The Dispossessed", "The Left Hand of Darkness"])
            #expect(found.allSatisfy { $0.entity === article })
            #expect(found.allSatisfy { $0.value(forKey: "numberOfViews") as? Int64 == 0 })
            let author = try #require(found.first?.value(forKey: "author") as? ManagedObject)
            #expect((author.value(forKey: "publications") as? Set<ManagedObject>)?.count == 2, "the inverse was kept")
            context.delete(author)
            try context.save()
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Article")) == 0, "the cascade")
        }
    }

    @Test("the SQLite schema has the fetch index and the uniqueness constraint set in code")
    func schema() throws {
        let (model, _, _, _) = publicationsModel()
        let directory = try TemporaryDirectory()
        let url = directory.file("Publications.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let indexes = try rawSQL(url.path, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZAUTHOR' ORDER BY name")
        #expect(indexes.contains("Z_Author_byName"), "\(indexes)")
        #expect(indexes.contains("Z_Author_UNIQUE_name"), "\(indexes)")
        #expect(model.model.entity(named: "Author")?.uniquenessConstraints == [["name"]])
        #expect(model.model.entity(named: "Author")?.fetchIndexes.map(\.name) == ["byName"])
        #expect(model["Author"]?.indexes.first?.elements.first?.property === model["Author"]?.property(named: "name"))
    }

    @Test("a change after the model is in use is not applied")
    func changeAfterUse() throws {
        let (model, author, _, _) = publicationsModel()
        let name = try #require(author.attribute(named: "name"))
        _ = PersistentStoreCoordinator(managedObjectModel: model)
        author.name = "Writer"
        name.type = .integer16
        name.name = "title"
        author.properties = []
        model.entities = []
        model.setEntities([author], forConfigurationName: "Late")
        #expect(model.entities.count == 3)
        #expect(author.name == "Author")
        #expect(model["Author"] === author)
        #expect(name.type == .string && name.name == "name")
        #expect(author.properties.map(\.name) == ["name", "publications"])
        #expect(model.configurations.isEmpty)
    }

    @Test("a model read from a Model value is never changed")
    func builtFromModelIsImmutable() {
        let model = ManagedObjectModel(Model(entities: [Entity(name: "Note", attributes: [Attribute(name: "text", type: .string)])]))
        model["Note"]?.name = "Memo"
        model["Note"]?.attribute(named: "text")?.isOptional = true
        #expect(model["Note"]?.name == "Note")
        #expect(model["Note"]?.attribute(named: "text")?.isOptional == false)
    }

    @Test("invalid drafts: adding a store throws, naming each problem; nothing traps")
    func invalidDrafts() throws {
        let (model, author, publication, _) = publicationsModel()
        let orphan = RelationshipDescription()
        orphan.name = "editor"
        let stray = RelationshipDescription()
        stray.name = "missing"
        stray.destinationEntity = publication
        let unknownInverse = RelationshipDescription()
        unknownInverse.name = "notInAnyEntity"
        stray.inverseRelationship = unknownInverse
        let duplicate = AttributeDescription()
        duplicate.name = "name"
        duplicate.type = .string
        author.properties += [orphan, stray, duplicate]
        let container = PersistentContainer(name: "Broken", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        let error = try #require(loadError as? ManagedObjectError)
        #expect(error.message.contains("property 'editor' of entity 'Author' has no destination entity"), "\(error.message)")
        #expect(error.message.contains("property 'missing' of entity 'Author': its inverse relationship 'notInAnyEntity' is in no entity"), "\(error.message)")
        #expect(error.message.contains("'name'") && error.message.contains("Author"), "the duplicate: \(error.message)")
        #expect(throws: ManagedObjectError.self) { try container.persistentStoreCoordinator.addPersistentStore(type: .inMemory) }
    }

    @Test("an inverse that is no relationship of the destination is reported by the model's validation")
    func inverseOfAnotherEntity() throws {
        let (model, author, _, _) = publicationsModel()
        let publications = try #require(author.relationship(named: "publications"))
        publications.inverseRelationship = publications
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: ManagedObjectError.self) { try coordinator.addPersistentStore(type: .inMemory) }
        #expect(error.message.contains("publications"), "\(error.message)")
    }
}
