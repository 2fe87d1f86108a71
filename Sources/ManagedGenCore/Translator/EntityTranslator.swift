import DataModelReader

/// Translates one entity into its declarations: the class (for "Class Definition") and one
/// extension with key constants, properties, wrappers, to-many accessors and fetch helpers.
struct EntityTranslator {
    let index: ModelIndex
    let plan: ModelIndex.EntityPlan
    var types: TypeNames { index.types }
    var mapper: TypeMapper { TypeMapper(index: index) }
    var access: AccessModifier { index.options.accessLevel.modifier }
    var entity: Entity { plan.entity }
    var className: String { SwiftNames.escaped(plan.className) }
    private var isFinal: Bool { !entity.isAbstract && !plan.hasSubentities }
    /// The object's door to the runtime, and the names of its methods.
    private var door: String { RuntimeContract.door }
    private typealias Door = RuntimeContract.ObjectDoor

    func declarations() -> [Declaration] {
        var result: [Declaration] = []
        if plan.codeGeneration == .class { result.append(classDeclaration()) }
        let keyPaths = keyPathTable()
        result.append(.extension(ExtensionDeclaration(
            extendedType: className, conformances: fetchableConformance + keyPaths.conformances,
            members: propertyMembers() + toManyAccessors() + fetchMembers() + keyPaths.members)))
        if isFetchableRoot && !isFinal { result.append(fetchingProtocol()) }
        result += keyPaths.declarations
        result += snapshotDeclarations()
        return result
    }

    /// `fetch`/`count`/`first` come from `FetchableManagedObject` (runtime), which the topmost
    /// generated class of each class tree conforms to; subclasses inherit the conformance (a
    /// second declaration of it would be an error).
    private var isFetchableRoot: Bool { index.plan(named: entity.parentEntity)?.generatesCode != true }

    private var fetchableConformance: [String] {
        guard isFetchableRoot else { return [] }
        return [isFinal ? types.runtime("FetchableManagedObject") : fetchingProtocolName]
    }

    private var fetchingProtocolName: String { SwiftNames.escaped(plan.className + "Fetching") }

    /// For a class with subclasses, `<Class>Fetching`: code written against it before the fetch
    /// helpers moved to `FetchableManagedObject` keeps compiling.
    private func fetchingProtocol() -> Declaration {
        .type(
            TypeDeclaration(
                .protocol, access: access, name: fetchingProtocolName,
                inheritance: [className, types.runtime("FetchableManagedObject")]),
            documentation: ["Typed fetch conveniences for `\(plan.className)` and its subclasses."])
    }

    // MARK: The class

    /// The class; for "Category/Extension" entities it is what the user writes (see `Generator.humanFiles`).
    func classDeclaration() -> Declaration {
        var documentation = ["The `\(entity.name)` entity."]
        if entity.isAbstract { documentation.append("Abstract: only its sub-entities are instantiated.") }
        let classAccess: AccessModifier = !isFinal && access == .public ? .open : access
        var members: [Declaration] = [
            .variable(VariableDeclaration(
                access: classAccess, modifiers: [.override, .class], name: RuntimeContract.entityName, type: types.string,
                getter: [SwiftNames.stringLiteral(entity.name)])),
        ]
        // Only a class ManagedGen keeps up to date states its layout: a class people own would
        // keep a stale fingerprint after the model changes.
        if plan.codeGeneration == .class {
            let hash = String(index.model.storedPropertyLayoutHash(of: entity), radix: 16)
            members.append(.variable(VariableDeclaration(
                attributes: classAccess == .public || classAccess == .open ? ["@_spi(Generated)"] : [], access: classAccess, modifiers: [.override, .class],
                name: RuntimeContract.storedPropertyLayoutHash, type: types.swift("UInt64") + "?", getter: ["0x" + String(repeating: "0", count: 16 - hash.count) + hash])))
        }
        return .type(TypeDeclaration(
            .class, access: classAccess, isFinal: isFinal, name: className,
            inheritance: [index.superclass(of: plan)], members: members), documentation: documentation)
    }

    // MARK: Properties

    func swiftName(_ modelName: String) -> String { SwiftNames.escaped(plan.swiftNames[modelName] ?? modelName) }

