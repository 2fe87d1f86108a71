import Foundation

/// The identity of an object across contexts and stores. Core Data's `NSManagedObjectID`.
///
/// A newly inserted object has a temporary ID (`x-coredata:///Dog/t<UUID><N>`: one UUID per
/// process, a number per object, as Core Data writes them); saving replaces it
/// with a permanent one assigned by the store (`x-coredata://<store-uuid>/Dog/p<N>`). A
/// temporary ID is never equal to the permanent ID that replaces it.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    enum Key: Hashable, Sendable {
        case temporary(UInt64)
        case permanent(storeIdentifier: String, number: Int64)
    }

    public let entity: EntityDescription
    let key: Key

    init(entity: EntityDescription, key: Key) {
        self.entity = entity
        self.key = key
    }

    /// Temporary IDs are a process-wide UUID and a counter: cheaper than a random UUID each
    /// (which reads the system's random source) and as unique within the process.
    private static let temporaryPrefix = UUID().uuidString
    private static let temporaryCounter = LockedValue<UInt64>(0)

    static func temporary(for entity: EntityDescription) -> ManagedObjectID {
        let number = temporaryCounter.withLock { counter in
            counter += 1
            return counter
        }
        return ManagedObjectID(entity: entity, key: .temporary(number))
    }

    public var isTemporaryID: Bool {
        if case .temporary = key { true } else { false }
    }

    /// The identifier of the store that assigned a permanent ID.
    public var storeIdentifier: String? {
        if case .permanent(let store, _) = key { store } else { nil }
    }

    /// The store's number for the object (the `N` of `p<N>`), for a permanent ID.
    public var storeNumber: Int64? {
        if case .permanent(_, let number) = key { number } else { nil }
    }

    /// The URI form Core Data uses; `PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)`
    /// reads it back.
    public var uriRepresentation: URL {
        switch key {
        case .temporary(let number):
            URL(string: "x-coredata:///\(entity.name)/t\(Self.temporaryPrefix)\(number)")!
        case .permanent(let store, let number):
            URL(string: "x-coredata://\(store)/\(entity.name)/p\(number)")!
        }
    }

    public var description: String { uriRepresentation.absoluteString }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && lhs.entity === rhs.entity
    }

    /// Hashes the number and the entity only: IDs are hashed on every look-up of a context,
    /// the row cache and the stores, and the store identifier (a 36-character UUID) rarely
    /// tells two IDs apart that these do not (equality still compares it).
    public func hash(into hasher: inout Hasher) {
        switch key {
        case .temporary(let number): hasher.combine(number)
        case .permanent(_, let number): hasher.combine(number)
        }
        hasher.combine(ObjectIdentifier(entity))
    }
}

/// Predicates compare an ID with an object by identity of the stored object.
extension ManagedObjectID: ObjectIdentifying {
    public var objectIDValue: AnyHashable { self }
}
