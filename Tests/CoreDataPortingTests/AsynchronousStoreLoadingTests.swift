import CoreData
import Foundation
import Testing

/// `shouldAddStoreAsynchronously`: `loadPersistentStores` returns before the store is added,
/// and the handler runs on a background queue, as in Core Data; a synchronous description
/// beside it is added before the call returns.
@Suite struct AsynchronousStoreLoadingTests {
    @Test func storeAddedOnABackgroundQueueAfterTheCallReturns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AsynchronousStoreLoadingTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = NSPersistentContainer(name: "Twitter")
        let later = NSPersistentStoreDescription(url: folder.appendingPathComponent("Later.sqlite"))
        later.shouldAddStoreAsynchronously = true
        let now = NSPersistentStoreDescription()
        now.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [later, now]

        let returned = DispatchSemaphore(value: 0)
        let added = DispatchSemaphore(value: 0)
        let calls = LockedCalls()
        container.loadPersistentStores { description, error in
            if description === later {
                // Waits for the call to return: a synchronous addition would never see it.
                calls.record(sawReturn: returned.wait(timeout: .now() + 30) == .success, error: error)
                added.signal()
            } else {
                calls.record(synchronous: error == nil)
            }
        }
        #expect(calls.synchronousAdded == true)
        returned.signal()
        #expect(added.wait(timeout: .now() + 30) == .success)
        #expect(calls.laterSawReturn == true)
        #expect(calls.laterError == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 2)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Later.sqlite").path))
    }
}

/// What the handler saw, written from the background queue and read by the test.
private final class LockedCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var _synchronousAdded: Bool?
    private var _laterSawReturn: Bool?
    private var _laterError: (any Error)?

    func record(synchronous added: Bool) { lock.withLock { _synchronousAdded = added } }
    func record(sawReturn: Bool, error: (any Error)?) {
        lock.withLock {
            _laterSawReturn = sawReturn
            _laterError = error
        }
    }
    var synchronousAdded: Bool? { lock.withLock { _synchronousAdded } }
    var laterSawReturn: Bool? { lock.withLock { _laterSawReturn } }
    var laterError: (any Error)? { lock.withLock { _laterError } }
}
