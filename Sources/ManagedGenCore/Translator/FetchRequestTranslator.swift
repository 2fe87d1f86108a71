import DataModelReader

/// Model-defined fetch requests: one typed function per top-level template (one parameter per
/// `$VARIABLE`, typed from the key path it is compared with), and fetched properties as
/// computed properties. Predicates are parsed at generation time with DataModel's predicate
/// syntax; one that does not parse is reported and its function left out.
struct FetchRequestTranslator {
    let index: ModelIndex
    var types: TypeNames { index.types }
    var access: AccessModifier { index.options.accessLevel.modifier }

    /// Warnings for predicates that do not parse (their code is left out).
    func diagnostics() -> [Diagnostic] {
        var result: [Diagnostic] = []
        for template in index.model.fetchRequests {
            if case .failure(let error) = parse(template.predicateString) {
                result.append(.warning("fetch request '\(template.name)': \(error); no function is generated for it", at: template.location))
            }
        }
        for entity in index.model.entities where index.plan(for: entity).generatesCode {
            for property in entity.fetchedProperties {
                if case .failure(let error) = parse(property.fetchRequest.predicateString) {
                    result.append(.warning(
                        "fetched property '\(entity.name).\(property.name)': \(error); no property is generated for it",
                        at: property.location))
                }
            }
        }
        return result
    }

