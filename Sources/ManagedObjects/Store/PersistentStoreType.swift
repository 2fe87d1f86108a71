import Foundation

/// A kind of persistent store. Core Data's `NSPersistentStore.StoreType`.
public struct PersistentStoreType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Objects kept in memory for the life of the coordinator.
    public static let inMemory = PersistentStoreType(rawValue: "InMemory")
    /// An SQLite file in Core Data's own format (``SQLiteStore``).
    public static let sqlite = PersistentStoreType(rawValue: "SQLite")
    /// A file holding the whole object graph, read at open and replaced at each save
    /// (``AtomicStore``, in a binary property list). Core Data's `NSBinaryStoreType`.
    public static let binary = PersistentStoreType(rawValue: "Binary")
    /// ``binary``'s XML counterpart (``AtomicStore``). Core Data's `NSXMLStoreType`.
    public static let xml = PersistentStoreType(rawValue: "XML")

    public var description: String { rawValue }
}
