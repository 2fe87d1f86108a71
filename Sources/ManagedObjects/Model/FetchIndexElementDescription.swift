import DataModel
/// One column of a ``FetchIndexDescription``: a property, its kind of index and its order.
/// Core Data's `NSFetchIndexElementDescription`.
public final class FetchIndexElementDescription: @unchecked Sendable {
    // Unchecked: changed only by the code that builds a model, before the model is in use.
    /// The indexed property, when the element was made from one.
    public var property: PropertyDescription?
    /// The indexed property's name (the property's own name when made from one).
    public var propertyName: String?
    public var collationType: FetchIndexElementType
    public var isAscending = true

    public init(property: PropertyDescription, collationType: FetchIndexElementType) {
        self.property = property
        self.collationType = collationType
    }

    init(_ element: FetchIndex.Element, property: PropertyDescription?) {
        self.property = property
        propertyName = element.property
        collationType = element.type.lowercased() == "rtree" ? .rTree : .binary
        isAscending = element.ascending
    }

    /// The model's form of the element: the property by name.
    var modelElement: FetchIndex.Element {
        FetchIndex.Element(
            property: property?.name ?? propertyName, type: collationType == .rTree ? "RTree" : "Binary", ascending: isAscending)
    }
}
