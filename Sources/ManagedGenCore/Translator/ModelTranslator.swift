import DataModelReader

/// Translates a whole model: the model enum (the model as Swift values and the entity → class
/// registry), the composite value types, and each entity's declarations.
struct ModelTranslator {
    let index: ModelIndex
    /// The bundle's versions the model enum carries for migration, if any.
    var versions: CarriedVersions?
    var types: TypeNames { index.types }
    var access: AccessModifier { index.options.accessLevel.modifier }

    /// The declarations of each entity that gets code, keyed by class name, in model order.
    func entityDeclarations() -> [(className: String, declarations: [Declaration])] {
        index.model.entities.compactMap { entity in
            let plan = index.plan(for: entity)
            guard plan.generatesCode else { return nil }
            return (plan.className, EntityTranslator(index: index, plan: plan).declarations())
        }
    }

    /// The model enum and the composite structs.
    func modelDeclarations() -> [Declaration] {
        let literals = ModelLiteralTranslator(types: types, mapper: TypeMapper(index: index))
        // One function per entity: a single expression holding a large model takes the Swift
        // type checker minutes and gigabytes; many small ones take it no time.
        var constantNames: [String] = []
        var usedNames: Set<String> = []
        for entity in index.model.entities {
            var name = SwiftNames.lowercasingFirst(SwiftNames.sanitized(entity.name)) + "Entity"
            if !usedNames.insert(name).inserted {
                name += "\(constantNames.count)"
                usedNames.insert(name)
            }
            constantNames.append(name)
        }
        let literal = literals.literal(index.model, entityReferences: constantNames.map { "\(SwiftNames.escaped($0))()" })
        let classes = index.model.entities.compactMap { entity -> String? in
            let plan = index.plan(for: entity)
            guard plan.hasClass else { return nil }
            guard plan.generatesCode else {
                // Manual/None: the user may not have written the class (code that uses objects by
                // key); found at run time by name, else `ManagedObject`, as Core Data falls back
                // to `NSManagedObject`.
                return "\(SwiftNames.stringLiteral(entity.name)): ManagedObjects.GeneratedModels.manualClass("
                    + "named: \(SwiftNames.stringLiteral(entity.representedClassName ?? plan.className)), fileID: #fileID)"
            }
            return "\(SwiftNames.stringLiteral(entity.name)): \(SwiftNames.escaped(plan.className)).self"
        }
        // A typed constant: a large untyped dictionary literal defeats the type checker.
        // Written as an array of `"Entity": Class.self` entries, which is a dictionary literal's text.
        let registry = classes.isEmpty ? "[:]" : SwiftLiteral.array(classes.map(SwiftLiteral.atom)).rendered(indentLevel: 1)
        let registryType = "[\(types.string): \(types.managedObject).Type]"
        var result: [Declaration] = [
            registration(),
            .type(TypeDeclaration(
                .enum, access: access, name: SwiftNames.escaped(index.modelTypeName),
                members: modelLiteralAliases() + [
                    .variable(
                        VariableDeclaration(
                            access: access, modifiers: [.static], isLet: true, name: "model", type: nil,
                            initializer: literal.rendered(indentLevel: 1)),
                        documentation: ["The model as Swift values: an app needs no model file at run time."]),
                    .variable(
                        VariableDeclaration(
                            access: access, modifiers: [.static], isLet: true, name: "managedObjectModel",
                            type: codableRegistrations().isEmpty ? nil : types.runtime("ManagedObjectModel"),
                            initializer: managedObjectModelInitializer()),
                        documentation: ["The runtime model, with each entity bound to its generated class."]
                            + (codableRegistrations().isEmpty ? [] : [
                                "Registers the transformers of the `Codable` Transformable attributes as it is made.",
                            ])),
                ] + versionDeclarations(literals, currentEntityFunctions: Dictionary(
                    grouping: zip(index.model.entities.map { $0.withoutSourceLocations() }, constantNames).map { (entity: $0, function: $1) },
                    by: \.entity.name)) + FetchRequestTranslator(index: index).templateFunctions() + [
                    .variable(VariableDeclaration(
                        access: .private, modifiers: [.static], isLet: true, name: "classes", type: registryType,
                        initializer: registry)),
                ] + zip(constantNames, index.model.entities).map { name, entity in
                    // Run once, when the model is first used: optimizing these large literals
                    // would cost an optimised build much time (half of it for small models) for nothing.
                    .function(FunctionDeclaration(
                        attributes: ["@_optimize(none)"], access: .private, modifiers: [.static], name: SwiftNames.escaped(name),
                        returnType: types.dataModel("Entity"), body: [literals.literal(entity).rendered(indentLevel: 2)]))
                }),
                documentation: ["The model `\(index.modelName)`."]),
        ]
        result += index.model.composites.map(compositeDeclaration)
        return result
    }