    private func propertyMembers() -> [Declaration] {
        var members: [Declaration] = [keysEnum()]
        for attribute in entity.attributes {
            let propertyIndex = plan.propertyIndex(of: attribute.name)!
            let typing = mapper.typing(of: attribute, at: propertyIndex, entityName: entity.name)
            members.append(.variable(
                VariableDeclaration(
                    access: access, name: swiftName(attribute.name), type: typing.propertyType,
                    // A derived value is the store's to compute at each save: nothing to set.
                    getter: typing.getter, setter: attribute.isDerived ? nil : typing.setter),
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
            notes.append("Derived\(attribute.derivationExpression.map { " from `\($0)`" } ?? ""): computed at each save; read-only.")
        }
        if attribute.type == .transformable, let transformer = attribute.valueTransformerName {
            notes.append("Stored through the value transformer `\(transformer)`.")
        }
        return notes
    }

    /// To-manys typed as Xcode types them (`NSSet?`, `NSOrderedSet?`; `toManyCollections`).
    private var usesFoundationCollections: Bool { index.options.toManyCollections == .foundation }

    private func destinationType(_ relationship: Relationship) -> String {
        index.classReference(for: relationship.destinationEntity)
    }

    private func relationshipProperty(_ relationship: Relationship) -> Declaration {
        let propertyIndex = plan.propertyIndex(of: relationship.name)!
        let name = swiftName(relationship.name)
        if relationship.isToMany && usesFoundationCollections {
            let (type, read) = relationship.isOrdered
                ? (types.foundation("NSOrderedSet"), Door.nsOrderedSet) : (types.foundation("NSSet"), Door.nsSet)
            return .variable(VariableDeclaration(
                access: access, name: name, type: "\(type)?",
                getter: ["\(door).\(read)(at: \(propertyIndex))"], setter: ["\(door).\(Door.setCollection)(newValue, at: \(propertyIndex))"]))
        }
        let optional = !relationship.isToMany && !(index.options.optionality == .strict && !relationship.isOptional)
        return relationshipAccessor(relationship, name: name, optional: optional, documentation: [])
    }

    /// The property of a relationship, typed (`Set`, `OrderedSet`, the destination class), read
    /// and written through the door: the model's property, or a non-optional wrapper of one,
    /// whose to-one read traps naming the relationship when nothing is set.
    private func relationshipAccessor(_ relationship: Relationship, name: String, optional: Bool, documentation: [String]) -> Declaration {
        let propertyIndex = plan.propertyIndex(of: relationship.name)!
        let destination = destinationType(relationship)
        let type: String, getter: [String], write: String
        if relationship.isToMany {
            let (collection, read, set) = relationship.isOrdered
                ? (types.orderedSet(of: destination), Door.ordered, Door.setOrdered)
                : (types.set(of: destination), Door.toMany, Door.setToMany)
            (type, getter, write) = (collection, ["\(door).\(read)(at: \(propertyIndex))"], set)
        } else {
            let read = "\(door).\(Door.toOne)(at: \(propertyIndex))"
            type = optional ? "\(destination)?" : destination
            getter = optional ? [read] : mapper.requiredRead(read, type: destination, what: "\(entity.name).\(relationship.name)")
            write = Door.setToOne
        }
        return .variable(
            VariableDeclaration(
                access: access, name: name, type: type, getter: getter, setter: ["\(door).\(write)(newValue, at: \(propertyIndex))"]),
            documentation: documentation)
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
            let getter = mapper.nonOptionalAttributeRead(
                attribute, at: propertyIndex, type: storage,
                fallback: storage == types.any ? nil : mapper.fallbackValue(for: attribute, override: override),
                what: "\(entity.name).\(attribute.name)")
            result.append(.variable(
                VariableDeclaration(
                    access: access, name: SwiftNames.escaped(wrapper), type: storage, getter: getter,
                    setter: attribute.isDerived ? nil : [mapper.attributeWrite(attribute, "newValue", at: propertyIndex)]),
                documentation: ["Non-optional `\(attribute.name)`."]))
        }
        for relationship in entity.relationships {
            guard let wrapper = plan.wrapperNames[relationship.name] else { continue }
            result.append(relationshipAccessor(
                relationship, name: SwiftNames.escaped(wrapper), optional: false,
                documentation: ["Non-optional `\(relationship.name)`."]))
        }
        return result
    }

    // MARK: To-many accessors

    /// Xcode's accessor family: add/remove (one object or a collection) and, for ordered
    /// relationships, insert/remove/replace by index and index set. Each forwards to the
    /// runtime in one call.
    private func toManyAccessors() -> [Declaration] {
        var result: [Declaration] = []
        for relationship in entity.relationships where relationship.isToMany {
            let propertyIndex = plan.propertyIndex(of: relationship.name)!
            let destination = destinationType(relationship)
            let suffix = SwiftNames.uppercasingFirst(plan.swiftNames[relationship.name] ?? relationship.name)
            let foundation = usesFoundationCollections
            let collection = foundation
                ? types.foundation(relationship.isOrdered ? "NSOrderedSet" : "NSSet")
                : relationship.isOrdered ? types.orderedSet(of: destination) : types.set(of: destination)
            let (addCollection, removeCollection) = foundation
                ? (Door.addCollection, Door.removeCollection) : (Door.addObjects, Door.removeObjects)
            func function(_ name: String, _ parameters: [Parameter], _ body: String) -> Declaration {
                .function(FunctionDeclaration(access: access, name: name, parameters: parameters, body: [body]))
            }
            let value = Parameter(label: "_", name: "value", type: destination)
            let values = Parameter(label: "_", name: "values", type: collection)
            result += [
                function("addTo\(suffix)", [value], "\(door).\(Door.addObject)(value, at: \(propertyIndex))"),
                function("removeFrom\(suffix)", [value], "\(door).\(Door.removeObject)(value, at: \(propertyIndex))"),
                function("addTo\(suffix)", [values], "\(door).\(addCollection)(values, at: \(propertyIndex))"),
                function("removeFrom\(suffix)", [values], "\(door).\(removeCollection)(values, at: \(propertyIndex))"),
            ]
            guard relationship.isOrdered else { continue }
            let indexSet = foundation ? types.foundation("NSIndexSet") : types.indexSet
            let array = "[\(destination)]"
            let atIndex = Parameter(label: "at", name: "index", type: types.int)
            let atIndexes = Parameter(label: "at", name: "indexes", type: indexSet)
            result += [
                function("insertInto\(suffix)", [value, atIndex],
                         "\(door).\(Door.insertObject)(value, at: index, propertyIndex: \(propertyIndex))"),
                function("insertInto\(suffix)", [Parameter(label: "_", name: "values", type: array), atIndexes],
                         "\(door).\(Door.insertObjects)(values, at: indexes, propertyIndex: \(propertyIndex))"),
                function("removeFrom\(suffix)", [atIndex],
                         "\(door).\(Door.removeObject)(at: index, propertyIndex: \(propertyIndex))"),
                function("removeFrom\(suffix)", [atIndexes],
                         "\(door).\(Door.removeObjects)(at: indexes, propertyIndex: \(propertyIndex))"),
                function("replace\(suffix)", [atIndex, Parameter(label: "with", name: "value", type: destination)],
                         "\(door).\(Door.replaceObject)(at: index, with: value, propertyIndex: \(propertyIndex))"),
                function("replace\(suffix)", [atIndexes, Parameter(label: "with", name: "values", type: array)],
                         "\(door).\(Door.replaceObjects)(at: indexes, with: values, propertyIndex: \(propertyIndex))"),
            ]
        }
        return result
    }

    // MARK: Key paths for typed queries

    /// The Swift property names and model property names of this entity's own stored properties
    /// and wrappers (inherited ones are the superclass's).
    private var ownKeyPathNames: [(swift: String, model: String)] {
        entity.attributes.map { (swiftName($0.name), $0.name) } + entity.relationships.map { (swiftName($0.name), $0.name) }
            + (entity.attributes.map(\.name) + entity.relationships.map(\.name)).compactMap { name in
                plan.wrapperNames[name].map { (SwiftNames.escaped($0), name) }
            }
    }

    /// `_managedGen.propertyNames([\.text: "text", …])`, its entries filling the lines of a getter's
    /// body (a table is read by scanning, as the model literal's entity list).
    /// The key paths take their root (`Self`) from the runtime function's parameter type: a
    /// literal naming its root (`\Tweet.text`) costs the typechecker a lookup of the class each.
    private func keyPathTableCall(_ names: [(swift: String, model: String)], subclasses: [String] = []) -> String {
        let table: SwiftLiteral = names.isEmpty
            ? .atom("[:]") : .array(names.map { .atom("\\.\($0.swift): \(SwiftNames.stringLiteral($0.model))") })
        let subclassArguments = subclasses.enumerated().map { position, subclass in
            LiteralArgument(label: position == 0 ? "subclasses" : nil, value: .atom(subclass))
        }
        let call = SwiftLiteral.call("\(door).\(RuntimeContract.ClassDoor.propertyNames)", [LiteralArgument(label: nil, value: table)] + subclassArguments)
        // A static property's getter: two levels in.
        return call.rendered(indentLevel: 2)
    }

    private var keyPathTableType: String { "[\(types.swift("AnyKeyPath")): \(types.string)]" }
    private var subclassTableName: String { "propertyNamesOf" + plan.className }
    private var keyPathsProtocolName: String { SwiftNames.escaped(plan.className + "KeyPaths") }

    /// What typed queries read key paths by (`FetchableManagedObject.propertyNamesByKeyPath`):
    /// a final root lists its key paths; the root of a class tree lists them from `Self` (so
    /// `\Dog.name` is found when a `Dog` is asked) and adds the table of the subclass asked,
    /// which each subclass declares (a non-final one from `Self` too, through a protocol: a
    /// class's static members cannot build key paths from `Self`).
    private func keyPathTable() -> (conformances: [String], members: [Declaration], declarations: [Declaration]) {
        let own = ownKeyPathNames
        if isFetchableRoot && isFinal {
            return ([], [table(RuntimeContract.propertyNamesByKeyPath, access: access, keyPathTableCall(own))], [])
        }
        if isFetchableRoot {
            let subclasses = descendantPlans.map { descendant in
                let translator = EntityTranslator(index: index, plan: descendant)
                let type = translator.isFinal ? translator.className : "any \(translator.keyPathsProtocolName)"
                return "(self as? \(type).Type)?.\(translator.subclassTableName)"
            }
            let witness = table(RuntimeContract.propertyNamesByKeyPath, access: access, keyPathTableCall(own, subclasses: subclasses))
            return ([], [], [.extension(ExtensionDeclaration(extendedType: fetchingProtocolName, members: [witness]))])
        }
        guard !own.isEmpty else { return ([], [], []) }
        if isFinal { return ([], [table(subclassTableName, access: nil, keyPathTableCall(own))], []) }
        let keyPathsProtocol = Declaration.type(TypeDeclaration(.protocol, access: nil, name: keyPathsProtocolName, inheritance: [className]))
        let subclassTable = table(subclassTableName, access: nil, keyPathTableCall(own))
        return ([keyPathsProtocolName], [], [
            keyPathsProtocol, .extension(ExtensionDeclaration(extendedType: keyPathsProtocolName, members: [subclassTable])),
        ])
    }

    private func table(_ name: String, access: AccessModifier?, _ body: String) -> Declaration {
        .variable(VariableDeclaration(access: access, modifiers: [.static], name: name, type: keyPathTableType, getter: [body]))
    }

    /// The generated classes below this one that declare properties, in model order.
    private var descendantPlans: [ModelIndex.EntityPlan] {
        index.model.entities.compactMap { candidate in
            guard candidate.name != entity.name,
                  index.model.inheritanceChain(of: candidate).contains(where: { $0.name == entity.name }),
                  let candidatePlan = index.plan(named: candidate.name), candidatePlan.generatesCode,
                  !EntityTranslator(index: index, plan: candidatePlan).ownKeyPathNames.isEmpty else { return nil }
            return candidatePlan
        }
    }

    // MARK: Fetching

    /// `fetchRequest()` in every class (as Xcode), and the find-or-insert functions.
    private func fetchMembers() -> [Declaration] {
        let request = types.fetchRequest(of: className)
        return [
            .function(FunctionDeclaration(
                access: access, modifiers: [.class], name: "fetchRequest", returnType: request,
                body: ["\(request)(entityName: \(SwiftNames.stringLiteral(entity.name)))"]),
                documentation: ["A fetch request for `\(entity.name)` objects."]),
        ] + findOrInsertFunctions()
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
                    // Called on the class by name: in a subclass it still searches and inserts this entity.
                    body: ["try \(className).\(door).\(RuntimeContract.ClassDoor.findOrInsert)(Keys.\(SwiftNames.escaped(swiftName)), \(parameterName), at: \(propertyIndex), in: context)"]),
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
