import DataModel
import Foundation

/// A relationship at run time, with its destination entity and inverse resolved.
/// Core Data's `NSRelationshipDescription`. `init()` makes a draft (see ``PropertyDescription``),
/// whose destination and inverse are set as objects; using its model resolves them by name.
public final class RelationshipDescription: PropertyDescription, @unchecked Sendable {
    // Unchecked: as its superclass (`PropertyDescription`): changed only as a draft.
    /// The model's relationship; a draft's setters change it (its destination and inverse
    /// names are filled in from ``destinationEntity`` and ``inverseRelationship`` when its
    /// model is first used).
    @exclusivity(unchecked) public private(set) var relationship: Relationship
    @exclusivity(unchecked) private var destination: EntityDescription?
    @exclusivity(unchecked) private var inverse: RelationshipDescription?

    init(_ relationship: Relationship, index: Int) {
        self.relationship = relationship
        super.init(tag: .relationship, index: index, isDraft: false)
    }

    /// A draft relationship: no name, no destination, an optional to-one that nullifies (Core
    /// Data's defaults).
    public init() {
        relationship = Relationship(name: "", destinationEntity: nil, isOptional: true, maxCount: 1)
        super.init(tag: .relationship, index: -1, isDraft: true)
    }

    /// Takes the relationship as its model holds it, at its property index.
    func adopt(_ relationship: Relationship, index: Int) {
        self.relationship = relationship
        self.index = index
    }

    /// Applies `mutate` to a draft's relationship; logs and ignores it otherwise.
    @_spi(CoreData) public func change(_ key: String, _ mutate: (inout Relationship) -> Void) {
        guard isEditable else { return ModelEditing.ignore(key, of: description) }
        mutate(&relationship)
    }

    /// Points the relationship at the entity the model names as its destination (`entity` is
    /// set by the entity that lists it).
    func resolveDestination(in model: ManagedObjectModel) {
        destination = relationship.destinationEntity.flatMap { model[$0] }
    }

    func resolveInverse() {
        inverse = relationship.inverseName.flatMap { name in destination?.relationship(named: name) }
    }

    /// `nil` only for an unfinished relationship (no destination in the file, or none set yet).
    public var destinationEntity: EntityDescription? {
        get { destination }
        set {
            guard isEditable else { return ModelEditing.ignore("destinationEntity", of: description) }
            destination = newValue
        }
    }

    public var inverseRelationship: RelationshipDescription? {
        get { inverse }
        set {
            guard isEditable else { return ModelEditing.ignore("inverseRelationship", of: description) }
            inverse = newValue
        }
    }

    public var isToMany: Bool {
        get { relationship.isToMany }
        set { change("isToMany") { $0.isToMany = newValue } }
    }

    public var isOrdered: Bool {
        get { relationship.isOrdered }
        set { change("isOrdered") { $0.isOrdered = newValue } }
    }

    public var deleteRule: DeleteRule {
        get { relationship.deleteRule }
        set { change("deleteRule") { $0.deleteRule = newValue } }
    }

    /// The fewest related objects a save accepts (`nil`: no bound).
    public var minCount: Int? {
        get { relationship.minCount }
        set { change("minCount") { $0.minCount = newValue } }
    }

    /// The most related objects a save accepts (`nil`: no bound; a to-one's is 1).
    public var maxCount: Int? {
        get { relationship.maxCount }
        set { change("maxCount") { $0.maxCount = newValue } }
    }

    public override var description: String {
        "RelationshipDescription(\(name) -> \(destination?.name ?? relationship.destinationEntity ?? "?"))"
    }
}
