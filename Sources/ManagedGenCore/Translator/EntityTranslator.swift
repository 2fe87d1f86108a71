import DataModel

/// Translates one entity into its declarations: the class (for "Class Definition"), and the
/// extensions with properties, key constants, to-many accessors, wrappers and fetch helpers.
struct EntityTranslator {
    let index: ModelIndex
    let plan: ModelIndex.EntityPlan
    var types: TypeNames { index.types }
    var mapper: TypeMapper { TypeMapper(index: index) }
    var access: AccessModifier { index.options.accessLevel.modifier }
    var entity: Entity { plan.entity }
    var className: String { SwiftNames.escaped(plan.className) }
    private var isFinal: Bool { !entity.isAbstract && !plan.hasSubentities }

    func declarations() -> [Declaration] {
        var result: [Declaration] = []
        if plan.codeGeneration == .class { result.append(classDeclaration()) }
        result.append(.extension(ExtensionDeclaration(extendedType: className, members: propertyMembers())))
        let accessors = toManyAccessors()
        if !accessors.isEmpty {
            result.append(.extension(ExtensionDeclaration(extendedType: className, members: accessors)))
        }
        result.append(.extension(ExtensionDeclaration(extendedType: className, members: fetchMembers())))
        if hasConveniences && !isFinal { result += fetchingProtocol() }
        return result
    }

    /// `fetch`/`count`/`first` are declared once per class tree, in its topmost generated class:
    /// static methods cannot be redeclared in a subclass, so sub-entities inherit them.
    private var hasConveniences: Bool { index.plan(named: entity.parentEntity)?.generatesCode != true }

    /// For a class with subclasses: a protocol the class conforms to, whose extension holds
    /// `fetch`/`count`/`first` typed by `Self`, so `Dog.fetch(in:)` returns `[Dog]` and fetches
    /// the `Dog` entity while `Animal.fetch(in:)` returns `[Animal]` (a class method cannot
    /// return `[Self]`; a protocol extension can).
    private func fetchingProtocol() -> [Declaration] {
        let name = SwiftNames.escaped(plan.className + "Fetching")
        return [
            .type(
                TypeDeclaration(.protocol, access: access, name: name, inheritance: [className]),
                documentation: ["Typed fetch conveniences for `\(plan.className)` and its subclasses."]),
            .extension(ExtensionDeclaration(extendedType: className, conformances: [name], members: [])),
            .extension(ExtensionDeclaration(extendedType: name, members: conveniences())),
        ]
    }

    // MARK: The class

    /// The class; for "Category/Extension" entities it is what the user writes (see `Generator.humanFiles`).
    func classDeclaration() -> Declaration {
        var documentation = ["The `\(entity.name)` entity."]
        if entity.isAbstract { documentation.append("Abstract: only its sub-entities are instantiated.") }
        let classAccess: AccessModifier = !isFinal && access == .public ? .open : access
        return .type(TypeDeclaration(
            .class, access: classAccess, isFinal: isFinal, name: className,
            inheritance: [index.superclass(of: plan)],
            members: [
                .variable(VariableDeclaration(
                    access: classAccess, modifiers: [.override, .class], name: "entityName", type: types.string,
                    getter: [SwiftNames.stringLiteral(entity.name)])),
            ]), documentation: documentation)
    }

    // MARK: Properties

    private func swiftName(_ modelName: String) -> String { SwiftNames.escaped(plan.swiftNames[modelName] ?? modelName) }

    private func propertyMembers() -> [Declaration] {
        var members: [Declaration] = [keysEnum()]
        for attribute in entity.attributes {
            let propertyIndex = plan.propertyIndex(of: attribute.name)!
            let typing = mapper.typing(of: attribute, at: propertyIndex, entityName: entity.name)
            members.append(.variable(
                VariableDeclaration(
                    access: access, name: swiftName(attribute.name), type: typing.propertyType,
                    getter: typing.getter, setter: typing.setter),
                documentation: attributeDocumentation(attribute), comments: typing.comments))
        }
        for relationship in entity.relationships {
            members.append(relationshipProperty(relationship))
        }
        let fetchRequests = FetchRequestTranslator(index: index)
        for property in entity.fetchedProperties {
            if let declaration = fetchRequests.fetchedProperty(property, of: entity, swiftName: plan.swiftNames[property.name] ?? property.name) {
                members.append(declaration)
            }
        }
        members += wrappers()
        return members
    }

