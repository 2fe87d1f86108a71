import CoreData
import Testing

/// Remote change notifications as Core Data code turns them on and reads them: the option set
/// on the store description, `.NSPersistentStoreRemoteChange` observed for the coordinator,
/// and its `userInfo` read under Core Data's keys. Written with Core Data's names only.
@Suite struct RemoteChangePortingTests {
    static func container(at url: URL, posting: Bool) -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Twitter")
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        if posting { description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey) }
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        return container
    }

    @Test(.timeLimit(.minutes(5))) func anotherStacksSaveIsPosted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("RemoteChangePortingTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Shared.sqlite")
        let app = Self.container(at: url, posting: false)
        let widget = Self.container(at: url, posting: true)
        let received = LockedNotifications()
        let observation = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange, object: widget.persistentStoreCoordinator, queue: nil
        ) { received.append($0) }
        defer { NotificationCenter.default.removeObserver(observation) }

        let writer = app.newBackgroundContext()
        try writer.performAndWait {
            _ = try Tweet.findOrCreateTweet(matching: "1", text: "from the app", postedBy: "paul", in: writer)
            try writer.save()
        }
        let deadline = Date().addingTimeInterval(30)
        while received.all.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let info = try #require(received.all.first?.userInfo)
        #expect(info[NSPersistentStoreURLKey] as? URL == url)
        #expect(info[NSStoreUUIDKey] as? String == widget.persistentStoreCoordinator.persistentStores.first?.identifier)
        let token = info[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken
        #expect(token != nil && token == app.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
    }
}
