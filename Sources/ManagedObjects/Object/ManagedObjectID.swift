import Foundation

/// The identity of an object across contexts and stores. Core Data's `NSManagedObjectID`.
///
/// A newly inserted object has a temporary ID (`x-coredata:///Dog/t<UUID><N>`: one UUID per
/// process, a number per object, as Core Data writes them); saving replaces it
/// with a permanent one assigned by the store (`x-coredata://<store-uuid>/Dog/p<N>`). A
/// temporary ID is never equal to the permanent ID that replaces it.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    /// A store's identifier and number, or (no identifier) a temporary number: two fields
    /// rather than an enum, so an ID takes 32 bytes, not 40, in every object, snapshot and
    /// look-up table that holds one.
    struct Key: Hashable, Sendable {
        let storeIdentifier: String?
        let number: Int64

        static func temporary(_ number: UInt64) -> Key {
            Key(storeIdentifier: nil, number: Int64(bitPattern: number))
        }

        static func permanent(storeIdentifier: String, number: Int64) -> Key {
            Key(storeIdentifier: storeIdentifier, number: number)
        }
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

    /// The permanent ID a store gives its object `number` of `entity`.
    package static func permanent(entity: EntityDescription, storeIdentifier: String, number: Int64) -> ManagedObjectID {
        ManagedObjectID(entity: entity, key: .permanent(storeIdentifier: storeIdentifier, number: number))
    }

    public var isTemporaryID: Bool { key.storeIdentifier == nil }

    /// The identifier of the store that assigned a permanent ID.
    public var storeIdentifier: String? { key.storeIdentifier }

    /// The store's number for the object (the `N` of `p<N>`), for a permanent ID.
    public var storeNumber: Int64? { key.storeIdentifier == nil ? nil : key.number }

    /// The URI form Core Data uses; `PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)`
    /// reads it back.
    public var uriRepresentation: URL {
        if let store = key.storeIdentifier {
            URL(string: "x-coredata://\(store)/\(entity.name)/p\(key.number)")!
        } else {
            URL(string: "x-coredata:///\(entity.name)/t\(Self.temporaryPrefix)\(UInt64(bitPattern: key.number))")!
        }
    }

    public var description: String { uriRepresentation.absoluteString }

    /// The ID a URI from `uriRepresentation` names, when it names an entity of `model`: a
    /// permanent one (`x-coredata://<store>/<Entity>/p<N>`, the store taken as written), or a
    /// temporary one this process handed out (`x-coredata:///<Entity>/t<UUID><N>`). The
    /// coordinator's `managedObjectID(forURIRepresentation:)` and `ObjectID`'s decoding read
    /// URIs through this.
    init?(uri: URL, in model: ManagedObjectModel) {
        guard uri.scheme == "x-coredata" else { return nil }
        let parts = uri.path.split(separator: "/")
        guard parts.count == 2, let entity = model[String(parts[0])] else { return nil }
        let reference = parts[1]
        if let host = uri.host, !host.isEmpty {
            guard reference.first == "p", let number = Int64(reference.dropFirst()) else { return nil }
            self.init(entity: entity, key: .permanent(storeIdentifier: host, number: number))
        } else {
            let prefix = "t" + Self.temporaryPrefix
            guard reference.hasPrefix(prefix), let number = UInt64(reference.dropFirst(prefix.count)) else { return nil }
            self.init(entity: entity, key: .temporary(number))
        }
    }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && lhs.entity === rhs.entity
    }

    /// Hashes the number and the entity only: IDs are hashed on every look-up of a context,
    /// the row cache and the stores, and the store identifier (a 36-character UUID) rarely
    /// tells two IDs apart that these do not (equality still compares it). Both go in as one
    /// word, one `combine` instead of two: the number spread by an odd multiplier (so that
    /// numbers of two entities do not cancel out against their addresses), mixed with the
    /// entity's address.
    public func hash(into hasher: inout Hasher) {
        let number = UInt64(bitPattern: key.number) &* 0x9E37_79B9_7F4A_7C15
        hasher.combine(number ^ UInt64(UInt(bitPattern: ObjectIdentifier(entity))))
    }
}

/// Predicates compare an ID with an object by identity of the stored object.
extension ManagedObjectID: ObjectIdentifying {
    public var objectIDValue: AnyHashable { self }
}