    /// `private typealias Entity = ManagedObjects.ModelLiteral.Entity` and the like
    /// (`TypeNames.modelLiteralAliases`): the literal's short names, which inside the enum hide
    /// any type of the target's own of that name.
    private func modelLiteralAliases() -> [Declaration] {
        types.modelLiteralAliases.enumerated().map { position, name in
            Declaration(
                .typeAlias(name: name, access: .private, type: "\(RuntimeContract.module).\(RuntimeContract.ModelLiteral.type).\(name)"),
                comments: position == 0 ? ["The model description types the literal below is built from."] : [])
        }
    }

    /// `ManagedObjectModel(model, classes: classes)`; first, when the model has Transformable
    /// attributes of `Codable` types (`managedgen.codable`), a `CodableValueTransformer`
    /// registered for each of their class names, so a store reads them before any object is
    /// touched and the app writes no code for them.
    private func managedObjectModelInitializer() -> String {
        let make = "\(types.runtime("ManagedObjectModel"))(model, classes: classes)"
        let registrations = codableRegistrations()
        guard !registrations.isEmpty else { return make }
        return (["{"] + registrations.map { "    \($0)" } + ["    return \(make)", "}()"]).joined(separator: "\n")
    }

    /// One registration per `customClassName` of a `Codable` Transformable attribute, sorted.
    private func codableRegistrations() -> [String] {
        let mapper = TypeMapper(index: index)
        var types: [String: String] = [:]
        for entity in index.model.entities {
            for attribute in entity.attributes {
                guard let swiftType = mapper.codableType(of: attribute), let className = attribute.customClassName else { continue }
                types[className] = swiftType
            }
        }
        return types.keys.sorted().map { className in
            "ManagedObjects.CodableValueTransformer<\(types[className]!)>.register(forClassName: \(SwiftNames.stringLiteral(className)))"
        }
    }

