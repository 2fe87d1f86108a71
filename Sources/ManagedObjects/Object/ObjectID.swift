import Foundation

/// A `ManagedObjectID` that says which class its object is: `ObjectID<Tweet>`. Managed objects
/// stay on their context's queue; their IDs may go anywhere (another task, a JSON response, a
/// snapshot), and this one comes back as a `Tweet` without a cast:
/// `context.object(with: id)` returns a `Tweet`.
///
/// Codable as its URI (`x-coredata://<store>/Tweet/p12`, as `uriRepresentation`). Decoding
/// finds the entity in the model given under ``ObjectID/persistentStoreCoordinatorKey`` in the
/// decoder's `userInfo` (the ID must then name one of its stores), else in the generated model
/// that binds `Object`'s class; a URI naming no entity of `Object` (or of a sub-entity) fails
/// with `DecodingError.dataCorrupted`. A temporary ID decodes only in the process that made it.
public struct ObjectID<Object: ManagedObject>: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The untyped ID.
    public let managedObjectID: ManagedObjectID

    /// `id` typed, when its entity's class is `Object` or a subclass of it.
    public init?(_ id: ManagedObjectID) {
        guard id.entity.managedObjectClass is Object.Type else { return nil }
        managedObjectID = id
    }

    /// For IDs whose class is known to be `Object` (`typedObjectID`, a snapshot's values).
    @usableFromInline init(unchecked id: ManagedObjectID) {
        managedObjectID = id
    }

    public var uriRepresentation: URL { managedObjectID.uriRepresentation }
    public var isTemporaryID: Bool { managedObjectID.isTemporaryID }
    public var description: String { managedObjectID.description }

    /// The `userInfo` key of a `PersistentStoreCoordinator` that decoding reads IDs against.
    public static var persistentStoreCoordinatorKey: CodingUserInfoKey {
        CodingUserInfoKey(rawValue: "ManagedObjects.ObjectID.persistentStoreCoordinator")!
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(managedObjectID.uriRepresentation.absoluteString)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        func failure(_ reason: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "ObjectID<\(Object.self)> '\(text)': \(reason)"))
        }
        guard let uri = URL(string: text) else { throw failure("not a URI") }
        let id: ManagedObjectID?
        if let coordinator = decoder.userInfo[Self.persistentStoreCoordinatorKey] as? PersistentStoreCoordinator {
            id = coordinator.managedObjectID(forURIRepresentation: uri)
                ?? ManagedObjectID(uri: uri, in: coordinator.managedObjectModel).flatMap { $0.isTemporaryID ? $0 : nil }
        } else if let model = GeneratedModels.entity(for: Object.self)?.managedObjectModel {
            id = ManagedObjectID(uri: uri, in: model)
        } else {
            throw failure("no generated model binds \(Object.self), and the decoder's userInfo has no coordinator under ObjectID.persistentStoreCoordinatorKey")
        }
        guard let id else { throw failure("not an object ID of this model and its stores") }
        guard let typed = Self(id) else { throw failure("entity \(id.entity.name) is not a \(Object.self)") }
        self = typed
    }
}

extension FetchableManagedObject {
    /// The object's ID, typed with its class (temporary until the object is first saved).
    public var typedObjectID: ObjectID<Self> { ObjectID(unchecked: objectID) }
}
