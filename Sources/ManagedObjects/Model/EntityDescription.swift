import DataModel
import Foundation

/// An entity at run time: its stored properties by index and by name, its place in the
/// inheritance tree and the class that represents it. Core Data's `NSEntityDescription`.
///
/// One made with `init()` is a draft: its setters (and those of its properties) change it
/// until its model is first used; then it becomes the runtime form of its entity in the
/// `Model` the model builds from its drafts. One of a model built from a `Model` is never
/// changed: its setters are ignored and logged (``ManagedObjectModel/init()``).
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: a draft is changed only before a coordinator uses its model; the runtime
    // form is filled in once, while the owning `ManagedObjectModel` is resolved, and never
    // mutated afterwards. `@exclusivity(unchecked)`: every object's creation, registration,
    // reads and saves read these, and a dynamic exclusivity check would cost more than the read.

    /// The model's entity. A draft's name, abstractness and class name live here; the rest
    /// (properties, parent, constraints, indexes) is filled in when its model is first used.
    @exclusivity(unchecked) public private(set) var entity: Entity
    /// What a draft holds until its model is resolved; `nil` for an entity in use.
    @exclusivity(unchecked) private(set) var draft: EntityDraft?

    /// The stored properties, inherited first, in property-index order (`Model.storedProperties(of:)`).
    @exclusivity(unchecked) private var storedProperties: [PropertyDescription] = []
    @exclusivity(unchecked) private var storedPropertiesByName: [String: PropertyDescription] = [:]
    @exclusivity(unchecked) private var storedFetchedProperties: [FetchedPropertyDescription] = []
    /// The values a new object starts with, by property index: attribute defaults, empty
    /// to-manys. Worked out once: every insert copies it (`makeInitialValues()`).
    @exclusivity(unchecked) private(set) var initialValues: [Any?] = []
    /// Whether every initial value is `nil` or plain data held inside its `Any?` (no reference
    /// to retain, nothing boxed), so the array can be copied byte for byte.
    @exclusivity(unchecked) private(set) var initialValuesArePlainData = true
    /// Each property's slot by property index, as plain values: the per-value work of a save
    /// (snapshots, validation) reads these rather than the descriptions, which it would retain
    /// and release for every value of every saved object.
    @exclusivity(unchecked) private(set) var slots: [PropertySlot] = []
    /// The indexes of the transient properties, which the store does not keep.
    @exclusivity(unchecked) private(set) var transientIndexes: [Int] = []
    /// The derived attributes, which a save to the store computes (`DerivedAttributes`).
    @exclusivity(unchecked) private(set) var derivedAttributes: [AttributeDescription] = []
    @exclusivity(unchecked) private var storedSuperentity: EntityDescription?
    @exclusivity(unchecked) private var storedSubentities: [EntityDescription] = []
    @exclusivity(unchecked) private var storedClass: ManagedObject.Type = ManagedObject.self
    @exclusivity(unchecked) private var storedModel: ManagedObjectModel?
    /// The entity's position in its model's `entities`.
    @exclusivity(unchecked) private(set) var indexInModel = 0

    init(entity: Entity, model: Model) {
        self.entity = entity
        adopt(entity, of: model)
    }

    /// A draft entity: no name, no properties, represented by `ManagedObject`.
    public init() {
        entity = Entity(name: "")
        draft = EntityDraft()
    }

    // MARK: The runtime form

    /// Fills in the runtime form of `entity` as `model` holds it. A draft's own properties
    /// become the runtime form of the model's properties of their names.
    func adopt(_ entity: Entity, of model: Model) {
        self.entity = entity
        let drafts = Dictionary((draft?.properties ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let declarations = model.storedProperties(of: entity)
        let inheritedCount = declarations.count - entity.attributes.count - entity.relationships.count
        var properties: [PropertyDescription] = []
        for (index, declaration) in declarations.enumerated() {
            let own = index >= inheritedCount ? drafts[declaration.name] : nil
            switch declaration {
            case .attribute(let attribute):
                if let own = own as? AttributeDescription {
                    own.adopt(attribute, index: index)
                    properties.append(own)
                } else {
                    properties.append(AttributeDescription(attribute, index: index))
                }
            case .relationship(let relationship):
                if let own = own as? RelationshipDescription {
                    own.adopt(relationship, index: index)
                    properties.append(own)
                } else {
                    properties.append(RelationshipDescription(relationship, index: index))
                }
            }
        }
        storedProperties = properties
        storedFetchedProperties = entity.fetchedProperties.map { fetched in
            guard let own = drafts[fetched.name] as? FetchedPropertyDescription else { return FetchedPropertyDescription(fetched) }
            own.adopt(fetched)
            return own
        }
        initialValues = properties.map { property -> Any? in
            switch property.kind {
            case .attribute(let attribute): attribute.defaultValue
            case .relationship(let relationship): relationship.isToMany ? OrderedSet<ManagedObject>() : nil
            case .fetchedProperty: nil
            }
        }
        initialValuesArePlainData = initialValues.allSatisfy { $0.map(Self.isPlainDataInline) ?? true }
        slots = properties.map(PropertySlot.init)
        transientIndexes = properties.filter(\.isTransient).map(\.index)
        derivedAttributes = properties.compactMap { property in
            guard case .attribute(let attribute) = property.kind, attribute.derivation != nil else { return nil }
            return attribute
        }
        // A sub-entity may redeclare an inherited name (validation reports it); the first wins.
        storedPropertiesByName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A new object's own copy of `initialValues`. Byte for byte when they are plain data: a
    /// new object is written to at once, and copying on that first write went through each
    /// value's type, a tenth of filling in a new object.
    func makeInitialValues() -> [Any?] {
        guard initialValuesArePlainData else { return initialValues }
        return Array(unsafeUninitializedCapacity: initialValues.count) { values, count in
            initialValues.withUnsafeBytes { UnsafeMutableRawBufferPointer(values).copyMemory(from: $0) }
            count = initialValues.count
        }
    }

    /// Whether `value` is plain data (no references) small enough for an `Any`'s inline
    /// buffer of three words, where Swift keeps it rather than in a box.
    private static func isPlainDataInline(_ value: Any) -> Bool {
        func check<Value>(_: Value) -> Bool {
            _isPOD(Value.self) && MemoryLayout<Value>.size <= 3 * MemoryLayout<Int>.size
                && MemoryLayout<Value>.alignment <= MemoryLayout<Int>.alignment
        }
        return _openExistential(value, do: check)
    }

    func resolve(in model: ManagedObjectModel, index: Int, classes: [String: ManagedObject.Type]) {
        draft = nil
        storedModel = model
        indexInModel = index
        storedSuperentity = entity.parentEntity.flatMap { model[$0] }
        storedSubentities = model.model.subentities(of: entity).compactMap { model[$0.name] }
        // The nearest class registered for this entity or an ancestor.
        let chain = model.model.inheritanceChain(of: entity)
        storedClass = chain.reversed().lazy.compactMap { classes[$0.name] }.first ?? ManagedObject.self
        // Inherited properties appear in every sub-entity's list; the declaring one owns them.
        for property in storedProperties {
            let declaring = chain.first { $0.propertyNames.contains(property.name) }
            property.entity = declaring.flatMap { model[$0.name] } ?? self
            if case .relationship(let relationship) = property.kind {
                relationship.resolveDestination(in: model)
            }
        }
        for property in storedFetchedProperties {
            property.entity = self
        }
    }

    func resolveInverses() {
        for case .relationship(let relationship) in storedProperties.lazy.map(\.kind) {
            relationship.resolveInverse()
        }
    }

    // MARK: Reading and editing

    /// Whether a setter may change the entity: a draft whose model is not in use.
    var isEditable: Bool {
        guard let draft else { return false }
        return draft.model?.isEditable ?? true
    }

    /// Applies `mutate` to a draft's `Entity` value; logs and ignores it otherwise.
    @_spi(CoreData) public func change(_ key: String, _ mutate: (inout Entity) -> Void) {
        edit(key) { _ in mutate(&entity) }
    }

    /// Applies `change` to a draft; logs and ignores it otherwise.
    private func edit(_ key: String, _ change: (EntityDraft) -> Void) {
        guard isEditable, let draft else { return ModelEditing.ignore(key, of: description) }
        change(draft)
    }

    public var name: String {
        get { entity.name }
        set { edit("name") { _ in entity.name = newValue } }
    }

    public var isAbstract: Bool {
        get { entity.isAbstract }
        set { edit("isAbstract") { _ in entity.isAbstract = newValue } }
    }

    /// The class name the model gives (`representedClassName`); `NSManagedObject` when none.
    public var managedObjectClassName: String {
        get { entity.representedClassName ?? "NSManagedObject" }
        set { edit("managedObjectClassName") { _ in entity.representedClassName = newValue } }
    }

    /// The class instances of this entity are made of. Set on a draft, the class the model
    /// binds to the entity (otherwise `ManagedObject`, or an ancestor's class); a draft's
    /// ``managedObjectClassName`` does not look a class up by name.
    public var managedObjectClass: ManagedObject.Type {
        get { draft?.managedObjectClass ?? storedClass }
        set { edit("managedObjectClass") { $0.managedObjectClass = newValue } }
    }

    /// The model this entity belongs to (a draft: the model whose `entities` it was put in).
    public var managedObjectModel: ManagedObjectModel! {
        if let draft { return draft.model }
        return storedModel
    }

    /// The stored properties, inherited first, in property-index order
    /// (`Model.storedProperties(of:)`). On a draft: the inherited properties, then its own as
    /// set (fetched properties included, as Core Data's); setting it sets a draft's own
    /// properties (inherited ones in the new value are left out).
    public var properties: [PropertyDescription] {
        get {
            guard let draft else { return storedProperties }
            return ancestors.reversed().flatMap { $0.draft?.properties ?? $0.storedProperties } + draft.properties
        }
        set {
            edit("properties") { draft in
                let inherited = Set(ancestors.flatMap { $0.draft?.properties ?? [] }.map(ObjectIdentifier.init))
                for property in draft.properties where property.entity === self { property.entity = nil }
                draft.properties = newValue.filter { !inherited.contains(ObjectIdentifier($0)) }
                for property in draft.properties { property.entity = self }
            }
        }
    }

    /// The superentity, its superentity and so on (stopping at a cycle, which using the model reports).
    private var ancestors: [EntityDescription] {
        var chain: [EntityDescription] = []
        var current = superentity
        while let entity = current, entity !== self, !chain.contains(where: { $0 === entity }) {
            chain.append(entity)
            current = entity.superentity
        }
        return chain
    }

    public var propertiesByName: [String: PropertyDescription] {
        guard draft != nil else { return storedPropertiesByName }
        return Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity's fetched properties (not stored, so not among ``properties`` once in use).
    public var fetchedProperties: [FetchedPropertyDescription] {
        guard draft != nil else { return storedFetchedProperties }
        return properties.compactMap { if case .fetchedProperty(let fetched) = $0.kind { fetched } else { nil } }
    }

    public var superentity: EntityDescription? {
        if let draft { return draft.superentity }
        return storedSuperentity
    }

    /// Direct sub-entities, in model order. Setting it on a draft makes this entity their
    /// superentity (Core Data's only way to set one).
    public var subentities: [EntityDescription] {
        get { draft?.subentities ?? storedSubentities }
        set {
            edit("subentities") { draft in
                for entity in draft.subentities where entity.draft?.superentity === self { entity.draft?.superentity = nil }
                draft.subentities = newValue
                for entity in newValue { entity.draft?.superentity = self }
            }
        }
    }

    /// Each constraint lists property names (or properties) that together must be unique.
    public var uniquenessConstraints: [[Any]] {
        get { draft?.uniquenessConstraints ?? entity.uniquenessConstraints.map { $0 as [Any] } }
        set { edit("uniquenessConstraints") { $0.uniquenessConstraints = newValue } }
    }

    /// The entity's fetch indexes (`<fetchIndex>`).
    public var indexes: [FetchIndexDescription] {
        get {
            if let draft { return draft.indexes }
            return entity.fetchIndexes.map { index in
                let description = FetchIndexDescription(name: index.name, elements: index.elements.map { element in
                    FetchIndexElementDescription(element, property: element.property.flatMap { propertiesByName[$0] })
                })
                description.entity = self
                return description
            }
        }
        set {
            edit("indexes") { draft in
                draft.indexes = newValue
                for index in newValue { index.entity = self }
            }
        }
    }

    /// All attributes, in property-index order.
    public var attributes: [AttributeDescription] {
        properties.compactMap { if case .attribute(let attribute) = $0.kind { attribute } else { nil } }
    }

    /// All relationships, in property-index order.
    public var relationships: [RelationshipDescription] {
        properties.compactMap { if case .relationship(let relationship) = $0.kind { relationship } else { nil } }
    }

    public func property(named name: String) -> PropertyDescription? { propertiesByName[name] }

    public func attribute(named name: String) -> AttributeDescription? {
        if case .attribute(let attribute)? = propertiesByName[name]?.kind { attribute } else { nil }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        if case .relationship(let relationship)? = propertiesByName[name]?.kind { relationship } else { nil }
    }

    /// The property at a property index.
    public subscript(index: Int) -> PropertyDescription { storedProperties[index] }

    /// Whether this entity is `other` or descends from it.
    public func isKind(of other: EntityDescription) -> Bool {
        var current: EntityDescription? = self
        while let entity = current {
            if entity === other { return true }
            current = entity.superentity
        }
        return false
    }

    /// This entity and all its descendants, depth first.
    public var selfAndDescendants: [EntityDescription] {
        [self] + subentities.flatMap(\.selfAndDescendants)
    }

    /// The root of this entity's inheritance tree.
    public var rootEntity: EntityDescription {
        var entity = self
        while let parent = entity.superentity { entity = parent }
        return entity
    }

    public var description: String { "EntityDescription(\(name))" }
}

/// What a draft entity holds beyond its `Entity` value until its model is first used: its
/// own properties and sub-entities as objects, which the model's `Model` names.
final class EntityDraft {
    var properties: [PropertyDescription] = []
    var subentities: [EntityDescription] = []
    weak var superentity: EntityDescription?
    var uniquenessConstraints: [[Any]] = []
    var indexes: [FetchIndexDescription] = []
    var managedObjectClass: ManagedObject.Type?
    /// The model whose `entities` hold the entity.
    weak var model: ManagedObjectModel?
}
