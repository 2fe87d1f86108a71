import CoreData
import Testing

/// The Core Data-style files of this target (Persistence.swift, Tweet.swift, TwitterUser.swift,
/// TweetsTableViewController.swift) compiled unchanged against `import CoreData`, and run:
/// one test per Core Data API they use.
@Suite struct CoreDataPortingTests {
    // MARK: The stack

    @Test func containerFindsItsModelByNameAndBindsTheHandWrittenClasses() throws {
        let persistence = PersistenceController(inMemory: true)
        let model = persistence.container.managedObjectModel
        #expect(model.entitiesByName.keys.sorted() == ["Tweet", "TwitterUser"])
        // `Tweet` by its name, `.TwitterUser` as Xcode's "Current Product Module" form.
        #expect(model["Tweet"]?.managedObjectClass == Tweet.self)
        #expect(model["TwitterUser"]?.managedObjectClass == TwitterUser.self)
    }

    @Test func devNullStoreOfTheTemplateIsInMemory() throws {
        let persistence = PersistenceController(inMemory: true)
        let stores = persistence.container.persistentStoreCoordinator.persistentStores
        #expect(stores.count == 1)
        #expect(stores.first?.type == .inMemory)
    }

    @MainActor @Test func templatePreviewSavesTenObjects() throws {
        let context = PersistenceController.preview.container.viewContext
        #expect(try context.count(for: Tweet.fetchRequest()) == 10)
    }

    @Test func storeDescriptionsAreReferencesTheContainerReads() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CoreDataPortingTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Twitter.sqlite")

        let container = NSPersistentContainer(name: "Twitter")
        #expect(container.persistentStoreDescriptions.first?.type == NSSQLiteStoreType)
        container.persistentStoreDescriptions.first!.url = url
        var loaded: [NSPersistentStoreDescription] = []
        container.loadPersistentStores { description, error in
            #expect(error == nil)
            loaded.append(description)
        }
        #expect(loaded.count == 1 && loaded.first === container.persistentStoreDescriptions.first)
        let context = container.viewContext
        _ = try Tweet.findOrCreateTweet(matching: "1", text: "saved", postedBy: "cs193p", in: context)
        try context.save()
        #expect(FileManager.default.fileExists(atPath: url.path))

        // Another container on the same file, described Core Data's other way, reads it back.
        let reopened = NSPersistentContainer(name: "Twitter")
        reopened.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        reopened.loadPersistentStores { _, error in #expect(error == nil) }
        let tweets = try reopened.viewContext.fetch(Tweet.fetchRequest())
        #expect(tweets.map(\.text) == ["saved"])
        #expect(tweets.first?.tweeter?.screenName == "cs193p")
    }

    @Test func inMemoryStoreTypeByName() throws {
        let container = NSPersistentContainer(name: "Twitter")
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        #expect(container.persistentStoreCoordinator.persistentStores.first?.type == .inMemory)
    }

    @Test func aModelThatIsNotThereIsAnErrorNamingIt() {
        let container = NSPersistentContainer(name: "NoSuchModel")
        var errors: [any Error] = []
        container.loadPersistentStores { _, error in
            if let error { errors.append(error) }
        }
        #expect(errors.count == 1)
        #expect(errors.first.map { "\($0)" }?.contains("no model named 'NoSuchModel'") == true)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func containerWithAGivenModel() throws {
        let model = PersistenceController(inMemory: true).container.managedObjectModel
        let container = NSPersistentContainer(name: "Other", managedObjectModel: model)
        container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
        container.loadPersistentStores { _, error in #expect(error == nil) }
        #expect(container.managedObjectModel === model)
        #expect(NSPersistentContainer.defaultDirectoryURL() == PersistentContainer.defaultDirectoryURL())
    }

    @Test func coordinatorAddsStoresByCoreDataTypeName() throws {
        // The DogWalk book's stack, before containers: a coordinator on the model, a store added
        // by type name with options.
        let model = PersistenceController(inMemory: true).container.managedObjectModel
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CoreDataPortingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let psc = NSPersistentStoreCoordinator(managedObjectModel: model)
        let options = [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
        try psc.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                   at: directory.appendingPathComponent("DogWalk.sqlite"), options: options)
        #expect(psc.persistentStores.first?.type == .sqlite)
        // The chapter's other store types: binary and XML, by Core Data's names.
        try psc.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil,
                                   at: directory.appendingPathComponent("DogWalk.binary"), options: nil)
        try psc.addPersistentStore(ofType: NSXMLStoreType, configurationName: nil,
                                   at: directory.appendingPathComponent("DogWalk.xml"), options: nil)
        #expect(psc.persistentStores.map(\.type) == [.sqlite, .binary, .xml])
        do {
            try psc.addPersistentStore(ofType: "Nonsense", configurationName: nil, at: nil, options: nil)
            Issue.record("added a store of an unknown type")
        } catch {
            #expect((error as NSError).code == NSPersistentStoreInvalidTypeError)
        }
    }

