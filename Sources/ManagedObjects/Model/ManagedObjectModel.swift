import DataModel
import Foundation

/// The runtime form of a model: entities with their properties resolved (inverses,
/// superentities, subentities), each entity bound to the class that represents it.
/// Core Data's `NSManagedObjectModel`.
///
/// Built from a `Model` (a model file, generated code), it is immutable. Built in code, as Core
/// Data code does (`ManagedObjectModel()`, then ``entities``, ``setEntities(_:forConfigurationName:)``
/// and the descriptions' `init()` and setters), it is a draft until first used by a
/// coordinator (a container makes one): then it builds its `Model` from the drafts, checks it
/// as a model file is checked, and resolves as a model built from a `Model`. What is wrong with
/// the drafts is thrown by the coordinator's `addPersistentStore` (a container's
/// `loadPersistentStores` reports it). Core Data raises when a model in use is changed; here
/// the change is ignored and logged (`ModelEditing`).
///
/// Generated code builds one per model as a `static let`; the descriptions reference each
/// other, so a model lives as long as anything that uses it.
public final class ManagedObjectModel: @unchecked Sendable {
    // Unchecked: a draft is changed only before it is used (as in Core Data, by one thread);
    // `use()` resolves it once, under `lock`, and nothing is mutated afterwards. The resolved
    // state is `@exclusivity(unchecked)`: every object's creation, registration and
    // relationship work reads it, and a dynamic exclusivity check would cost more than the read.

    @exclusivity(unchecked) private var resolvedModel: Model
    /// Every entity, in model order.
    @exclusivity(unchecked) private var storedEntities: [EntityDescription] = []
    @exclusivity(unchecked) private var storedEntitiesByName: [String: EntityDescription] = [:]
    /// Entities by the class bound to them, for classes whose `entityName` names that entity:
    /// `entity(for:)` runs for every object made with `init(context:)`, and an identity look-up
    /// costs a fraction of hashing the name.
    @exclusivity(unchecked) private var entitiesByClass: [ObjectIdentifier: EntityDescription] = [:]
    /// Classes in `classes` generated for another layout of their entity (another version of
    /// the model): reading their properties by index would read the wrong values, so adding a
    /// store with this model throws, naming them. Empty when every class fits.
    @exclusivity(unchecked) public private(set) var classBindingErrors: [String] = []
    /// Whether an entity has a derived attribute: a save to the store computes them only then.
    @exclusivity(unchecked) private(set) var hasDerivedAttributes = false
    /// Whether the entities have their runtime form (always, but for a draft not yet used or
    /// whose drafts are invalid).
    @exclusivity(unchecked) private var isResolved: Bool

    // Recursive: resolving reads `model` and `isEditable`, which take it too.
    private let lock = NSRecursiveLock()
    /// Whether the model is in use (or was built from a `Model`): no change applies.
    private var isInUse: Bool
    /// What is wrong with the drafts, found when the model was first used.
    private var draftError: ManagedObjectError?
    /// A draft's configurations, in the order they were first set.
    private var draftConfigurations: [(name: String, entities: [EntityDescription])] = []

    /// Builds the runtime model. `classes` maps entity names to the classes that represent them;
    /// an entity without a class is represented by a plain `ManagedObject` (or by its nearest
    /// ancestor's class).
    public init(_ model: Model, classes: [String: ManagedObject.Type] = [:]) {
        resolvedModel = model
        isResolved = true
        isInUse = true
        resolve(model.entities.map { EntityDescription(entity: $0, model: model) }, classes: classes)
    }

    /// `init(_:classes:)` under the argument label Core Data users may expect.
    public convenience init(model: Model, classes: [String: ManagedObject.Type] = [:]) {
        self.init(model, classes: classes)
    }

    /// An empty model to build in code: a draft until first used.
    public init() {
        resolvedModel = Model()
        isResolved = false
        isInUse = false
    }

