import Foundation

/// A property of an entity: an attribute, a relationship or a fetched property. Core Data's
/// `NSPropertyDescription`, subclassed as there (``AttributeDescription``,
/// ``RelationshipDescription``, ``FetchedPropertyDescription``).
///
/// One made with a subclass's `init()` is a draft: its setters change it until the model its
/// entity belongs to is first used (``ManagedObjectModel/init()``). One of a model built from a
/// `Model` (a model file, generated code) is never changed: its setters are ignored and logged.
public class PropertyDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    // Unchecked: a description changes only as a draft, before a coordinator uses its model
    // (and with it, other threads); its runtime form is filled in once, while that model is
    // resolved. `@exclusivity(unchecked)` as in `EntityDescription`: every object's work reads them.

    /// What a property is, to switch over: `switch property.kind { case .attribute(let attribute): … }`.
    public enum Kind {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription)
        /// Never among an entity in use's ``EntityDescription/properties``, which are stored.
        case fetchedProperty(FetchedPropertyDescription)
    }

    enum Tag { case attribute, relationship, fetchedProperty }

    /// Which subclass this is: `kind` reads it rather than casting.
    let tag: Tag
    /// Made with `init()`: a draft, changed by its setters while its model is not in use.
    let isDraft: Bool
    /// The property index: the position in `Model.storedProperties(of:)`. -1 for a fetched
    /// property, and for a draft until its model is used.
    @exclusivity(unchecked) public internal(set) var index: Int
    /// The entity that declares the property (for an inherited one, the ancestor); `nil` for a
    /// draft not yet in an entity's ``EntityDescription/properties``.
    @exclusivity(unchecked) public internal(set) var entity: EntityDescription!

    init(tag: Tag, index: Int, isDraft: Bool) {
        self.tag = tag
        self.index = index
        self.isDraft = isDraft
    }

    public final var kind: Kind {
        switch tag {
        case .attribute: .attribute(unsafeDowncast(self, to: AttributeDescription.self))
        case .relationship: .relationship(unsafeDowncast(self, to: RelationshipDescription.self))
        case .fetchedProperty: .fetchedProperty(unsafeDowncast(self, to: FetchedPropertyDescription.self))
        }
    }

    public final var name: String {
        get {
            switch kind {
            case .attribute(let attribute): attribute.attribute.name
            case .relationship(let relationship): relationship.relationship.name
            case .fetchedProperty(let fetched): fetched.fetchedProperty.name
            }
        }
        set {
            switch kind {
            case .attribute(let attribute): attribute.change("name") { $0.name = newValue }
            case .relationship(let relationship): relationship.change("name") { $0.name = newValue }
            case .fetchedProperty(let fetched): fetched.change("name") { $0.name = newValue }
            }
        }
    }

    /// Whether an object may have no value for it (Core Data's default for a new description).
    public final var isOptional: Bool {
        get {
            switch kind {
            case .attribute(let attribute): attribute.attribute.isOptional
            case .relationship(let relationship): relationship.relationship.isOptional
            case .fetchedProperty(let fetched): fetched.fetchedProperty.isOptional
            }
        }
        set {
            switch kind {
            case .attribute(let attribute): attribute.change("isOptional") { $0.isOptional = newValue }
            case .relationship(let relationship): relationship.change("isOptional") { $0.isOptional = newValue }
            case .fetchedProperty(let fetched): fetched.change("isOptional") { $0.isOptional = newValue }
            }
        }
    }

    /// Whether the store does not keep it. A fetched property is never stored.
    public final var isTransient: Bool {
        get {
            switch kind {
            case .attribute(let attribute): attribute.attribute.isTransient
            case .relationship(let relationship): relationship.relationship.isTransient
            case .fetchedProperty: true
            }
        }
        set {
            switch kind {
            case .attribute(let attribute): attribute.change("isTransient") { $0.isTransient = newValue }
            case .relationship(let relationship): relationship.change("isTransient") { $0.isTransient = newValue }
            case .fetchedProperty: ModelEditing.ignore("isTransient", of: description, because: "a fetched property is never stored")
            }
        }
    }

    /// The model's `spotlightIndexingEnabled` (Core Data's `isIndexedBySpotlight`); read by nothing here.
    public final var isIndexedBySpotlight: Bool {
        get {
            switch kind {
            case .attribute(let attribute): attribute.attribute.spotlightIndexingEnabled
            case .relationship(let relationship): relationship.relationship.spotlightIndexingEnabled
            case .fetchedProperty: false
            }
        }
        set {
            switch kind {
            case .attribute(let attribute): attribute.change("isIndexedBySpotlight") { $0.spotlightIndexingEnabled = newValue }
            case .relationship(let relationship): relationship.change("isIndexedBySpotlight") { $0.spotlightIndexingEnabled = newValue }
            case .fetchedProperty: ModelEditing.ignore("isIndexedBySpotlight", of: description, because: "a fetched property has no index")
            }
        }
    }

    /// Whether a setter may change this description: a draft whose entity is editable.
    final var isEditable: Bool { isDraft && (entity?.isEditable ?? true) }

    public var description: String { "PropertyDescription(\(name))" }

    /// Descriptions are equal when they are the same description (one per property of an
    /// entity, as Core Data's `NSPropertyDescription` compares): a history change's
    /// `updatedProperties` is a set of them.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
