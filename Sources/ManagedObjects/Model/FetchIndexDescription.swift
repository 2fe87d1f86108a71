/// An index of an entity's table (a model's `<fetchIndex>`). Core Data's `NSFetchIndexDescription`.
/// An entity in use gives its model's indexes; on a draft entity, ``EntityDescription/indexes``
/// is kept as set and becomes the model's when the model is first used.
public final class FetchIndexDescription: @unchecked Sendable {
    // Unchecked: changed only by the code that builds a model, before the model is in use.
    public var name: String
    public var elements: [FetchIndexElementDescription]
    /// The entity whose ``EntityDescription/indexes`` hold it.
    public internal(set) weak var entity: EntityDescription?

    public init(name: String, elements: [FetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
    }
}
