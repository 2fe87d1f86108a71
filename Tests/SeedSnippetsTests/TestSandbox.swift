// What an app's sandbox gives it on Apple platforms: a folder of its own for the stores that the
// seeds' code puts in the container's default directory. Declared in this module, this
// `NSPersistentContainer` is the one the seeds' code names; it overrides only
// `defaultDirectoryURL()`, Core Data's documented way to move the default store.
import CoreData
import Foundation

class NSPersistentContainer: CoreData.NSPersistentContainer, @unchecked Sendable {
    static let sandbox: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SeedSnippetsTests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    override class func defaultDirectoryURL() -> URL { sandbox }
}
