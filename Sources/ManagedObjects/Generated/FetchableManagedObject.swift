/// Typed fetch conveniences for generated classes: `Dog.fetch(in:)` returns `[Dog]` and fetches
/// the `Dog` entity (with its sub-entities), `Animal.fetch(in:)` returns `[Animal]`. The topmost
/// generated class of each class tree conforms; its subclasses inherit the conformance, and
/// `Self` is the class the method is called on. Written once here instead of in every class.
public protocol FetchableManagedObject: ManagedObject {
    /// The property each key path from `Self` reads (`\Tweet.text: "text"`, a wrapper such as
    /// `\Flight.origin: "origin_"`), so typed queries (`#Predicate`, `SortDescriptor`) become
    /// the format-string syntax stores run. Generated; empty by default.
    static var propertyNamesByKeyPath: [AnyKeyPath: String] { get }
}

extension FetchableManagedObject {
    /// The objects of this class's entity matching `predicate`, sorted.
    public static func fetch(
        _ predicate: ObjectPredicate? = nil,
        sortedBy sortDescriptors: [ObjectSortDescriptor] = [],
        in context: ManagedObjectContext
    ) throws -> [Self] {
        try context.fetch(FetchRequest<Self>(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors))
    }

    /// How many objects of this class's entity match `predicate`.
    public static func count(_ predicate: ObjectPredicate? = nil, in context: ManagedObjectContext) throws -> Int {
        try context.count(for: FetchRequest<Self>(entityName: entityName, predicate: predicate))
    }

    /// The first of the objects of this class's entity matching `predicate` in sort order, if any.
    public static func first(
        _ predicate: ObjectPredicate? = nil,
        sortedBy sortDescriptors: [ObjectSortDescriptor] = [],
        in context: ManagedObjectContext
    ) throws -> Self? {
        let request = FetchRequest<Self>(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    /// Find-or-insert by a single-attribute uniqueness constraint (generated `with<Name>(_:in:)`):
    /// the object of this class's entity whose attribute `key` (at `propertyIndex`) is `value`,
    /// else a new object of this class's entity with that value.
    static func findOrInsert<Value>(
        _ key: String, _ value: Value, at propertyIndex: Int, in context: ManagedObjectContext
    ) throws -> Self {
        if let existing = try first(ObjectPredicate("%K == %@", key, value), in: context) {
            return existing
        }
        // `init(context:)` is not `required`, so `Self` is built with the initializer that is.
        guard let entity = context.managedObjectModel.entity(for: Self.self) else {
            throw ManagedObjectError(
                .invalidFetchRequest, "\(Self.self): the context's model has no entity named '\(entityName)'",
                entityName: entityName)
        }
        let inserted = Self(entity: entity, insertInto: context)
        inserted.setAttributeValue(value, at: propertyIndex)
        return inserted
    }
}
