import Foundation

/// The runtime form of a model: entities with their properties resolved (inverses,
/// superentities, subentities), each entity bound to the class that represents it.
/// Core Data's `NSManagedObjectModel`.
///
/// Immutable once built. Generated code builds one per model as a `static let`; the
/// descriptions reference each other, so a model lives as long as anything that uses it.
public final class ManagedObjectModel: @unchecked Sendable {
    // Unchecked: `entities` and `entitiesByName` are filled once, during `init`, and never
    // mutated afterwards; every description they hold is immutable after `init` too. For the
    // same reason these and the entities' resolved references are `@exclusivity(unchecked)`:
    // every object's creation, registration and relationship work reads them, and a dynamic
    // exclusivity check would cost more than the read.

    /// The model as read from the file or written by the generator.
    public let model: Model
    /// Every entity, in model order.
    @exclusivity(unchecked) public private(set) var entities: [EntityDescription] = []
    @exclusivity(unchecked) public private(set) var entitiesByName: [String: EntityDescription] = [:]
    /// Entities by the class bound to them, for classes whose `entityName` names that entity:
    /// `entity(for:)` runs for every object made with `init(context:)`, and an identity look-up
    /// costs a fraction of hashing the name.
    @exclusivity(unchecked) private var entitiesByClass: [ObjectIdentifier: EntityDescription] = [:]
    /// Classes in `classes` generated for another layout of their entity (another version of
    /// the model): reading their properties by index would read the wrong values, so adding a
    /// store with this model throws, naming them. Empty when every class fits.
    public let classBindingErrors: [String]
    /// Whether an entity has a derived attribute: a save to the store computes them only then.
    let hasDerivedAttributes: Bool

    /// Builds the runtime model. `classes` maps entity names to the classes that represent them;
    /// an entity without a class is represented by a plain `ManagedObject` (or by its nearest
    /// ancestor's class).
    public init(_ model: Model, classes: [String: ManagedObject.Type] = [:]) {
        self.model = model
        classBindingErrors = Self.layoutMismatches(of: classes, in: model)
        let entities = model.entities.map { EntityDescription(entity: $0, model: model) }
        self.entities = entities
        hasDerivedAttributes = entities.contains { !$0.derivedAttributes.isEmpty }
        self.entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, entity) in entities.enumerated() {
            entity.resolve(in: self, index: index, classes: classes)
        }
        for entity in entities {
            entity.resolveInverses()
        }
        for entity in entities where entity.managedObjectClass.entityName == entity.name {
            entitiesByClass[ObjectIdentifier(entity.managedObjectClass)] = entity
        }
    }

    /// `init(_:classes:)` under the argument label Core Data users may expect.
    public convenience init(model: Model, classes: [String: ManagedObject.Type] = [:]) {
        self.init(model, classes: classes)
    }

    public subscript(entityName: String) -> EntityDescription? { entitiesByName[entityName] }

    private static func layoutMismatches(of classes: [String: ManagedObject.Type], in model: Model) -> [String] {
        classes.sorted { $0.key < $1.key }.compactMap { entityName, objectClass in
            guard let expected = objectClass.storedPropertyLayoutHash, let entity = model.entity(named: entityName),
                  model.storedPropertyLayoutHash(of: entity) != expected else { return nil }
            return "class '\(objectClass)' was generated for another layout of entity '\(entityName)' "
                + "(another version of the model): regenerate it from this model, or use the model it was generated from"
        }
    }

    /// The entity a class stands for: the one whose name is the class's `entityName`.
    public func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        entitiesByClass[ObjectIdentifier(objectClass)] ?? entitiesByName[objectClass.entityName]
    }
}

