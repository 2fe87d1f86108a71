import DataModelReader

/// What the translator decides once per model: each entity's Swift class name, whether code is
/// generated for it, the Swift name of every property and wrapper, and the type names in scope.
/// Entity translation only reads it, so every file sees the same decisions.
struct ModelIndex {
    struct EntityPlan {
        var entity: Entity
        /// The Swift class name (unescaped).
        var className: String
        /// `class`: the class and its properties; `category`: the properties only.
        var codeGeneration: Entity.CodeGeneration
        /// Whether some entity inherits from this one.
        var hasSubentities: Bool
        /// The stored properties, inherited first: the position is the property index.
        var storedProperties: [PropertyDeclaration]
        /// Model property name → Swift property name (unescaped), for the whole inheritance chain.
        var swiftNames: [String: String]
        /// Own property model name → wrapper Swift name.
        var wrapperNames: [String: String]
        /// The name of the class's nested snapshot struct (`Snapshot`), when it has one: a
        /// generated class whose entity is not abstract, with the option `snapshots` or user
        /// info `managedgen.snapshots` on.
        var snapshotTypeName: String?
        /// The name of the enum over the snapshots of a class tree (`AnySnapshot`), on the
        /// tree's root class: when the root has snapshots on and every concrete entity of the
        /// tree has a snapshot struct.
        var anySnapshotTypeName: String?

        var generatesCode: Bool { codeGeneration != .manual }
        /// Whether a Swift class stands for the entity: a generated one, or one the user
        /// writes ("Category/Extension", or Manual/None with a `representedClassName`).
        var hasClass: Bool {
            generatesCode || entity.representedClassName.map(ModelIndex.isCustomClass) == true
        }

        func propertyIndex(of name: String) -> Int? {
            storedProperties.firstIndex { $0.name == name }
        }
    }

    let model: Model
    let options: GeneratorOptions
    /// Sub-entities by parent entity name, in model order (one pass instead of a scan per entity).
    private let subentitiesByParent: [String: [Entity]]
    private(set) var plans: [String: EntityPlan] = [:]
    private(set) var diagnostics: [Diagnostic] = []
    /// The names of the composites' generated structs, by composite name.
    private(set) var compositeTypeNames: [String: String] = [:]
    /// The model's name (the file name without extension), e.g. `DogWalk`.
    let modelName: String
    let modelTypeName: String
    private(set) var types = TypeNames(declaredNames: [])
    /// Whether some class has a snapshot: its members' names are then reserved in every class
    /// (`SwiftNames.snapshotMembers`), whatever the entity, so a model's names do not change
    /// from class to class.
    private(set) var hasSnapshots = false

