// The code snippets of the ManagedObjects documentation catalog, compiled and run against the
// classes the build plugin generates for the seed models. Each article's ```swift block must
// appear in this file line for line (the last test checks it), so no snippet goes stale.
import Foundation
import ManagedObjects
import Testing

@Suite struct DocumentationSnippetTests {
    @Test func gettingStarted() throws {
        let container = PersistentContainer(name: "DogWalk", managedObjectModel: DogWalkModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
        try container.loadPersistentStores()
        let context = container.viewContext

        let fido = Dog(context: context)
        fido.name = "Fido"
        let walk = Walk(context: context)
        walk.date = Date()
        fido.insertIntoWalks(walk, at: 0)            // walk.dog is now fido
        try context.save()

        let dogs = try Dog.fetch(ObjectPredicate("name BEGINSWITH[c] %@", "f"),
                                 sortedBy: [ObjectSortDescriptor(key: Dog.Keys.name)], in: context)

        #expect(dogs == [fido])
        #expect(walk.dog === fido)
        #expect(try Walk.count(in: context) == 1)
    }

    @Test func sqliteStoreInADirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let storeURL = directory.appendingPathComponent("DogWalk.sqlite")
        let container = PersistentContainer(name: "DogWalk", managedObjectModel: DogWalkModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
        try container.loadPersistentStores()

        try container.viewContext.performAndWait {
            Dog(context: container.viewContext).name = "Rex"
            try container.viewContext.save()
        }
        #expect(FileManager.default.fileExists(atPath: storeURL.path))
        let reopened = PersistentContainer(name: "DogWalk", managedObjectModel: DogWalkModel.managedObjectModel)
        reopened.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
        try reopened.loadPersistentStores()
        #expect(try reopened.viewContext.performAndWait { try Dog.fetch(nil, in: reopened.viewContext).map(\.name) } == ["Rex"])
    }

    @Test func childContextAndMergePolicy() throws {
        let container = PersistentContainer(name: "DogWalk", managedObjectModel: DogWalkModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
        try container.loadPersistentStores()

        let writer = container.newBackgroundContext()
        writer.mergePolicy = .mergeByPropertyObjectTrump   // a dog with a stored dog's name updates that one
        let importer = ManagedObjectContext(concurrencyType: .privateQueue, parent: writer)
        for names in [["Rex", "Bella"], ["Rex"]] {
            try importer.performAndWait {
                for name in names { Dog(context: importer).name = name }
                try importer.save()                      // into the writer: nothing stored yet
            }
            try writer.performAndWait { try writer.save() }   // to the store
        }

        #expect(try writer.performAndWait { try Dog.count(in: writer) } == 2)
    }

    @Test func queryGenerations() throws {
        let container = PersistentContainer(name: "DogWalk", managedObjectModel: DogWalkModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
        try container.loadPersistentStores()
        let reader = container.newBackgroundContext()
        let writer = container.newBackgroundContext()

        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }   // pinned from now on
        try writer.performAndWait {
            Dog(context: writer).name = "Rex"
            try writer.save()
        }
        let pinned = try reader.performAndWait { try Dog.count(in: reader) }        // 0: saved after the pin
        try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }   // moves to the latest save
        let latest = try reader.performAndWait { try Dog.count(in: reader) }        // 1

        #expect(pinned == 0)
        #expect(latest == 1)
    }

    @Test func batchRequests() throws {
        let container = PersistentContainer(name: "DogWalk", managedObjectModel: DogWalkModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()

        try context.performAndWait {
            let insert = BatchInsertRequest(entityName: "Dog", objects: [["name": "Rex"], ["name": "Bella"]])
            try context.execute(insert)

            let rename = BatchUpdateRequest(entityName: "Dog")
            rename.predicate = ObjectPredicate("name == %@", "Rex")
            rename.propertiesToUpdate = ["name": "Max"]
            try context.execute(rename)

            #expect(try Dog.fetch(sortedBy: [ObjectSortDescriptor(key: Dog.Keys.name)], in: context).map(\.name) == ["Bella", "Max"])

            let delete = BatchDeleteRequest(fetchRequest: Dog.fetchRequest())
            delete.resultType = .resultTypeObjectIDs                 // delete rules apply in the store
            let deleted = try context.execute(delete).objectIDs ?? []
            ManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [ManagedObjectContext.deletedObjectsKey: deleted], into: [container.viewContext])

            #expect(deleted.count == 2)
            #expect(try Dog.count(in: context) == 0)
        }
    }

    @Test func typedQueries() throws {
        try withContext(TweetsModel.managedObjectModel) { context in
            let joe = TwitterUser(context: context)
            joe.screenName = "joe"
            for (index, text) in ["swift on linux", "lunch", "more swift"].enumerated() {
                let tweet = Tweet(context: context)
                tweet.text = text
                tweet.created = Date(timeIntervalSinceNow: Double(index) - 10)
                tweet.tweeter = joe
            }
            fillMandatoryAttributes(of: Array(context.insertedObjects))
            try context.save()

            let since = Date(timeIntervalSinceNow: -86_400)
            let recent = try Tweet.fetch(
                where: #Predicate { ($0.text?.contains("swift") ?? false) && ($0.created ?? since) > since },
                sortedBy: [SortDescriptor(\.created, order: .reverse)], in: context)
            // the same as:
            let same = try Tweet.fetch(ObjectPredicate("text CONTAINS %@ AND created > %@", "swift", since),
                                       sortedBy: [ObjectSortDescriptor(key: "created", ascending: false)], in: context)
            let busy = try TwitterUser.count(where: #Predicate { $0.tweets.count > 2 }, in: context)
            let request = FetchRequest<Tweet>(predicate: #Predicate { $0.tweeter?.screenName == "joe" },
                                              sortBy: [SortDescriptor(\.created)])
            request.filter(#Predicate { $0.text != nil })   // narrows the request

            #expect(recent.map(\.text) == ["more swift", "swift on linux"])
            #expect(same == recent)
            #expect(busy == 1)
            #expect(try context.fetch(request).count == 3)
        }
    }

    /// Every ```swift block of the catalog's articles appears in this file, line for line
    /// (leading spaces aside), so each snippet is code one of the tests above compiles and runs.
    @Test func everyArticleSnippetIsCompiledHere() throws {
        let thisFile = URL(fileURLWithPath: #filePath)
        let root = thisFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalog = root.appendingPathComponent("Sources/ManagedObjects/ManagedObjects.docc")
        let tested = try String(contentsOf: thisFile, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "\n")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        var snippetCount = 0
        for article in articles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            var block: [String]? = nil
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```swift") {
                    block = []
                } else if line.hasPrefix("```"), let lines = block {
                    snippetCount += 1
                    let snippet = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
                    #expect(tested.contains(snippet), "a snippet of \(article) is not in \(thisFile.lastPathComponent):\n\(snippet)")
                    block = nil
                } else if block != nil {
                    block?.append(String(line))
                }
            }
        }
        #expect(snippetCount >= 5, "the catalog's articles should carry the snippets tested here")
    }
}