    private func resolve(_ entities: [EntityDescription], classes: [String: ManagedObject.Type]) {
        classBindingErrors = Self.layoutMismatches(of: classes, in: resolvedModel)
        storedEntities = entities
        hasDerivedAttributes = entities.contains { !$0.derivedAttributes.isEmpty }
        storedEntitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, entity) in entities.enumerated() {
            entity.resolve(in: self, index: index, classes: classes)
        }
        for entity in entities {
            entity.resolveInverses()
        }
        for entity in entities where entity.managedObjectClass.entityName == entity.name {
            entitiesByClass[ObjectIdentifier(entity.managedObjectClass)] = entity
        }
        isResolved = true
    }

    // MARK: Use

    /// Marks the model in use (a coordinator calls it as it is made). The first call of a
    /// draft builds its `Model` from the drafts and resolves them, or keeps what is wrong with
    /// them for ``checkUsable()``; later calls do nothing.
    func use() {
        lock.withLock {
            guard !isInUse else { return }
            isInUse = true
            let build = ModelDraftBuild(entities: storedEntities, configurations: draftConfigurations)
            resolvedModel = build.model
            guard build.problems.isEmpty else {
                draftError = ManagedObjectError(
                    .coreData, "the model built in code cannot be used: " + build.problems.joined(separator: "; "))
                return
            }
            let classes = Dictionary(
                storedEntities.compactMap { entity in entity.draft?.managedObjectClass.map { (entity.name, $0) } },
                uniquingKeysWith: { first, _ in first })
            for entity in storedEntities {
                entity.adopt(build.model.entity(named: entity.name) ?? entity.entity, of: build.model)
            }
            resolve(storedEntities, classes: classes)
        }
    }

    /// Throws what makes the model unusable: invalid drafts (each problem named), or classes
    /// bound to entities of another layout (``classBindingErrors``).
    func checkUsable() throws {
        if let draftError = lock.withLock({ draftError }) { throw draftError }
        if !classBindingErrors.isEmpty {
            throw ManagedObjectError(.coreData, classBindingErrors.joined(separator: "; "))
        }
    }

    /// Whether a setter may change the model and its drafts: a draft not yet used.
    var isEditable: Bool { lock.withLock { !isInUse } }

    // MARK: Reading and editing

    /// The model as read from the file or written by the generator; for a model built in code,
    /// what its drafts describe (built from them until the model is used).
    public var model: Model {
        if isResolved || !isEditable { return resolvedModel }
        return ModelDraftBuild(entities: storedEntities, configurations: draftConfigurations).model
    }

    /// Every entity, in model order. Setting it on a draft model sets its entities.
    public var entities: [EntityDescription] {
        get { storedEntities }
        set {
            guard isEditable else { return ModelEditing.ignore("entities", of: "\(self)") }
            for entity in storedEntities where entity.draft?.model === self { entity.draft?.model = nil }
            storedEntities = newValue
            for entity in newValue { entity.draft?.model = self }
        }
    }

    public var entitiesByName: [String: EntityDescription] {
        if isResolved { return storedEntitiesByName }
        return Dictionary(storedEntities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public subscript(entityName: String) -> EntityDescription? { entitiesByName[entityName] }

    /// The names of the model's configurations (the implicit `Default` one is not listed).
    public var configurations: [String] {
        if isResolved || !isEditable { return resolvedModel.configurations.map(\.name) }
        return draftConfigurations.map(\.name)
    }

    /// The entities of a configuration, or `nil` for a name the model does not have.
    public func entities(forConfigurationName name: String) -> [EntityDescription]? {
        if !isResolved, isEditable {
            return draftConfigurations.first { $0.name == name }?.entities
        }
        return resolvedModel.configurations.first { $0.name == name }.map { $0.memberEntities.compactMap { self[$0] } }
    }

    /// Makes `entities` the members of the configuration `name` of a draft model.
    public func setEntities(_ entities: [EntityDescription], forConfigurationName name: String) {
        guard isEditable else { return ModelEditing.ignore("entities of configuration '\(name)'", of: "\(self)") }
        if let position = draftConfigurations.firstIndex(where: { $0.name == name }) {
            draftConfigurations[position].entities = entities
        } else {
            draftConfigurations.append((name, entities))
        }
    }

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
