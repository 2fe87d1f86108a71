import CoreData
import Testing

/// A model built in code with Core Data's names, as CoreDataModelDescription (the porting
/// case `model_description`) builds one: Core Data's optional `name`, `NSAttributeType`,
/// `NSDeleteRule`, `maxCount` 0 for a to-many, `defaultValue: Any?`, fetched properties and
/// fetch indexes; then loaded in a container.
@Suite struct ModelInCodeTests {
    private func makeModel() -> NSManagedObjectModel {
        let shelf = NSEntityDescription()
        shelf.name = "Shelf"
        shelf.managedObjectClassName = NSStringFromClass(NSManagedObject.self)
        let label = NSAttributeDescription()
        label.name = "label"
        label.attributeType = .stringAttributeType
        label.isOptional = false
        let capacity = NSAttributeDescription()
        capacity.name = "capacity"
        capacity.attributeType = .integer16AttributeType
        let defaultCapacity: Any? = 12
        capacity.defaultValue = defaultCapacity
        capacity.isIndexedBySpotlight = true

        let book = NSEntityDescription()
        book.name = "Book"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType

        let books = NSRelationshipDescription()
        books.name = "books"
        books.maxCount = 0
        books.minCount = 0
        books.isOrdered = true
        books.deleteRule = .cascadeDeleteRule
        books.destinationEntity = book
        let onShelf = NSRelationshipDescription()
        onShelf.name = "shelf"
        onShelf.maxCount = 1
        onShelf.destinationEntity = shelf

        let longTitles = NSFetchedPropertyDescription()
        longTitles.name = "longTitles"
        longTitles.fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")

        let properties: [NSPropertyDescription] = [label, capacity, longTitles]
        shelf.properties = properties
        shelf.properties += [books]
        book.properties = [title, onShelf]
        books.inverseRelationship = book.propertiesByName["shelf"] as? NSRelationshipDescription
        onShelf.inverseRelationship = shelf.propertiesByName["books"] as? NSRelationshipDescription
        shelf.uniquenessConstraints = [[]]
        shelf.indexes = [NSFetchIndexDescription(name: "byLabel", elements: [
            NSFetchIndexElementDescription(property: label, collationType: NSFetchIndexElementType.binary),
        ])]

        let model = NSManagedObjectModel()
        model.entities.append(contentsOf: [shelf])
        model.entities += [book]
        model.setEntities([shelf, book], forConfigurationName: "Library")
        return model
    }

    @Test func coreDataSpellingsReadBack() throws {
        let model = makeModel()
        let shelf = try #require(model.entitiesByName["Shelf"])
        let books = try #require(shelf.relationshipsByName["books"])
        #expect(books.isToMany && books.maxCount == 0 && books.deleteRule == .cascadeDeleteRule)
        #expect(books.inverseRelationship?.name == "shelf")
        #expect((books.entity.name ?? "nil") == "Shelf")
        #expect(books.destinationEntity?.name == "Book")
        let capacity = try #require(shelf.attributesByName["capacity"])
        #expect(capacity.attributeType == .integer16AttributeType)
        #expect(capacity.defaultValue as? Int16 == 12)
        #expect(shelf.indexes.first?.elements.first?.property?.name == "label")
        #expect(model.entities(forConfigurationName: "Library")?.count == 2)
        let longTitles = try #require(shelf.propertiesByName["longTitles"] as? NSFetchedPropertyDescription)
        #expect(longTitles.fetchRequest?.entityName == "Book")
    }

    @Test func loadedInAContainerSavesFetchesAndCascades() throws {
        let container = NSPersistentContainer(name: "Library", managedObjectModel: makeModel())
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil, "\(String(describing: loadError))")
        let context = container.viewContext
        let shelf = NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context)
        shelf.setValue("Fiction", forKey: "label")
        #expect(shelf.value(forKey: "capacity") as? Int16 == 12)
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        book.setValue("Solaris", forKey: "title")
        book.setValue(shelf, forKey: "shelf")
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "shelf.label == %@", "Fiction")
        #expect(try context.fetch(request).count == 1)
        context.delete(shelf)
        try context.save()
        #expect(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Book")) == 0)
    }

    /// A to-many read by key is Core Data's `NSOrderedSet` (unordered: `NSSet`, which also
    /// casts to `Set<NSManagedObject>`), in code that imports CoreData.
    @Test func toManyByKeyIsAFoundationSet() throws {
        let container = NSPersistentContainer(name: "Library", managedObjectModel: makeModel())
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let context = container.viewContext
        let shelf = NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context)
        let first = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        let second = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        shelf.setValue(NSOrderedSet(array: [second, first]), forKey: "books")
        let books = try #require(shelf.value(forKey: "books") as? NSOrderedSet)
        #expect(books.array.compactMap { $0 as? NSManagedObject } == [second, first])
        #expect(first.value(forKey: "shelf") as? NSManagedObject === shelf)

        let tweet = try Tweet.findOrCreateTweet(
            matching: "1", text: "hello", postedBy: "paul", in: PersistenceController(inMemory: true).container.viewContext)
        let user = try #require(tweet.tweeter)
        let tweets = try #require(user.value(forKey: "tweets") as? NSSet)
        #expect(tweets.allObjects.compactMap { $0 as? Tweet } == [tweet])
        #expect((user.value(forKey: "tweets") as? Set<NSManagedObject>) == [tweet])
    }

    /// CoreDataModelDescription names a relationship by a Swift key path
    /// (`NSExpression(forKeyPath: keyPath).keyPath`).
    @available(*, deprecated, message: "builds NSExpression")
    @Test func expressionForASwiftKeyPathNamesTheProperty() {
        #expect(NSExpression(forKeyPath: \Page.number).keyPath == "number")
        #expect(NSExpression(forKeyPath: "shelf.label").keyPath == "shelf.label")
    }
}

private struct Page { var number: Int }