    private func attributeDocumentation(_ attribute: Attribute) -> [String] {
        var notes: [String] = []
        if attribute.isTransient { notes.append("Transient: not saved.") }
        if attribute.isDerived {
            notes.append("Derived\(attribute.derivationExpression.map { " from `\($0)`" } ?? ""): the store computes it; setting it is kept for Xcode parity.")
        }
        if attribute.type == .transformable, let transformer = attribute.valueTransformerName {
            notes.append("Stored through the value transformer `\(transformer)`.")
        }
        return notes
    }

    private func destinationType(_ relationship: Relationship) -> String {
        index.classReference(for: relationship.destinationEntity)
    }

    private func relationshipProperty(_ relationship: Relationship) -> Declaration {
        let propertyIndex = plan.propertyIndex(of: relationship.name)!
        let destination = destinationType(relationship)
        let name = swiftName(relationship.name)
        if relationship.isToMany {
            let (type, read, write) = relationship.isOrdered
                ? (types.orderedSet(of: destination), "orderedRelationship", "setOrderedRelationship")
                : (types.set(of: destination), "relationship", "setRelationship")
            return .variable(VariableDeclaration(
                access: access, name: name, type: type,
                getter: ["\(read)(at: \(propertyIndex))"], setter: ["\(write)(newValue, at: \(propertyIndex))"]))
        }
        if index.options.optionality == .strict && !relationship.isOptional {
            return .variable(VariableDeclaration(
                access: access, name: name, type: destination,
                getter: mapper.nonOptionalRead(
                    "toOneRelationship(at: \(propertyIndex))", type: destination, fallback: nil,
                    what: "\(entity.name).\(relationship.name)"),
                setter: ["setToOneRelationship(newValue, at: \(propertyIndex))"]))
        }
        return .variable(VariableDeclaration(
            access: access, name: name, type: "\(destination)?",
            getter: ["toOneRelationship(at: \(propertyIndex))"],
            setter: ["setToOneRelationship(newValue, at: \(propertyIndex))"]))
    }

    /// Key constants for every property, inherited ones included: `Keys.name == "name"`. The
    /// constant has the property's Swift name, its value the model's name.
    private func keysEnum() -> Declaration {
        let names = index.model.inheritanceChain(of: entity).flatMap(\.propertyNames)
        return .type(TypeDeclaration(
            .enum, access: access, name: "Keys",
            members: names.map { name in
                .variable(VariableDeclaration(
                    access: access, modifiers: [.static], isLet: true, name: swiftName(name), type: nil,
                    initializer: SwiftNames.stringLiteral(name)))
            }), documentation: ["Key constants, for `%K` and key-value access."])
    }

    // MARK: Wrappers

    /// Non-optional views of `_`-suffixed (or opted-in) properties: the stored value, else the
    /// default; to-one ones trap naming the entity and key when nothing is set.
    private func wrappers() -> [Declaration] {
        var result: [Declaration] = []
        for attribute in entity.attributes {
            guard let wrapper = plan.wrapperNames[attribute.name] else { continue }
            let propertyIndex = plan.propertyIndex(of: attribute.name)!
            let storage = mapper.storageType(of: attribute).type
            let override = attribute.userInfo[UserInfoKeys.wrapperDefault]
            let getter = mapper.nonOptionalRead(
                "attributeValue(at: \(propertyIndex))", type: storage,
                fallback: storage == types.any ? nil : mapper.fallbackValue(for: attribute, override: override),
                what: "\(entity.name).\(attribute.name)")
            result.append(.variable(
                VariableDeclaration(
                    access: access, name: SwiftNames.escaped(wrapper), type: storage, getter: getter,
                    setter: ["setAttributeValue(newValue, at: \(propertyIndex))"]),
                documentation: ["Non-optional `\(attribute.name)`."]))
        }
        for relationship in entity.relationships {
            guard let wrapper = plan.wrapperNames[relationship.name] else { continue }
            let propertyIndex = plan.propertyIndex(of: relationship.name)!
            let destination = destinationType(relationship)
            let name = SwiftNames.escaped(wrapper)
            let documentation = ["Non-optional `\(relationship.name)`."]
            if relationship.isToMany {
                let (type, read, write) = relationship.isOrdered
                    ? (types.orderedSet(of: destination), "orderedRelationship", "setOrderedRelationship")
                    : (types.set(of: destination), "relationship", "setRelationship")
                result.append(.variable(VariableDeclaration(
                    access: access, name: name, type: type,
                    getter: ["\(read)(at: \(propertyIndex))"], setter: ["\(write)(newValue, at: \(propertyIndex))"]),
                    documentation: documentation))
            } else {
                result.append(.variable(VariableDeclaration(
                    access: access, name: name, type: destination,
                    getter: mapper.nonOptionalRead(
                        "toOneRelationship(at: \(propertyIndex))", type: destination, fallback: nil,
                        what: "\(entity.name).\(relationship.name)"),
                    setter: ["setToOneRelationship(newValue, at: \(propertyIndex))"]),
                    documentation: documentation))
            }
        }
        return result
    }