    /// Registers the model under its name as the program loads (a load-time initializer, which
    /// Swift 6.3 writes on Linux), so `PersistentContainer(name:)` and Core Data code's
    /// `NSPersistentContainer(name:)` find it with no model file. The closure only records how to
    /// build the model: nothing is built before the program asks for it. A model that carries
    /// its bundle's versions registers them too, so a container on it migrates an older store.
    private func registration() -> Declaration {
        // Always qualified: it runs in the app's module, where a type of that name may exist.
        let typeName = SwiftNames.escaped(index.modelTypeName)
        let versionsArgument = carriesVersions ? ", versions: { \(typeName).versions }" : ""
        let register = "ManagedObjects.GeneratedModels.register(\(SwiftNames.stringLiteral(index.modelName))\(versionsArgument)) { "
            + "\(typeName).managedObjectModel }"
        return Declaration(.conditional(condition: "compiler(>=6.3) && os(Linux)", declarations: [
            .variable(
                VariableDeclaration(
                    attributes: ["@used", #"@section(".init_array")"#], access: .private, isLet: true,
                    name: "registerModel", type: "@convention(c) () -> Void", initializer: "{ \(register) }"),
                documentation: ["Registers `\(index.modelTypeName)` under the name `\(index.modelName)` as the program loads."]),
        ]))
    }

    /// Whether the model enum declares `versions` (a bundle of more than one version).
    private var carriesVersions: Bool { (versions?.versions.count ?? 0) > 1 }

    /// `versions`, the bundle's versions for migration (the current one is `managedObjectModel`),
    /// a function per other version building its model, and one per entity those need: only the
    /// model values (migration reads entities and properties, never classes). Versions share most
    /// entities, so each distinct entity is written once; those equal to a current entity reuse
    /// its function (`currentEntityFunctions`, by value without source locations: comparing
    /// values costs a fraction of writing each entity of each version out to compare texts).
    private func versionDeclarations(_ literals: ModelLiteralTranslator, currentEntityFunctions: [String: [(entity: Entity, function: String)]]) -> [Declaration] {
        guard carriesVersions, let versions else { return [] }
        let versionsType = types.runtime("ManagedObjectModelVersions")
        // Entities by name, then by value: comparing the few entities of one name costs a
        // fraction of hashing every entity of every version whole.
        var entityFunctions = currentEntityFunctions
        var usedNames = Set(currentEntityFunctions.values.lazy.flatMap { $0.map(\.function) })
        var newEntities: [(function: String, entity: Entity)] = []
        var earlierVersions: [(function: String, name: String, model: Model, references: [String])] = []
        var elements: [SwiftLiteral] = []
        for (position, version) in versions.versions.enumerated() {
            let model: String
            if version.name == versions.currentVersionName {
                model = "managedObjectModel"
            } else {
                let references = version.model.entities.map { entity -> String in
                    let key = entity.withoutSourceLocations()
                    if let known = entityFunctions[key.name]?.first(where: { $0.entity == key }) {
                        return "\(SwiftNames.escaped(known.function))()"
                    }
                    var name = SwiftNames.lowercasingFirst(SwiftNames.sanitized(entity.name)) + "EntityOfVersion\(position + 1)"
                    while !usedNames.insert(name).inserted { name += "_" }
                    entityFunctions[key.name, default: []].append((key, name))
                    newEntities.append((name, entity))
                    return "\(SwiftNames.escaped(name))()"
                }
                let function = "modelVersion\(position + 1)"
                earlierVersions.append((function, version.name, version.model, references))
                model = "\(types.runtime("ManagedObjectModel"))(\(function)())"
            }
            elements.append(.call("\(versionsType).Version", [
                LiteralArgument(label: "name", value: .string(version.name)), LiteralArgument(label: "model", value: .atom(model)),
            ]))
        }
        // Writing the literals out is most of the work, and each is independent of the others.
        let modelBodies = concurrentMap(earlierVersions) { literals.literal($0.model, entityReferences: $0.references).rendered(indentLevel: 2) }
        let entityBodies = concurrentMap(newEntities) { literals.literal($0.entity).rendered(indentLevel: 2) }
        let functions = zip(earlierVersions, modelBodies).map { earlier, body in
            Declaration.function(
                FunctionDeclaration(
                    attributes: ["@_optimize(none)"], access: .private, modifiers: [.static], name: earlier.function,
                    returnType: types.dataModel("Model"), body: [body]),
                documentation: ["Version `\(earlier.name)` of the model."])
        }
        let entityDeclarations = zip(newEntities, entityBodies).map { new, body in
            Declaration.function(FunctionDeclaration(
                attributes: ["@_optimize(none)"], access: .private, modifiers: [.static], name: SwiftNames.escaped(new.function),
                returnType: types.dataModel("Entity"), body: [body]))
        }
        let literal = SwiftLiteral.call(versionsType, [
            LiteralArgument(label: "versions", value: .array(elements)),
            LiteralArgument(label: "currentVersionName", value: .string(versions.currentVersionName)),
        ])
        return [
            .variable(
                VariableDeclaration(
                    access: access, modifiers: [.static], isLet: true, name: "versions", type: nil,
                    initializer: literal.rendered(indentLevel: 1)),
                documentation: [
                    "The bundle's versions, oldest first: give them to `PersistentStoreDescription.modelVersions`",
                    "and a store written with any of them migrates to the current one, with no model file.",
                ]),
        ] + functions + entityDeclarations
    }

    /// A value type for a `<composite>`: one optional property per element, and conversions
    /// from and to the dictionary the runtime stores a composite value as.
    private func compositeDeclaration(_ composite: Composite) -> Declaration {
        let mapper = TypeMapper(index: index)
        let name = index.compositeTypeNames[composite.name]!
        let dictionaryType = "[\(types.string): Any]"
        var members: [Declaration] = []
        var parameters: [Parameter] = []
        var fromDictionary: [String] = []
        var toDictionary: [String] = ["var dictionary: \(dictionaryType) = [:]"]
        for attribute in composite.attributes {
            let propertyName = SwiftNames.escaped(SwiftNames.sanitized(attribute.name))
            let bareName = SwiftNames.sanitized(attribute.name)
            let key = SwiftNames.stringLiteral(attribute.name)
            let nested = attribute.type == .composite ? attribute.composite.flatMap { index.compositeTypeNames[$0] } : nil
            let type = nested ?? mapper.storageType(of: attribute).type
            members.append(.variable(VariableDeclaration(access: access, name: propertyName, type: "\(type)?")))
            parameters.append(Parameter(name: propertyName, type: "\(type)?", defaultValue: "nil"))
            if let nested {
                fromDictionary.append("self.\(bareName) = (dictionary[\(key)] as? \(dictionaryType)).map(\(nested).init(dictionary:))")
                toDictionary.append("if let \(propertyName) { dictionary[\(key)] = \(propertyName).dictionary }")
            } else if type == "Any" {
                fromDictionary.append("self.\(bareName) = dictionary[\(key)] as Any?")
                toDictionary.append("if let \(propertyName) { dictionary[\(key)] = \(propertyName) }")
            } else {
                fromDictionary.append("self.\(bareName) = dictionary[\(key)] as? \(type)")
                toDictionary.append("if let \(propertyName) { dictionary[\(key)] = \(propertyName) }")
            }
        }
        toDictionary.append("return dictionary")
        members.append(.initializer(InitializerDeclaration(
            access: access, parameters: parameters,
            body: composite.attributes.map { "self.\(SwiftNames.sanitized($0.name)) = \(SwiftNames.escaped(SwiftNames.sanitized($0.name)))" })))
        members.append(.initializer(
            InitializerDeclaration(
                access: access, parameters: [Parameter(name: "dictionary", type: dictionaryType)], body: fromDictionary),
            documentation: ["Reads the dictionary the runtime stores the composite as."]))
        members.append(.variable(
            VariableDeclaration(access: access, name: "dictionary", type: dictionaryType, getter: toDictionary),
            documentation: ["The composite as the runtime stores it."]))
        return .type(
            TypeDeclaration(.struct, access: access, name: SwiftNames.escaped(name), members: members),
            documentation: ["The composite attribute type `\(composite.name)`."])
    }
}
