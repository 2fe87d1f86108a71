import Foundation
import Testing
@testable import ManagedObjects

@Suite("Notifications")
struct NotificationTests {
    @Test("objects-did-change announces inserts, updates and deletes by ID", arguments: StoreKind.allCases)
    func objectsDidChange(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            var received: [ContextNotification] = []
            let observation = context.addObserver(for: [.objectsDidChange]) { received.append($0) }
            let joe = TwitterUser(context: context)
            context.processPendingChanges()
            #expect(received.count == 1)
            #expect(received.last?.insertedObjectIDs == [joe.objectID])
            #expect(received.last?.context === context)

            try context.save()
            received.removeAll()
            joe.name = "Joe"
            context.processPendingChanges()
            #expect(received.last?.updatedObjectIDs == [joe.objectID])
            #expect(received.last?.insertedObjectIDs.isEmpty == true)

            context.delete(joe)
            context.processPendingChanges()
            #expect(received.last?.deletedObjectIDs == [joe.objectID])
            #expect(received.last?.updatedObjectIDs.isEmpty == true)

            let count = received.count
            context.processPendingChanges()
            #expect(received.count == count, "nothing new, nothing announced")
            observation.cancel()
            _ = TwitterUser(context: context)
            context.processPendingChanges()
            #expect(received.count == count, "a cancelled observation hears nothing")
        }
    }

    @Test("will-save and did-save bracket a save; did-save names permanent IDs", arguments: StoreKind.allCases)
    func saveNotifications(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            var names: [ContextNotification.Name] = []
            var didSave: ContextNotification?
            let observation = context.addObserver { notification in
                names.append(notification.name)
                if notification.name == .didSave { didSave = notification }
            }
            let tweet = Tweet(context: context)
            try context.save()
            #expect(names == [.objectsDidChange, .willSave, .didSave])
            #expect(didSave?.insertedObjectIDs == [tweet.objectID])
            #expect(didSave?.insertedObjectIDs.first?.isTemporaryID == false)

            names.removeAll()
            try context.save()
            #expect(names.isEmpty, "a save with no changes announces nothing")

            tweet.text = "x"
            _ = Tweet(context: context).tweeter  // an insert with a missing nothing: valid
            try context.save()
            #expect(didSave?.updatedObjectIDs == [tweet.objectID])
            withExtendedLifetime(observation) {}
        }
    }

    @Test("a failed save posts will-save but no did-save", arguments: StoreKind.allCases)
    func failedSave(kind: StoreKind) throws {
        try withContext(LibraryModel.managedObjectModel, kind: kind) { (context) throws in
            var names: [ContextNotification.Name] = []
            let observation = context.addObserver(for: [.willSave, .didSave]) { names.append($0.name) }
            _ = Passport(context: context)
            #expect(throws: ManagedObjectError.self) { try context.save() }
            #expect(names == [.willSave])
            withExtendedLifetime(observation) {}
        }
    }

    @Test("notifications as an AsyncSequence")
    func asyncSequence() async throws {
        let container = try makeContainer(TwitterModel.managedObjectModel)
        let context = container.newBackgroundContext()
        let stream = context.notifications(named: [.didSave])
        try await context.perform {
            let tweet = Tweet(context: context)
            tweet.text = "streamed"
            try context.save()
        }
        var iterator = stream.makeAsyncIterator()
        let notification = try #require(await iterator.next())
        #expect(notification.name == .didSave)
        #expect(notification.insertedObjectIDs.count == 1)
        #expect(notification.insertedObjectIDs.first?.entity.name == "Tweet")
    }
}