    // MARK: To-many accessors

    /// Xcode's accessor family: add/remove (one object or a collection) and, for ordered
    /// relationships, insert/remove/replace by index and index set.
    private func toManyAccessors() -> [Declaration] {
        var result: [Declaration] = []
        for relationship in entity.relationships where relationship.isToMany {
            let propertyIndex = plan.propertyIndex(of: relationship.name)!
            let destination = destinationType(relationship)
            let suffix = SwiftNames.uppercasingFirst(plan.swiftNames[relationship.name] ?? relationship.name)
            let collection = relationship.isOrdered ? types.orderedSet(of: destination) : types.set(of: destination)
            func function(_ name: String, _ parameters: [Parameter], _ body: String) -> Declaration {
                .function(FunctionDeclaration(access: access, name: name, parameters: parameters, body: [body]))
            }
            let value = Parameter(label: "_", name: "value", type: destination)
            let values = Parameter(label: "_", name: "values", type: collection)
            result += [
                function("addTo\(suffix)", [value], "addToRelationship([value], at: \(propertyIndex))"),
                function("removeFrom\(suffix)", [value], "removeFromRelationship([value], at: \(propertyIndex))"),
                function("addTo\(suffix)", [values], "addToRelationship(values, at: \(propertyIndex))"),
                function("removeFrom\(suffix)", [values], "removeFromRelationship(values, at: \(propertyIndex))"),
            ]
            guard relationship.isOrdered else { continue }
            let indexSet = types.indexSet
            let array = "[\(destination)]"
            let atIndex = Parameter(label: "at", name: "index", type: types.int)
            let atIndexes = Parameter(label: "at", name: "indexes", type: indexSet)
            result += [
                function("insertInto\(suffix)", [value, atIndex],
                         "insertIntoRelationship([value], at: \(indexSet)(integer: index), propertyIndex: \(propertyIndex))"),
                function("insertInto\(suffix)", [Parameter(label: "_", name: "values", type: array), atIndexes],
                         "insertIntoRelationship(values, at: indexes, propertyIndex: \(propertyIndex))"),
                function("removeFrom\(suffix)", [atIndex],
                         "removeFromRelationship(at: \(indexSet)(integer: index), propertyIndex: \(propertyIndex))"),
                function("removeFrom\(suffix)", [atIndexes],
                         "removeFromRelationship(at: indexes, propertyIndex: \(propertyIndex))"),
                function("replace\(suffix)", [atIndex, Parameter(label: "with", name: "value", type: destination)],
                         "replaceInRelationship(at: \(indexSet)(integer: index), with: [value], propertyIndex: \(propertyIndex))"),
                function("replace\(suffix)", [atIndexes, Parameter(label: "with", name: "values", type: array)],
                         "replaceInRelationship(at: indexes, with: values, propertyIndex: \(propertyIndex))"),
            ]
        }
        return result
    }

    // MARK: Fetching

    /// `fetchRequest()` in every class (as Xcode); `fetch`/`count`/`first` once per class tree,
    /// in its topmost generated class: typed by `Self` there when it has subclasses (so
    /// `Dog.fetch` returns `[Dog]` and fetches the `Dog` entity), by the class when final.
    /// Static methods cannot be redeclared in a subclass, so sub-entities inherit them.
    private func fetchMembers() -> [Declaration] {
        let request = types.fetchRequest(of: className)
        let entityLiteral = SwiftNames.stringLiteral(entity.name)
        var members: [Declaration] = [
            .function(FunctionDeclaration(
                access: access, modifiers: [.class], name: "fetchRequest", returnType: request,
                body: ["\(request)(entityName: \(entityLiteral))"]),
                documentation: ["A fetch request for `\(entity.name)` objects."]),
        ]
        if hasConveniences && isFinal { members += conveniences() }
        members += findOrInsertFunctions()
        return members
    }