    init(model: Model, modelName: String, options: GeneratorOptions) {
        self.model = model
        self.options = options
        self.modelName = modelName
        subentitiesByParent = Dictionary(grouping: model.entities.filter { $0.parentEntity != nil }, by: { $0.parentEntity! })
        modelTypeName = options.modelTypeName ?? SwiftNames.sanitized(SwiftNames.uppercasingFirst(modelName)) + "Model"

        var classOwners: [String: String] = [:]
        for entity in model.entities {
            var codeGeneration = entity.codeGeneration
            if codeGeneration == .manual && options.manualCodegen == .class { codeGeneration = .class }
            var className = Self.className(of: entity, diagnostics: &diagnostics)
            if codeGeneration != .manual {
                if TypeNames.qualifyingModules.contains(className) {
                    diagnostics.append(.warning(
                        "entity '\(entity.name)' would have a class named '\(className)', which hides the module "
                            + "'\(className)' the generated code names; its class is named '\(entity.name)Object' instead",
                        at: entity.location))
                    className = SwiftNames.sanitized(entity.name) + "Object"
                }
                if let owner = classOwners[className] {
                    diagnostics.append(.warning(
                        "entity '\(entity.name)' uses class name '\(className)' already used by entity '\(owner)'; "
                            + "its class is named '\(entity.name)Object' instead",
                        at: entity.location))
                    className = SwiftNames.sanitized(entity.name) + "Object"
                }
                classOwners[className] = entity.name
            }
            plans[entity.name] = EntityPlan(
                entity: entity, className: className, codeGeneration: codeGeneration,
                hasSubentities: subentitiesByParent[entity.name] != nil,
                storedProperties: model.storedProperties(of: entity), swiftNames: [:], wrapperNames: [:])
        }
        func snapshotsOn(_ entity: Entity) -> Bool {
            guard plans[entity.name]?.generatesCode == true else { return false }
            return entity.userInfo[UserInfoKeys.snapshots].map(Self.isYes) ?? options.snapshots
        }
        let snapshotEntities = model.entities.filter { !$0.isAbstract && snapshotsOn($0) }
        let snapshotEntityNames = Set(snapshotEntities.map(\.name))
        // Roots of class trees whose concrete entities all have a snapshot.
        let anySnapshotRoots = model.entities.filter { root in
            guard root.parentEntity == nil, subentitiesByParent[root.name] != nil, snapshotsOn(root) else { return false }
            let concrete = Self.tree(of: root, subentitiesByParent).filter { !$0.isAbstract }
            return !concrete.isEmpty && concrete.allSatisfy { snapshotEntityNames.contains($0.name) }
        }
        hasSnapshots = !snapshotEntities.isEmpty
        for entity in model.entities {
            let names = swiftNames(of: entity)
            plans[entity.name]?.swiftNames = names
        }
        // Ancestors first: a sub-entity's wrappers must avoid the ones it inherits.
        let byDepth = model.entities.enumerated().sorted {
            (model.inheritanceChain(of: $0.element).count, $0.offset) < (model.inheritanceChain(of: $1.element).count, $1.offset)
        }
        for (_, entity) in byDepth {
            let names = wrapperNames(of: entity)
            plans[entity.name]?.wrapperNames = names
        }

        if let owner = classOwners[modelTypeName] {
            diagnostics.append(.error(
                "the model type '\(modelTypeName)' has the name of entity '\(owner)''s class; set the option modelTypeName",
                at: model.location))
        }
        var declared = Set(classOwners.keys)
        // Classes people write (Manual/None with a `representedClassName`) are declared in the
        // same module too: one named like a runtime type (`ManagedObject`, a fuzz find) hides it.
        declared.formUnion(plans.values.filter { $0.codeGeneration == .manual && $0.hasClass }.map(\.className))
        declared.formUnion(classOwners.keys.map { $0 + "Fetching" })
        declared.insert(modelTypeName)
        declared.insert("Keys")
        for composite in model.composites {
            var name = SwiftNames.sanitized(SwiftNames.uppercasingFirst(composite.name))
            if declared.contains(name) { name += "Composite" }
            compositeTypeNames[composite.name] = name
            declared.insert(name)
        }
        for plan in plans.values {
            declared.formUnion(plan.swiftNames.values)
            declared.formUnion(plan.wrapperNames.values)
        }
        // A class (or the model type, a composite, a property) named `Snapshot` would be hidden
        // inside every class by the nested struct, or clash with it: the struct takes `_` then.
        var snapshotTypeName = "Snapshot"
        while declared.contains(snapshotTypeName) || declared.contains("Any" + snapshotTypeName) { snapshotTypeName += "_" }
        for entity in snapshotEntities { plans[entity.name]?.snapshotTypeName = snapshotTypeName }
        for root in anySnapshotRoots { plans[root.name]?.anySnapshotTypeName = "Any" + snapshotTypeName }
        types = TypeNames(declaredNames: declared)
    }

    func plan(for entity: Entity) -> EntityPlan { plans[entity.name]! }

    /// The entity and its sub-entities at every depth, in model order under each parent.
    func tree(of entity: Entity) -> [Entity] { Self.tree(of: entity, subentitiesByParent) }

    private static func tree(of entity: Entity, _ subentitiesByParent: [String: [Entity]]) -> [Entity] {
        var tree = [entity]
        var seen: Set<String> = [entity.name]
        var next = 0
        while next < tree.count {
            for child in subentitiesByParent[tree[next].name] ?? [] where seen.insert(child.name).inserted { tree.append(child) }
            next += 1
        }
        return tree
    }

    func plan(named name: String?) -> EntityPlan? { name.flatMap { plans[$0] } }

    /// The Swift type a relationship to `entityName` holds: its generated class; the class the
    /// user writes (`representedClassName`) when ManagedGen generates none; else ManagedObject.
    func classReference(for entityName: String?) -> String {
        guard let plan = plan(named: entityName), plan.hasClass else { return types.managedObject }
        return plan.className
    }

    /// The superclass of an entity's generated class.
    func superclass(of plan: EntityPlan) -> String {
        plan.entity.parentEntity.map(classReference(for:)) ?? types.managedObject
    }

    static func isCustomClass(_ name: String) -> Bool {
        let stripped = name.hasPrefix(".") ? String(name.dropFirst()) : name
        return !stripped.isEmpty && stripped != "NSManagedObject"
    }