/// An entity at run time: its stored properties by index and by name, its place in the
/// inheritance tree and the class that represents it. Core Data's `NSEntityDescription`.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: the `private(set) var`s are resolved once while the owning
    // `ManagedObjectModel` is built and never mutated afterwards.

    public let entity: Entity
    public var name: String { entity.name }
    public var isAbstract: Bool { entity.isAbstract }
    /// The stored properties, inherited first, in property-index order
    /// (`Model.storedProperties(of:)`).
    public let properties: [PropertyDescription]
    public let propertiesByName: [String: PropertyDescription]
    /// The values a new object starts with, by property index: attribute defaults, empty
    /// to-manys. Worked out once: every insert copies it (`makeInitialValues()`).
    let initialValues: [Any?]
    /// Whether every initial value is `nil` or plain data held inside its `Any?` (no reference
    /// to retain, nothing boxed), so the array can be copied byte for byte.
    let initialValuesArePlainData: Bool
    /// Each property's slot by property index, as plain values: the per-value work of a save
    /// (snapshots, validation) reads these rather than the descriptions, which it would retain
    /// and release for every value of every saved object.
    let slots: [PropertySlot]
    /// The indexes of the transient properties, which the store does not keep.
    let transientIndexes: [Int]
    /// The derived attributes, which a save to the store computes (`DerivedAttributes`).
    let derivedAttributes: [AttributeDescription]
    @exclusivity(unchecked) public private(set) var superentity: EntityDescription?
    /// Direct sub-entities, in model order.
    @exclusivity(unchecked) public private(set) var subentities: [EntityDescription] = []
    /// The class instances of this entity are made of.
    @exclusivity(unchecked) public private(set) var managedObjectClass: ManagedObject.Type = ManagedObject.self
    /// The model this entity belongs to.
    @exclusivity(unchecked) public private(set) var managedObjectModel: ManagedObjectModel!
    /// The entity's position in its model's `entities`.
    @exclusivity(unchecked) private(set) var indexInModel = 0

    init(entity: Entity, model: Model) {
        self.entity = entity
        var properties: [PropertyDescription] = []
        for (index, declaration) in model.storedProperties(of: entity).enumerated() {
            switch declaration {
            case .attribute(let attribute):
                properties.append(.attribute(AttributeDescription(attribute, index: index)))
            case .relationship(let relationship):
                properties.append(.relationship(RelationshipDescription(relationship, index: index)))
            }
        }
        self.properties = properties
        initialValues = properties.map { property -> Any? in
            switch property {
            case .attribute(let attribute): attribute.defaultValue
            case .relationship(let relationship): relationship.isToMany ? OrderedSet<ManagedObject>() : nil
            }
        }
        initialValuesArePlainData = initialValues.allSatisfy { $0.map(Self.isPlainDataInline) ?? true }
        slots = properties.map(PropertySlot.init)
        transientIndexes = properties.filter(\.isTransient).map(\.index)
        derivedAttributes = properties.compactMap { property in
            guard case .attribute(let attribute) = property, attribute.derivation != nil else { return nil }
            return attribute
        }
        // A sub-entity may redeclare an inherited name (validation reports it); the first wins.
        self.propertiesByName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
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

    fileprivate func resolve(in model: ManagedObjectModel, index: Int, classes: [String: ManagedObject.Type]) {
        managedObjectModel = model
        indexInModel = index
        superentity = entity.parentEntity.flatMap { model[$0] }
        subentities = model.model.subentities(of: entity).compactMap { model[$0.name] }
        // The nearest class registered for this entity or an ancestor.
        let chain = model.model.inheritanceChain(of: entity).reversed()
        managedObjectClass = chain.lazy.compactMap { classes[$0.name] }.first ?? ManagedObject.self
        for case .relationship(let relationship) in properties {
            relationship.resolve(source: self, in: model)
        }
    }

    fileprivate func resolveInverses() {
        for case .relationship(let relationship) in properties {
            relationship.resolveInverse()
        }
    }

    /// All attributes, in property-index order.
    public var attributes: [AttributeDescription] {
        properties.compactMap { if case .attribute(let attribute) = $0 { attribute } else { nil } }
    }

    /// All relationships, in property-index order.
    public var relationships: [RelationshipDescription] {
        properties.compactMap { if case .relationship(let relationship) = $0 { relationship } else { nil } }
    }

    public func property(named name: String) -> PropertyDescription? { propertiesByName[name] }

    public func attribute(named name: String) -> AttributeDescription? {
        if case .attribute(let attribute)? = propertiesByName[name] { attribute } else { nil }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        if case .relationship(let relationship)? = propertiesByName[name] { relationship } else { nil }
    }

    /// The property at a property index.
    public subscript(index: Int) -> PropertyDescription { properties[index] }

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

/// A stored property of an entity: an attribute or a relationship.
public enum PropertyDescription: Sendable {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)

    public var name: String {
        switch self {
        case .attribute(let attribute): attribute.name
        case .relationship(let relationship): relationship.name
        }
    }

    /// The property index: the position in `Model.storedProperties(of:)`.
    public var index: Int {
        switch self {
        case .attribute(let attribute): attribute.index
        case .relationship(let relationship): relationship.index
        }
    }

    public var isOptional: Bool {
        switch self {
        case .attribute(let attribute): attribute.isOptional
        case .relationship(let relationship): relationship.isOptional
        }
    }
}

