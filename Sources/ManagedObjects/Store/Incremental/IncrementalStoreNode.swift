import Foundation

/// One object's values as a store that an app writes gives them
/// (``IncrementalStore/newValuesForObject(with:with:)``): Core Data's `NSIncrementalStoreNode`.
///
/// `values` are keyed by property name: an attribute's value (`NSNull` or a missing key: no
/// value; an `NSNumber` or `Int` for a numeric attribute is converted as `setValue(_:forKey:)`
/// converts it); a to-one's related `ManagedObjectID` (or the object), `NSNull` for none; a
/// to-many's IDs (or objects) as an array, set or ordered set. A relationship left out is
/// asked of ``IncrementalStore/newValue(forRelationship:forObjectWith:with:)``: a to-many when
/// it is first used, a to-one when the node is read. `version` should grow with each save of
/// the object: contexts keep the newest version they have read.
open class IncrementalStoreNode: @unchecked Sendable {
    // Unchecked: a node is made and read by the store's calls, which the store serializes.
    public let objectID: ManagedObjectID
    public private(set) var version: UInt64
    private(set) var values: [String: Any]

    public init(objectID: ManagedObjectID, withValues values: [String: Any], version: UInt64) {
        self.objectID = objectID
        self.values = values
        self.version = version
    }

    /// Replaces the values and the version, as Core Data's `update(withValues:version:)`.
    open func update(withValues values: [String: Any], version: UInt64) {
        self.values = values
        self.version = version
    }

    /// The value given for `property`, `nil` when none was.
    open func value(for property: PropertyDescription) -> Any? {
        values[property.name]
    }
}