    /// `representedClassName` made a Swift class name: a leading `.` (current module) is dropped,
    /// `Module.Foo` becomes `Foo` (generated code lives in one module), absent or
    /// `NSManagedObject` means the entity name.
    static func className(of entity: Entity, diagnostics: inout [Diagnostic]) -> String {
        var name = entity.representedClassName ?? ""
        if name.hasPrefix(".") { name.removeFirst() }
        if let lastDot = name.lastIndex(of: ".") {
            let last = String(name[name.index(after: lastDot)...])
            if entity.codeGeneration != .manual {
                diagnostics.append(.note(
                    "class name '\(name)' of entity '\(entity.name)' names a module; the generated class is '\(last)'",
                    at: entity.location))
            }
            name = last
        }
        if name.isEmpty || name == "NSManagedObject" { name = entity.name }
        name = SwiftNames.sanitized(name)
        // `Self` and `Any` cannot name a type, even in backticks.
        if name == "Self" || name == "Any" {
            diagnostics.append(.note("entity '\(entity.name)': a class cannot be named '\(name)'; it is '\(name)Entity'", at: entity.location))
            name += "Entity"
        }
        return name
    }

    /// Swift names for the properties of the entity and its ancestors, in chain order, so a parent
    /// and child agree. Names clashing with ManagedObject members, or `Type`/`Protocol` (which
    /// cannot follow a dot), get `_` appended until unique.
    private func swiftNames(of entity: Entity) -> [String: String] {
        var names: [String: String] = [:]
        var used: Set<String> = []
        for ancestor in model.inheritanceChain(of: entity) {
            // A property named like its class would hide the class in the class's static
            // methods (`Person(context:)` in find-or-insert).
            let className = plans[ancestor.name]?.className
            for property in ancestor.propertyNames where names[property] == nil {
                var name = SwiftNames.sanitized(property)
                while isReserved(name) || name == "Type" || name == "Protocol" || used.contains(name) || name == className {
                    name += "_"
                }
                names[property] = name
                used.insert(name)
            }
        }
        return names
    }

    /// Everything declared as a property in the classes an entity's wrappers would share a
    /// namespace with: its ancestors and all its descendants.
    private func namesInHierarchy(of entity: Entity) -> Set<String> {
        var names = Set(plans[entity.name]?.swiftNames.values.map { $0 } ?? [])
        var pending = subentitiesByParent[entity.name] ?? []
        var seen: Set<String> = [entity.name]
        while let sub = pending.popLast() {
            guard seen.insert(sub.name).inserted else { continue }
            names.formUnion(plans[sub.name]?.swiftNames.values.map { $0 } ?? [])
            pending += subentitiesByParent[sub.name] ?? []
        }
        return names
    }

    private mutating func wrapperNames(of entity: Entity) -> [String: String] {
        let suffix = options.wrapperSuffix
        var taken = namesInHierarchy(of: entity)
        if let className = plans[entity.name]?.className { taken.insert(className) }
        // Wrappers of ancestors are inherited too.
        for ancestor in model.inheritanceChain(of: entity).dropLast() {
            taken.formUnion(plans[ancestor.name]?.wrapperNames.values.map { $0 } ?? [])
        }
        var result: [String: String] = [:]
        // A Swift-typed attribute (`swiftType`) reads its type's default itself: no wrapper.
        let properties = entity.attributes.filter { TypeMapper.declaredSwiftType(of: $0) == nil }.map { ($0.name, $0.userInfo, $0.location) }
            + entity.relationships.map { ($0.name, $0.userInfo, $0.location) }
        for (name, userInfo, location) in properties {
            let optIn = userInfo[UserInfoKeys.wrapper].map(Self.isYes)
            if optIn == false { continue }
            var wrapper = userInfo[UserInfoKeys.wrapperName]
            if wrapper == nil, !suffix.isEmpty, name.hasSuffix(suffix), name.count > suffix.count {
                wrapper = String(name.dropLast(suffix.count))
            }
            guard let wrapper else {
                if optIn == true {
                    diagnostics.append(.warning(
                        "'\(entity.name).\(name)' asks for a wrapper but its name has no '\(suffix)' suffix; set '\(UserInfoKeys.wrapperName)'",
                        at: location))
                }
                continue
            }
            let swiftName = SwiftNames.sanitized(wrapper)
            if taken.contains(swiftName) || isReserved(swiftName) || swiftName == "Type" || swiftName == "Protocol" {
                diagnostics.append(.note(
                    "no wrapper '\(swiftName)' for '\(entity.name).\(name)': the name is already taken",
                    at: location))
                continue
            }
            taken.insert(swiftName)
            result[name] = swiftName
        }
        return result
    }

    /// Whether a property may not have this Swift name: the runtime's and generated members'.
    private func isReserved(_ name: String) -> Bool {
        SwiftNames.managedObjectMembers.contains(name) || (hasSnapshots && SwiftNames.snapshotMembers.contains(name))
    }

    static func isYes(_ value: String) -> Bool {
        ["yes", "true", "1"].contains(value.lowercased())
    }
}