/// Descriptions are equal when they are the same description (one per property of an entity,
/// as Core Data's `NSPropertyDescription` compares): a history change's `updatedProperties` is
/// a set of them.
extension PropertyDescription: Hashable {
    private var identity: ObjectIdentifier {
        switch self {
        case .attribute(let attribute): ObjectIdentifier(attribute)
        case .relationship(let relationship): ObjectIdentifier(relationship)
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identity == rhs.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}

/// What a save needs to know of a property, for each value of each object, without the
/// property's description: its shape, whether it is transient, and what validation checks.
struct PropertySlot {
    enum Shape { case attribute, toOne, toMany }

    let shape: Shape
    let isTransient: Bool
    /// Validation has something to check (the one place that says so): a derived attribute has
    /// not, nor has an optional relationship or a to-many without count bounds.
    let isValidated: Bool
    /// An attribute's value needs no more than its presence and this exact storage type to be
    /// valid (no bounds, no pattern); `nil` when validation looks further.
    let plainStorageType: Any.Type?
    let isOptional: Bool
    /// An attribute the store keeps: its value goes into the saved snapshot (moved there, for a
    /// new object, by `ManagedObject.storedValues(id:emptyingTransients:movingAttributes:)`).
    var isStoredAttribute: Bool { shape == .attribute && !isTransient }

    init(_ property: PropertyDescription) {
        shape = property.slotShape
        isTransient = property.isTransient
        isOptional = property.isOptional
        switch property {
        case .attribute(let attribute):
            isValidated = !attribute.attribute.isDerived
            plainStorageType = attribute.hasValueBounds ? nil : AttributeValues.storageType(of: attribute.type)
        case .relationship(let relationship):
            // A to-many without count bounds may be empty even when required (as in Core Data).
            isValidated = (!relationship.isOptional && !relationship.isToMany)
                || relationship.minCount != nil || relationship.maxCount != nil
            plainStorageType = nil
        }
    }
}

/// An attribute at run time: the model's attribute, its property index and its parsed default.
/// Core Data's `NSAttributeDescription`.
public final class AttributeDescription: Sendable, CustomStringConvertible {
    public let attribute: Attribute
    public let index: Int
    /// The model's default value in the storage type, or `nil` when there is none or it
    /// cannot be read as the attribute's type.
    public let defaultValue: (any Sendable)?
    /// Whether the model bounds the attribute's values (a maximum or minimum of a number, a
    /// date or a string's length, a string pattern): only then does validation look further
    /// than a value's type, for each value of every saved object.
    let hasValueBounds: Bool
    /// A derived attribute's derivation (`NSDerivedAttributeDescription.derivationExpression`),
    /// parsed once; the error names what is wrong with one that does not parse, and a save of
    /// the entity throws it. `nil` for an attribute that is not derived.
    let derivation: Result<ObjectExpression, ObjectPredicateError>?
    /// The first key of each key path the derivation reads (`items` of `items.@sum.price`): a
    /// change to an object reached through one of these relationships recomputes it.
    let derivationKeys: Set<String>
    /// The name a ``CodableValueTransformer`` for the attribute's `customClassName` is registered
    /// under, made once: a save looks it up for each object's Transformable value.
    let codableTransformerName: ValueTransformerName?

    init(_ attribute: Attribute, index: Int) {
        self.attribute = attribute
        self.index = index
        codableTransformerName = attribute.customClassName.map(ValueTransformerName.codable(className:))
        self.defaultValue = AttributeValues.defaultValue(of: attribute)
        if attribute.isDerived {
            let format = attribute.derivationExpression ?? ""
            do {
                let syntax = try PredicateExpressionSyntax(parsing: format)
                derivationKeys = Set(syntax.keyPaths.compactMap { $0.split(separator: ".").first.map(String.init) })
                derivation = Result { () throws(ObjectPredicateError) in try ObjectExpression(syntax: syntax) }
            } catch {
                derivationKeys = []
                derivation = .failure(ObjectPredicateError(format: format, message: error.message, column: error.column))
            }
        } else {
            derivation = nil
            derivationKeys = []
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            hasValueBounds = attribute.maxValueString != nil || attribute.minValueString != nil
        case .date:
            hasValueBounds = attribute.maxDateTimeInterval != nil || attribute.minDateTimeInterval != nil
        case .string:
            hasValueBounds = attribute.maxValueString != nil || attribute.minValueString != nil
                || !(attribute.regularExpressionString ?? "").isEmpty
        default:
            hasValueBounds = false
        }
    }

    public var name: String { attribute.name }
    public var type: AttributeType { attribute.type }
    public var isOptional: Bool { attribute.isOptional }
    public var isTransient: Bool { attribute.isTransient }
    public var description: String { "AttributeDescription(\(name): \(type.rawValue))" }
}

/// A relationship at run time, with its destination entity and inverse resolved.
/// Core Data's `NSRelationshipDescription`.
public final class RelationshipDescription: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: the `private(set) var`s are resolved once while the owning
    // `ManagedObjectModel` is built and never mutated afterwards.

    public let relationship: Relationship
    public let index: Int
    /// The entity that declares the relationship (for an inherited one, the ancestor).
    public private(set) var entity: EntityDescription!
    /// `nil` only for an unfinished relationship (no destination in the file).
    public private(set) var destinationEntity: EntityDescription?
    public private(set) var inverseRelationship: RelationshipDescription?

    init(_ relationship: Relationship, index: Int) {
        self.relationship = relationship
        self.index = index
    }

    fileprivate func resolve(source: EntityDescription, in model: ManagedObjectModel) {
        guard entity == nil else { return }
        // Inherited relationships appear in every sub-entity's list; the declaring one owns them.
        let declaring = model.model.inheritanceChain(of: source.entity)
            .first { $0.relationships.contains { $0.name == relationship.name } }
        entity = declaring.flatMap { model[$0.name] } ?? source
        destinationEntity = relationship.destinationEntity.flatMap { model[$0] }
    }

    fileprivate func resolveInverse() {
        guard inverseRelationship == nil, let inverseName = relationship.inverseName,
              let destination = destinationEntity else { return }
        inverseRelationship = destination.relationship(named: inverseName)
    }

    public var name: String { relationship.name }
    public var isToMany: Bool { relationship.isToMany }
    public var isOrdered: Bool { relationship.isOrdered }
    public var isOptional: Bool { relationship.isOptional }
    public var isTransient: Bool { relationship.isTransient }
    public var deleteRule: DeleteRule { relationship.deleteRule }
    public var minCount: Int? { relationship.minCount }
    public var maxCount: Int? { relationship.maxCount }
    public var description: String {
        "RelationshipDescription(\(name) -> \(relationship.destinationEntity ?? "?"))"
    }
}