    private func conveniences() -> [Declaration] {
        let resultType = isFinal ? className : "Self"
        let request = types.fetchRequest(of: resultType)
        let newRequest = isFinal
            ? "let request = \(request)(entityName: \(SwiftNames.stringLiteral(entity.name)))"
            : "let request = \(request)(entityName: entityName)"
        let what = isFinal ? "`\(entity.name)` objects" : "objects of this class's entity"
        let context = Parameter(label: "in", name: "context", type: types.context)
        let predicate = Parameter(label: "_", name: "predicate", type: "\(types.predicate)?", defaultValue: "nil")
        let sort = Parameter(label: "sortedBy", name: "sortDescriptors", type: "[\(types.sortDescriptor)]", defaultValue: "[]")
        return [
            .function(FunctionDeclaration(
                access: access, modifiers: [.static], name: "fetch", parameters: [predicate, sort, context],
                isThrowing: true, returnType: "[\(resultType)]",
                body: [
                    newRequest,
                    "request.predicate = predicate",
                    "request.sortDescriptors = sortDescriptors",
                    "return try context.fetch(request)",
                ]),
                documentation: ["The \(what) matching `predicate`, sorted."]),
            .function(FunctionDeclaration(
                access: access, modifiers: [.static], name: "count", parameters: [predicate, context],
                isThrowing: true, returnType: types.int,
                body: [
                    newRequest,
                    "request.predicate = predicate",
                    "return try context.count(for: request)",
                ]),
                documentation: ["How many \(what) match `predicate`."]),
            .function(FunctionDeclaration(
                access: access, modifiers: [.static], name: "first", parameters: [predicate, sort, context],
                isThrowing: true, returnType: "\(resultType)?",
                body: [
                    newRequest,
                    "request.predicate = predicate",
                    "request.sortDescriptors = sortDescriptors",
                    "request.fetchLimit = 1",
                    "return try context.fetch(request).first",
                ]),
                documentation: ["The first of the \(what) matching `predicate` in sort order, if any."]),
        ]
    }

    /// Attribute types a find-or-insert can compare with `==` in a predicate.
    private static let findableTypes: Set<AttributeType> = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid, .uri,
    ]

    /// `with<Name>(_:in:)` for each single-attribute uniqueness constraint, in the first
    /// concrete entity at or below the one declaring it (a static method cannot be redeclared in
    /// a subclass, so entities below inherit it). It searches that entity and its sub-entities
    /// and inserts an object of that entity.
    private func findOrInsertFunctions() -> [Declaration] {
        guard !entity.isAbstract else { return [] }
        var result: [Declaration] = []
        var seen: Set<String> = []
        let chain = index.model.inheritanceChain(of: entity)
        var constraints: [[String]] = []
        for (position, ancestor) in chain.enumerated()
        where chain[position..<(chain.count - 1)].allSatisfy(\.isAbstract) {
            constraints += ancestor.uniquenessConstraints
        }
        for constraint in constraints where constraint.count == 1 {
            let attributeName = constraint[0]
            guard seen.insert(attributeName).inserted,
                  let attribute = chain.lazy.flatMap(\.attributes).first(where: { $0.name == attributeName }),
                  Self.findableTypes.contains(attribute.type),
                  let propertyIndex = plan.propertyIndex(of: attributeName) else { continue }
            let swiftName = index.plan(for: entity).swiftNames[attributeName] ?? attributeName
            let base = plan.wrapperNames[attributeName] ?? swiftName
            let functionName = attribute.userInfo[UserInfoKeys.findOrInsertName]
                ?? "with" + SwiftNames.uppercasingFirst(base.hasSuffix("_") ? String(base.dropLast()) : base)
            let parameterName = SwiftNames.escaped(base)
            let storage = mapper.storageType(of: attribute).type
            result.append(.function(
                FunctionDeclaration(
                    access: access, modifiers: [.static], name: SwiftNames.escaped(functionName),
                    parameters: [Parameter(label: "_", name: parameterName, type: storage), Parameter(label: "in", name: "context", type: types.context)],
                    isThrowing: true, returnType: className,
                    body: [
                        "if let existing: \(className) = try \(className).first(\(types.predicate)(\"%K == %@\", Keys.\(SwiftNames.escaped(swiftName)), \(parameterName)), in: context) {",
                        "    return existing",
                        "}",
                        "let inserted = \(className)(context: context)",
                        "inserted.setAttributeValue(\(parameterName), at: \(propertyIndex))",
                        "return inserted",
                    ]),
                documentation: [
                    "The `\(entity.name)` whose `\(attributeName)` is `\(parameterName.replacingOccurrences(of: "`", with: ""))` (unique in the model), inserted if there is none.",
                ]))
        }
        return result
    }
}

extension GeneratorOptions.AccessLevel {
    var modifier: AccessModifier {
        switch self {
        case .public: .public
        case .package: .package
        case .internal: .internal
        }
    }
}