    // MARK: Inserting and key-value coding

    @Test func insertNewObjectForEntityNameGivesTheEntitysClass() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        let object = NSEntityDescription.insertNewObject(forEntityName: "Tweet", into: context)
        #expect(object is Tweet)
        #expect(context.insertedObjects.contains(object))
        #expect(NSEntityDescription.entity(forEntityName: "TwitterUser", in: context)?.name == "TwitterUser")
        #expect(NSEntityDescription.entity(forEntityName: "Nothing", in: context) == nil)
    }

    @Test func keyValueCodingNumbersCastAsCoreDataGivesThem() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        let tweet = Tweet(context: context)
        tweet.setValue(42, forKey: "retweetCount")
        tweet.setValue(4.5, forKey: "rating")
        tweet.setValue(true, forKey: "isFavorite")
        #expect(tweet.value(forKey: "retweetCount") as? Int == 42)
        #expect(tweet.value(forKey: "retweetCount") as? Int64 == 42)
        #expect(tweet.value(forKey: "retweetCount") as? Double == 42)
        #expect((tweet.value(forKey: "retweetCount") as? NSNumber)?.intValue == 42)
        #expect(tweet.value(forKey: "rating") as? Double == 4.5)
        #expect(tweet.value(forKey: "rating") as? Int == nil)  // not exactly an integer, as with NSNumber
        #expect(tweet.value(forKey: "isFavorite") as? Bool == true)
        #expect((tweet.value(forKey: "isFavorite") as? NSNumber)?.boolValue == true)
        #expect(tweet.retweetCount == 42)
        tweet.retweetCount = 7
        #expect(tweet.value(forKeyPath: "retweetCount") as? Int == 7)
        // Predicates and sorts still compare the stored Swift values.
        #expect(try context.count(for: fetchRequest(NSPredicate(format: "retweetCount == %d", 7))) == 1)
        #expect(try context.count(for: fetchRequest(NSPredicate(format: "isFavorite == YES AND rating > 4"))) == 1)
    }

    @Test func keyPathsThroughRelationships() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        let tweet = try Tweet.findOrCreateTweet(matching: "1", text: "Hello", postedBy: "paul", in: context)
        #expect(tweet.value(forKeyPath: "tweeter.name") as? String == "Paul")
        #expect(tweet.tweeter?.tweets?.contains(tweet) == true)
        #expect(try Tweet.findOrCreateTweet(matching: "1", text: "other", postedBy: "x", in: context) === tweet)
    }

    @Test func aSubclassDeclaresItsOwnIdentifiableID() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        let user = try TwitterUser.findOrCreateTwitterUser(matching: "cs193p", in: context)
        #expect(user.id == "cs193p")
        let tweet = Tweet(context: context)
        #expect(tweet.id == ObjectIdentifier(tweet))  // the default, as NSManagedObject's
        // Generic code sees the conformance's `id`, as with Core Data.
        #expect(identifier(of: user) == ObjectIdentifier(user))
    }

    private func identifier<T: Identifiable>(of value: T) -> T.ID { value.id }

    // MARK: Fetching

    @Test func fetchWithFormatPredicatesAndSortDescriptors() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        try insertTweets(in: context)
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.predicate = NSPredicate(format: "tweeter.screenName = %@ AND text CONTAINS[c] %@", "paul", "SWIFT")
        request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: false)]
        #expect(try context.fetch(request).map(\.text) == ["swift 2", "swift 1"])

        let users = NSFetchRequest<TwitterUser>(entityName: "TwitterUser")
        users.predicate = NSPredicate(format: "tweets.@count > %d", 1)
        #expect(try context.fetch(users).map(\.screenName) == ["paul"])

        let untyped = NSFetchRequest<NSFetchRequestResult>(entityName: "Tweet")
        untyped.predicate = NSPredicate(format: "%K BEGINSWITH %@", "text", "obj")
        #expect(try context.fetch(untyped).count == 1)
        #expect(try context.count(for: untyped) == 1)
    }

    @Test func compoundPredicates() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        try insertTweets(in: context)
        let swift = NSPredicate(format: "text BEGINSWITH %@", "swift")
        let byPaul = NSPredicate(format: "tweeter.screenName == %@", "paul")
        let and = NSCompoundPredicate(andPredicateWithSubpredicates: [swift, byPaul])
        let objc = NSPredicate(format: "text BEGINSWITH %@", "objc")
        let or = NSCompoundPredicate(orPredicateWithSubpredicates: [objc, byPaul])
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: byPaul)
        #expect(try context.count(for: fetchRequest(swift)) == 2)
        #expect(try context.count(for: fetchRequest(and)) == 2)
        #expect(try context.count(for: fetchRequest(NSCompoundPredicate(andPredicateWithSubpredicates: [objc, byPaul]))) == 0)
        #expect(try context.count(for: fetchRequest(or)) == 3)
        #expect(try context.count(for: fetchRequest(not)) == 1)
    }

    @Test func objectPredicateTakesTheFormatLabel() throws {
        let predicate = ObjectPredicate(format: "name == %@ AND count > %d", "a", 2)
        #expect(predicate.evaluate(with: ["name": "a", "count": 3]))
        #expect(!predicate.evaluate(with: ["name": "a", "count": 2]))
        let fromArray = ObjectPredicate(format: "name IN %@", argumentArray: [["a", "b"]])
        #expect(fromArray.evaluate(with: ["name": "b"]))
    }

    @Test func enrouteFindOrCreateWithWrappersAndOwnID() throws {
        let container = NSPersistentContainer(name: "Enroute")
        container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let context = container.viewContext
        let sfo = Airport.withICAO("KSFO", context: context)
        sfo.location = "San Francisco"
        sfo.latitude = 37.6
        let lax = Airport.withICAO("KLAX", context: context)
        lax.location = "Los Angeles"
        let flight = Flight(context: context)
        flight.ident = "UA1"
        flight.origin = sfo
        try context.save()
        #expect(Airport.withICAO("KSFO", context: context) === sfo)
        #expect(sfo.id == "KSFO" && sfo.city == "")
        #expect(sfo.flightsFrom.map(\.ident) == ["UA1"])
        #expect([sfo, lax].sorted().map(\.icao) == ["KLAX", "KSFO"])
        let all = try context.fetch(Airport.fetchRequest(NSPredicate(format: "latitude > %@", NSNumber(value: 0))))
        #expect(all.map(\.icao) == ["KSFO"])
        #expect(try context.fetch(Airport.fetchRequest(NSPredicate(value: true))).map(\.icao) == ["KLAX", "KSFO"])
    }

    // MARK: Fetched results controller

    @Test func fetchedResultsControllerTellsItsCoreDataDelegate() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        try insertTweets(in: context)
        let table = TweetsTableViewController()
        try table.updateUI(in: context)
        #expect(table.numberOfSections() == 2)
        #expect(table.titleForHeader(inSection: 0) == "anna")
        #expect(table.numberOfRows(inSection: 1) == 2)
        let controller = try #require(table.fetchedResultsController)
        let first = controller.object(at: IndexPath(row: 0, section: 1))
        #expect(first.text == "swift 1")
        #expect(controller.indexPath(forObject: first) == IndexPath(row: 0, section: 1))
        #expect(controller.fetchedObjects?.count == 3)
        #expect(controller.sections?.first?.objects?.first is Tweet)
        #expect(controller.sectionIndexTitles == ["A", "P"])

        _ = try Tweet.findOrCreateTweet(matching: "9", text: "swift by zoe", postedBy: "zoe", in: context)
        context.processPendingChanges()
        #expect(table.changes == ["begin", "insert section zoe at 2", "insert swift by zoe at [2, 0]", "end"])
        #expect(table.contentChanges == 1)
    }

    @Test func untypedFetchedResultsControllerIsItsOwnDelegateArgument() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        try insertTweets(in: context)
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Tweet")
        request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        let delegate = Recorder()
        controller.delegate = delegate
        try controller.performFetch()
        let tweet = try #require(controller.fetchedObjects?.first as? Tweet)
        context.delete(tweet)
        context.processPendingChanges()
        #expect(delegate.controllers.count == 1 && delegate.controllers.first === controller)
        #expect(delegate.deleted == [IndexPath(item: 0, section: 0)])
    }

    @Test func fetchedResultsControllerWithoutSortDescriptorsThrows() {
        let context = PersistenceController(inMemory: true).container.viewContext
        let controller = NSFetchedResultsController(fetchRequest: Tweet.fetchRequest(), managedObjectContext: context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        let error = #expect(throws: (any Error).self) { try controller.performFetch() }
        #expect((error.map { $0 as NSError })?.code == 134060)
        #expect((error.map { $0 as NSError })?.domain == NSCocoaErrorDomain)
    }

    // MARK: Background work and errors

    @Test func performBackgroundTaskSavesAndTheViewContextSeesIt() async throws {
        let container = PersistenceController(inMemory: true).container
        try await container.performBackgroundTask { context in
            _ = try Tweet.findOrCreateTweet(matching: "bg", text: "from the background", postedBy: "worker", in: context)
            try context.save()
        }
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.predicate = NSPredicate(format: "unique == %@", "bg")
        let found = try container.viewContext.performAndWait { try container.viewContext.fetch(request) }
        #expect(found.map(\.text) == ["from the background"])

        let background = container.newBackgroundContext()
        #expect(background.concurrencyType == .privateQueueConcurrencyType)
    }

    @Test func saveErrorsAreNSErrorsInTheCocoaDomain() throws {
        let context = PersistenceController(inMemory: true).container.viewContext
        let user = NSEntityDescription.insertNewObject(forEntityName: "TwitterUser", into: context)  // no name
        do {
            try context.save()
            Issue.record("saved a user without its mandatory name")
        } catch {
            let nsError = error as NSError
            #expect(nsError.domain == NSCocoaErrorDomain)
            #expect(nsError.code == NSValidationMissingMandatoryPropertyError)
            #expect(nsError.userInfo[NSValidationKeyErrorKey] as? String == "name")
            #expect(nsError.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === user)
        }
    }

    @Test func mergePolicyAndBatchDeleteAsCoreDataWritesThem() throws {
        let container = PersistenceController(inMemory: true).container
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        second.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        let id = try first.performAndWait {
            let tweet = try Tweet.findOrCreateTweet(matching: "m", text: "first", postedBy: "paul", in: first)
            try first.save()
            return tweet.objectID
        }
        try second.performAndWait { _ = try second.existingObject(with: id) }  // read before the other save
        try first.performAndWait {
            (try first.existingObject(with: id)).setValue("changed by the first", forKey: "text")
            try first.save()
        }
        try second.performAndWait {
            (try second.existingObject(with: id)).setValue("changed by the second", forKey: "text")
            try second.save()  // NSMergeByPropertyObjectTrumpMergePolicy: the second's value wins
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Tweet")
            request.predicate = NSPredicate(format: "unique == %@", "m")
            let delete = NSBatchDeleteRequest(fetchRequest: request)
            delete.resultType = .resultTypeObjectIDs
            let deleted = try second.execute(delete).result as? [NSManagedObjectID] ?? []
            #expect(deleted == [id])
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: deleted], into: [first])
        }
        let left = try first.performAndWait {
            (registered: first.registeredObject(for: id), count: try first.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Tweet")))
        }
        #expect(left.registered == nil)
        #expect(left.count == 0)
    }

    @Test func readmeExample() throws {
        let container = NSPersistentContainer(name: "Twitter")
        container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")  // in memory
        container.loadPersistentStores { _, error in if let error { print(error) } }
        let context = container.viewContext
        let user = NSEntityDescription.insertNewObject(forEntityName: "TwitterUser", into: context)
        user.setValue("cs193p", forKey: "screenName")
        user.setValue("CS193p", forKey: "name")
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "TwitterUser")
        request.predicate = NSPredicate(format: "screenName BEGINSWITH[c] %@", "cs")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        #expect(try context.fetch(request).map { $0.value(forKey: "name") as? String } == ["CS193p"])
    }

    // MARK: Helpers

    private func insertTweets(in context: NSManagedObjectContext) throws {
        _ = try Tweet.findOrCreateTweet(matching: "1", text: "swift 1", postedBy: "paul", in: context)
        _ = try Tweet.findOrCreateTweet(matching: "2", text: "swift 2", postedBy: "paul", in: context)
        _ = try Tweet.findOrCreateTweet(matching: "3", text: "objc forever", postedBy: "anna", in: context)
        try context.save()
    }

    private func fetchRequest(_ predicate: NSPredicate) -> NSFetchRequest<Tweet> {
        let request: NSFetchRequest<Tweet> = Tweet.fetchRequest()
        request.predicate = predicate
        return request
    }
}

/// A delegate implementing only the object change, as many do.
private final class Recorder: NSObject, NSFetchedResultsControllerDelegate {
    var controllers: [AnyObject] = []
    var deleted: [IndexPath] = []

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        controllers.append(controller)
        if type == .delete, let indexPath { deleted.append(indexPath) }
    }
}
