import Foundation

/// An object as a store holds it: its permanent ID, a version that increases with every saved
/// change, and one value per property index.
public struct StoredObject: Sendable {
    public var objectID: ManagedObjectID
    public var version: Int
    public var values: [StoredValue]

    public init(objectID: ManagedObjectID, version: Int, values: [StoredValue]) {
        self.objectID = objectID
        self.version = version
        self.values = values
    }
}
