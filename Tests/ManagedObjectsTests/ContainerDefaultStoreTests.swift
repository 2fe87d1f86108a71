import Foundation
import Testing
@testable import ManagedObjects

@Suite("A container's default store: SQLite, as in Core Data")
struct ContainerDefaultStoreTests {
    @Test("the default description is an SQLite file named after the container in the default directory")
    func defaultDescription() {
        let container = PersistentContainer(name: "Tweets", managedObjectModel: TwitterModel.managedObjectModel)
        let descriptions = container.persistentStoreDescriptions
        #expect(descriptions.count == 1)
        #expect(descriptions.first?.type == .sqlite)
        #expect(descriptions.first?.url
            == PersistentContainer.defaultDirectoryURL().appendingPathComponent("Tweets.sqlite"))
        #expect(PersistentStoreDescription().type == .sqlite)
        #expect(PersistentStoreDescription(type: .inMemory).type == .inMemory)
    }

    #if !canImport(Darwin)
    @Test("on Linux the default directory is $XDG_DATA_HOME when absolute, else ~/.local/share")
    func defaultDirectoryOnLinux() {
        let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? ""
        let expected = dataHome.hasPrefix("/")
            ? dataHome
            : FileManager.default.homeDirectoryForCurrentUser.path + "/.local/share"
        #expect(PersistentContainer.defaultDirectoryURL().standardizedFileURL.path
            == URL(fileURLWithPath: expected).standardizedFileURL.path)
    }
    #endif

    @Test("loading creates the store's directory, and a second container on the file finds what the first saved")
    func persistsAcrossContainers() throws {
        let files = try TemporaryDirectory()
        let url = files.url.appendingPathComponent("not/yet/there/Tweets.sqlite")
        func launch() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Tweets", managedObjectModel: TwitterModel.managedObjectModel)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            try container.loadPersistentStores()
            return container
        }
        let first = try launch().newBackgroundContext()
        try first.performAndWait {
            let user = TwitterUser(context: first)
            user.screenName = "joe"
            try first.save()
        }
        let second = try launch().newBackgroundContext()
        let names = try second.performAndWait {
            try second.fetch(TwitterUser.fetchRequest()).map(\.screenName)
        }
        #expect(names == ["joe"])
    }

    /// Xcode's template sets `persistentStoreDescriptions.first!.url = URL(fileURLWithPath:
    /// "/dev/null")` for previews and tests: Core Data then keeps the SQLite store in memory.
    @Test("an SQLite store at /dev/null is kept in memory: it saves and fetches, and each container starts empty")
    func devNullIsInMemory() throws {
        func launch() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Tweets", managedObjectModel: TwitterModel.managedObjectModel)
            container.persistentStoreDescriptions[0].url = URL(fileURLWithPath: "/dev/null")
            #expect(container.persistentStoreDescriptions.first?.type == .sqlite)
            try container.loadPersistentStores()
            return container
        }
        let first = try launch()
        #expect(first.persistentStoreCoordinator.persistentStores.map(\.type) == [.inMemory])
        let context = first.newBackgroundContext()
        let names = try context.performAndWait {
            let user = TwitterUser(context: context)
            user.screenName = "joe"
            try context.save()
            return try context.fetch(TwitterUser.fetchRequest()).map(\.screenName)
        }
        #expect(names == ["joe"])
        let second = try launch().newBackgroundContext()
        #expect(try second.performAndWait { try second.count(for: TwitterUser.fetchRequest()) } == 0)
        // Nothing was written to /dev/null or beside it.
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
        let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/null")
        #expect(attributes[.type] as? FileAttributeType == .typeCharacterSpecial)
    }
}
