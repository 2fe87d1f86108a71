import Foundation
import ManagedObjects

// Core Data's coordinator runs blocks on a queue of its own (`perform`, `performAndWait`), as
// code written before `NSPersistentContainer` does around `addPersistentStore` (SugarRecord).
// The runtime's coordinator is safe from any thread, so here the queue only orders the blocks
// given to it: one at a time, in the order given, `performAndWait` at once when called from a
// block already on it.
extension PersistentStoreCoordinator {
    /// Schedules `block` on the coordinator's queue and returns at once.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        CoordinatorQueues.queue(for: self).async(execute: block)
    }

    /// Runs `block` on the coordinator's queue and waits for it (at once when already there).
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        let queue = CoordinatorQueues.queue(for: self)
        if DispatchQueue.getSpecific(key: CoordinatorQueues.key) == ObjectIdentifier(queue) { return try block() }
        return try queue.sync(execute: block)
    }
}

/// One serial queue per coordinator, made when first asked for and dropped with it.
enum CoordinatorQueues {
    static let key = DispatchSpecificKey<ObjectIdentifier>()
    private static let queues = IdentityTable<DispatchQueue>()
    private static let lock = NSLock()

    static func queue(for coordinator: PersistentStoreCoordinator) -> DispatchQueue {
        lock.withLock {
            if let queue = queues.value(for: coordinator) { return queue }
            let queue = DispatchQueue(label: "NSPersistentStoreCoordinator")
            queue.setSpecific(key: key, value: ObjectIdentifier(queue))
            queues.set(queue, for: coordinator)
            return queue
        }
    }
}