    private func parse(_ predicate: String?) -> Result<PredicateSyntax?, PredicateSyntaxError> {
        guard let predicate else { return .success(nil) }
        do {
            return .success(try PredicateSyntax(parsing: predicate))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Templates

    /// `<templateName>Request(…)` functions for the model enum, in model order.
    func templateFunctions() -> [Declaration] {
        var usedNames: Set<String> = ["model", "managedObjectModel", "classes"]
        return index.model.fetchRequests.compactMap { template in
            guard case .success(let syntax) = parse(template.predicateString) else { return nil }
            var name = SwiftNames.lowercasingFirst(SwiftNames.sanitized(template.name)) + "Request"
            while !usedNames.insert(name).inserted { name += "_" }
            return templateFunction(template, syntax: syntax, name: name)
        }
    }

    private func templateFunction(_ template: FetchRequestTemplate, syntax: PredicateSyntax?, name: String) -> Declaration {
        let entity = index.model.entity(named: template.entity)
        var notes: [String] = []
        let resultType: String
        var resultTypeLine: String?
        switch template.resultType {
        case .managedObject:
            resultType = index.classReference(for: template.entity)
        case .managedObjectID:
            resultType = types.runtime("ManagedObjectID")
            resultTypeLine = "request.resultType = .managedObjectID"
        case .count:
            resultType = types.int
            resultTypeLine = "request.resultType = .count"
        case .dictionary:
            resultType = index.classReference(for: template.entity)
            notes.append("The model asks for dictionary results, which the runtime does not offer; this returns objects.")
        }
        let request = types.fetchRequest(of: resultType)
        var body = ["let request = \(request)(entityName: \(SwiftNames.stringLiteral(template.entity)))"]
        var parameters: [Parameter] = []
        if let syntax, let predicate = template.predicateString {
            let variables = variableParameters(syntax, entity: entity)
            parameters = variables.map { Parameter(name: $0.parameterName, type: $0.type) }
            let predicateExpression = "\(types.predicate)(\(SwiftNames.stringLiteral(predicate)))"
            if variables.isEmpty {
                body.append("request.predicate = \(predicateExpression)")
            } else {
                let bindings = variables.map { "\(SwiftNames.stringLiteral($0.variable)): \($0.parameterName)" }
                body.append("request.predicate = \(predicateExpression)")
                body.append("    .withSubstitutionVariables([\(bindings.joined(separator: ", "))])")
            }
            for variable in variables where variable.type == "Any" {
                notes.append("The type of `$\(variable.variable)` could not be inferred from the predicate.")
            }
        }
        body += requestSettings(template)
        if let resultTypeLine { body.append(resultTypeLine) }
        body.append("return request")
        var documentation = ["The model's fetch request `\(template.name)` on `\(template.entity)`"
            + (template.predicateString.map { ": `\($0)`." } ?? ".")]
        documentation += notes
        return .function(
            FunctionDeclaration(access: access, modifiers: [.static], name: SwiftNames.escaped(name), parameters: parameters, returnType: request, body: body),
            documentation: documentation)
    }

    private func requestSettings(_ template: FetchRequestTemplate) -> [String] {
        var lines: [String] = []
        if let limit = template.fetchLimit, limit > 0 { lines.append("request.fetchLimit = \(limit)") }
        if let size = template.fetchBatchSize, size > 0 { lines.append("request.fetchBatchSize = \(size)") }
        if let value = template.includesSubentities { lines.append("request.includesSubentities = \(value)") }
        if let value = template.includesPendingChanges { lines.append("request.includesPendingChanges = \(value)") }
        if let value = template.returnsObjectsAsFaults { lines.append("request.returnsObjectsAsFaults = \(value)") }
        return lines
    }

    struct VariableParameter {
        var variable: String
        var parameterName: String
        var type: String
    }

    /// One parameter per substitution variable (in order of first use), named in Swift style
    /// (`FROM_YEAR` → `fromYear`) and typed by the key path it is compared with.
    func variableParameters(_ syntax: PredicateSyntax, entity: Entity?) -> [VariableParameter] {
        let uses = syntax.variableUses.filter { !$0.isFetchedPropertyVariable }
        var result: [VariableParameter] = []
        var usedNames: Set<String> = ["request"]
        for variable in syntax.variableNames where !uses.filter({ $0.name == variable }).isEmpty {
            let type = uses.filter { $0.name == variable }.lazy.compactMap { use in
                self.type(of: use, from: entity)
            }.first ?? "Any"
            var name = Self.parameterName(variable)
            while !usedNames.insert(name).inserted { name += "_" }
            result.append(VariableParameter(variable: variable, parameterName: SwiftNames.escaped(name), type: type))
        }
        return result
    }

    /// `FROM_YEAR` → `fromYear`, `NAME` → `name`, `title_prefix` → `titlePrefix`, `humanName`
    /// stays.
    static func parameterName(_ variable: String) -> String {
        let sanitized = SwiftNames.sanitized(variable)
        let isScreaming = sanitized.unicodeScalars.allSatisfy { !$0.properties.isLowercase }
        let words = sanitized.split(separator: "_").map { isScreaming ? $0.lowercased() : String($0) }
        guard let first = words.first else { return "value" }
        let camel = SwiftNames.lowercasingFirst(first) + words.dropFirst().map(SwiftNames.uppercasingFirst).joined()
        return camel.first?.isNumber == true ? "_" + camel : camel
    }

    private func type(of use: PredicateVariableUse, from entity: Entity?) -> String? {
        guard use.memberKeyPath == nil, let keyPath = use.comparedKeyPath, let entity else { return nil }
        guard var type = resolve(keyPath, from: entity) else { return nil }
        if use.isCollection { type = "[\(type)]" }
        return type
    }

    /// The Swift type of the value at `keyPath` from `entity`: through relationships and
    /// inherited properties; `@count` is an `Int`; a relationship at the end is its class.
    func resolve(_ keyPath: String, from entity: Entity) -> String? {
        let mapper = TypeMapper(index: index)
        var current = entity
        let components = keyPath.split(separator: ".").map(String.init)
        for (position, component) in components.enumerated() {
            let isLast = position == components.count - 1
            if component == "@count" { return isLast ? types.int : nil }
            if component.hasPrefix("@") { continue }
            let chain = index.model.inheritanceChain(of: current)
            if let attribute = chain.lazy.flatMap(\.attributes).first(where: { $0.name == component }) {
                let storage = mapper.storageType(of: attribute).type
                return isLast && storage != types.any ? storage : nil
            }
            guard let relationship = chain.lazy.flatMap(\.relationships).first(where: { $0.name == component }),
                  let destination = relationship.destinationEntity.flatMap(index.model.entity(named:)) else { return nil }
            if isLast { return index.classReference(for: destination.name) }
            current = destination
        }
        return nil
    }

    // MARK: Fetched properties

    /// A computed property that runs the fetched property's request with `$FETCH_SOURCE` bound
    /// to the object, each time it is read.
    func fetchedProperty(_ property: FetchedProperty, of entity: Entity, swiftName: String) -> Declaration? {
        guard case .success = parse(property.fetchRequest.predicateString) else { return nil }
        let destination = index.classReference(for: property.fetchRequest.entity)
        let request = types.fetchRequest(of: destination)
        var body = [
            "guard let context = managedObjectContext else { return [] }",
            "let request = \(request)(entityName: \(SwiftNames.stringLiteral(property.fetchRequest.entity)))",
        ]
        if let predicate = property.fetchRequest.predicateString {
            body.append("request.predicate = \(types.predicate)(\(SwiftNames.stringLiteral(predicate)))")
            body.append("    .withSubstitutionVariables([\(SwiftNames.stringLiteral(PredicateSyntax.fetchSourceVariable)): self])")
        }
        body += requestSettings(property.fetchRequest)
        body.append("return (try? context.fetch(request)) ?? []")
        return .variable(
            VariableDeclaration(access: access, name: SwiftNames.escaped(swiftName), type: "[\(destination)]", getter: body),
            documentation: [
                "Fetched property: the `\(property.fetchRequest.entity)` objects matching "
                    + (property.fetchRequest.predicateString.map { "`\($0)`" } ?? "no predicate (all of them)") + ",",
                "fetched each time it is read (empty when the object has no context or the fetch fails).",
            ])
    }
}
