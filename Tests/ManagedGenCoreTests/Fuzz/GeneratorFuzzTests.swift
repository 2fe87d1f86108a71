import DataModelReader
import Foundation
import ManagedGenCore
import Testing

/// Random models — names that are Swift keywords, standard library, Foundation and runtime
/// type names, `ManagedObject` members, non-ASCII letters; every attribute type; relationships
/// with and without inverses; inheritance chains — built with a fixed seed. Those the validator
/// accepts generate without trapping, byte-identically on a second run; a few typecheck.
@Suite("Fuzz: generator")
struct GeneratorFuzzTests {
    static let seed: UInt64 = 0x5EED_0003
    static let modelCount = 400
    static let typecheckedSample = 10

    @Test func randomModelsGenerateDeterministically() {
        var random = SeededRandom(seed: Self.seed)
        var valid = 0, generated = 0, refused = 0, templates = 0, fetchedProperties = 0
        let started = Date()
        for round in 0..<Self.modelCount {
            let model = RandomModelBuilder().model(using: &random)
            guard !ModelValidator().validate(model).hasErrors else { continue }
            valid += 1
            templates += model.fetchRequests.count
            fetchedProperties += model.entities.map(\.fetchedProperties.count).reduce(0, +)
            let options = RandomModelBuilder.options(round)
            let first = Generator(options: options).generate(model, modelFileName: "Fuzz\(round).xcdatamodeld")
            let second = Generator(options: options).generate(model, modelFileName: "Fuzz\(round).xcdatamodeld")
            #expect(first.files == second.files, "model \(round) generated differently twice: \(model.entities.map(\.name))")
            #expect(first.diagnostics == second.diagnostics, "model \(round)")
            if first.diagnostics.hasErrors {
                refused += 1
                #expect(first.files.isEmpty, "model \(round): files despite errors")
            } else {
                generated += 1
                #expect(!first.files.isEmpty, "model \(round): no files and no error")
            }
        }
        let duration = Date().timeIntervalSince(started)
        print("generator fuzz: \(Self.modelCount) random models, \(valid) valid (with \(templates) fetch request templates, \(fetchedProperties) fetched properties), \(generated) generated, \(refused) refused by the generator, in \(String(format: "%.2f", duration)) s")
        #expect(generated > Self.modelCount / 4, "too few random models generated to test anything")
    }

    /// The first few generated models of the same sequence, compiled against `ManagedObjects`.
    @Test func sampleOfRandomModelsTypechecks() throws {
        let typechecker = try Typechecker.shared()
        var random = SeededRandom(seed: Self.seed)
        var checked = 0, entities = 0
        let started = Date()
        for round in 0..<Self.modelCount where checked < Self.typecheckedSample {
            let model = RandomModelBuilder().model(using: &random)
            guard !ModelValidator().validate(model).hasErrors else { continue }
            let options = RandomModelBuilder.options(round)
            let generator = Generator(options: options)
            let fileName = "Fuzz\(round).xcdatamodeld"
            let output = generator.generate(model, modelFileName: fileName)
            guard !output.diagnostics.hasErrors else { continue }
            checked += 1
            entities += model.entities.count
            let files = output.files + generator.humanFiles(for: model, modelFileName: fileName)
            let result = try typechecker.typecheck(files, moduleName: "Fuzz\(round)")
            #expect(result.succeeded, "model \(round) (\(model.entities.map(\.name))):\n\(result.output.prefix(4000))")
        }
        print("generator fuzz: typechecked \(checked) random models (\(entities) entities) in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        #expect(checked == Self.typecheckedSample)
    }
}

extension GeneratorFuzzTests {
    /// Found by the typecheck sample: with entities `Swift` and `Set`, the class `Swift` hid the
    /// module, and `Swift.Set<…>` (qualified because of the class `Set`) no longer compiled.
    @Test func classNamedLikeAModuleIsRenamed() throws {
        let model = Model(entities: [
            Entity(name: "Swift", codeGeneration: .class, relationships: [
                Relationship(name: "sets", destinationEntity: "Set", inverseName: "owner", inverseEntity: "Set", isToMany: true, isOptional: true),
            ]),
            Entity(name: "Set", codeGeneration: .class, relationships: [
                Relationship(name: "owner", destinationEntity: "Swift", inverseName: "sets", inverseEntity: "Swift", isOptional: true),
            ]),
            Entity(name: "Foundation", codeGeneration: .class, attributes: [Attribute(name: "date", type: .date, isOptional: true)]),
            Entity(name: "Date", codeGeneration: .class),
        ])
        let generator = Generator()
        let output = generator.generate(model, modelFileName: "Modules.xcdatamodeld")
        #expect(!output.diagnostics.hasErrors, "\(output.diagnostics)")
        #expect(output.diagnostics.filter { $0.severity == .warning }.map(\.message).filter { $0.contains("hides the module") }.count == 2)
        #expect(output.files.map(\.name).contains("SwiftObject+ManagedGen.swift"))
        let result = try Typechecker.shared().typecheck(
            output.files + generator.humanFiles(for: model, modelFileName: "Modules.xcdatamodeld"), moduleName: "Modules")
        #expect(result.succeeded, "\(result.output.prefix(4000))")
    }
}

/// Builds random models the way Xcode allows them to be written: names of letters, digits and
/// underscores starting with a letter (entities upper case, properties lower case).
struct RandomModelBuilder {
    static let entityNames = [
        "Entity", "String", "Data", "Date", "URL", "UUID", "Array", "Set", "Dictionary", "Int", "Bool",
        "Double", "Decimal", "Error", "Result", "Optional", "Any", "Self", "Type", "Protocol", "Sendable",
        "ManagedObject", "ManagedObjectContext", "ManagedObjectModel", "NSManagedObject", "ObjectPredicate",
        "FetchRequest", "Model", "Notification", "Predicate", "Foundation", "ManagedObjects", "Swift",
        "Café", "Straße", "Ünïcode", "Δelta", "Item_2", "A", "Z9", "Fuzz_",
    ]
    static let propertyNames = [
        "class", "self", "init", "deinit", "default", "protocol", "where", "type", "func", "var", "let",
        "in", "is", "as", "throws", "async", "await", "some", "any", "inout", "operator", "subscript",
        "description", "debugDescription", "hash", "hashValue", "objectID", "managedObjectContext", "entity",
        "isDeleted", "isInserted", "isUpdated", "isFault", "hasChanges", "changedValues", "value",
        "primitiveValue", "willSave", "didSave", "awakeFromInsert", "awakeFromFetch", "fetchRequest",
        "validateForInsert", "string", "data", "date", "url", "café", "ünïcode", "x_1", "a", "z9", "name",
        "id", "count", "first", "keyPath", "new", "copy", "allKeys", "entityName",
    ]
    static let attributeTypes = AttributeType.allCases.filter { $0 != .composite }

    /// Each round uses one of a few option sets, so every set is exercised.
    static func options(_ round: Int) -> GeneratorOptions {
        switch round % 4 {
        case 0: GeneratorOptions(manualCodegen: .class)
        case 1: GeneratorOptions(optionality: .strict, manualCodegen: .class)
        case 2: GeneratorOptions(accessLevel: .internal, singleFile: true, manualCodegen: .class)
        default: GeneratorOptions()
        }
    }

    func name(capitalized: Bool, from pool: [String], using random: inout SeededRandom) -> String {
        if random.chance(70) { return random.pick(pool) }
        let letters = Array("abcdefghijklmnopqrstuvwxyzé"), rest = Array("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_ü")
        var name = String(random.pick(letters))
        if capitalized { name = name.uppercased() }
        for _ in 0..<random.int(0...8) { name.append(random.pick(rest)) }
        return name
    }

    func model(using random: inout SeededRandom) -> Model {
        var entityNames: [String] = []
        for _ in 0..<random.int(1...6) {
            let candidate = name(capitalized: true, from: Self.entityNames, using: &random)
            if !entityNames.contains(where: { $0.lowercased() == candidate.lowercased() }) { entityNames.append(candidate) }
        }
        var entities = entityNames.enumerated().map { offset, entityName in
            Entity(
                name: entityName,
                parentEntity: offset > 0 && random.chance(30) ? entityNames[random.int(0..<offset)] : nil,
                isAbstract: random.chance(15),
                codeGeneration: random.pick([.class, .category, .manual]))
        }
        // Property names are unique along each inheritance chain; a shared set keeps it simple.
        var usedPropertyNames: Set<String> = []
        func freshPropertyName(_ random: inout SeededRandom) -> String? {
            for _ in 0..<5 {
                let candidate = name(capitalized: false, from: Self.propertyNames, using: &random)
                if usedPropertyNames.insert(candidate).inserted { return candidate }
            }
            return nil
        }
        for index in entities.indices {
            for _ in 0..<random.int(0...6) {
                guard let attributeName = freshPropertyName(&random) else { continue }
                entities[index].attributes.append(attribute(attributeName, using: &random))
            }
        }
        for _ in 0..<random.int(0...5) {
            let source = random.int(0..<entities.count), destination = random.int(0..<entities.count)
            guard let forward = freshPropertyName(&random) else { continue }
            let toMany = random.chance(50)
            let inverse = random.chance(75) ? freshPropertyName(&random) : nil
            entities[source].relationships.append(Relationship(
                name: forward, destinationEntity: entities[destination].name,
                inverseName: inverse, inverseEntity: inverse.map { _ in entities[destination].name },
                isToMany: toMany, isOrdered: toMany && random.chance(40), isOptional: random.chance(70),
                deleteRule: random.pick(DeleteRule.allCases)))
            if let inverse {
                let inverseToMany = random.chance(50)
                entities[destination].relationships.append(Relationship(
                    name: inverse, destinationEntity: entities[source].name,
                    inverseName: forward, inverseEntity: entities[source].name,
                    isToMany: inverseToMany, isOrdered: inverseToMany && random.chance(40),
                    isOptional: random.chance(70), deleteRule: random.pick(DeleteRule.allCases)))
            }
        }
        var fetchRequests: [FetchRequestTemplate] = []
        for _ in 0..<random.int(0...3) {
            let entity = random.pick(entities)
            let templateName = name(capitalized: random.chance(30), from: Self.propertyNames, using: &random)
            guard !fetchRequests.contains(where: { $0.name == templateName }) else { continue }
            fetchRequests.append(FetchRequestTemplate(
                name: templateName, entity: entity.name, predicateString: predicate(over: entity, using: &random),
                fetchLimit: random.chance(20) ? random.int(0...10) : nil,
                resultType: random.pick([.managedObject, .managedObjectID, .dictionary, .count])))
        }
        for index in entities.indices where random.chance(20) {
            guard let fetchedName = freshPropertyName(&random) else { continue }
            let destination = random.pick(entities)
            let source = entities[index].attributes.first.map { "\($0.name) == $FETCH_SOURCE.\($0.name)" }
            let own = predicate(over: destination, using: &random)
            entities[index].fetchedProperties.append(FetchedProperty(
                name: fetchedName,
                fetchRequest: FetchRequestTemplate(
                    name: fetchedName, entity: destination.name,
                    predicateString: random.chance(50) ? (source ?? own) : own)))
        }
        return Model(entities: entities, fetchRequests: fetchRequests)
    }

    static let variableNames = ["NAME", "X_1", "class", "self", "value", "limit", "Set", "String", "FETCH_SOURCE"]

    /// A template predicate over an entity's attributes: comparisons with `$VARIABLES` and
    /// literals joined by AND/OR; nil (fetch everything) for an entity without attributes.
    func predicate(over entity: Entity, using random: inout SeededRandom) -> String? {
        guard !entity.attributes.isEmpty, random.chance(85) else { return nil }
        let clauses = (0..<random.int(1...3)).map { _ -> String in
            let attribute = random.pick(entity.attributes)
            let right = random.chance(70) ? "$" + random.pick(Self.variableNames) : random.pick(["nil", "1", "'a'", "YES", "2.5"])
            let op = random.pick(["==", "!=", "<", ">=", "CONTAINS[cd]", "BEGINSWITH", "IN", "LIKE"])
            return random.chance(10) ? "NOT \(attribute.name) \(op) \(right)" : "\(attribute.name) \(op) \(right)"
        }
        return clauses.joined(separator: random.chance(50) ? " AND " : " OR ")
    }

    func attribute(_ name: String, using random: inout SeededRandom) -> Attribute {
        let type = random.pick(Self.attributeTypes)
        var attribute = Attribute(
            name: name, type: type, isOptional: random.chance(50), isTransient: random.chance(10),
            isIndexed: random.chance(10), usesScalarValueType: random.chance(30) ? random.chance(50) : nil)
        if random.chance(40) {
            switch type {
            case .integer16, .integer32, .integer64: attribute.defaultValueString = random.pick(["0", "-1", "42", "32767"])
            case .decimal, .double, .float: attribute.defaultValueString = random.pick(["0", "2.5", "-1e3"])
            case .string: attribute.defaultValueString = random.pick(["", "hello", "quote\"d", "back\\slash", "\\(x)", "é🐕"])
            case .boolean: attribute.defaultValueString = random.pick(["YES", "NO"])
            case .date: attribute.defaultDateTimeInterval = Double(random.int(-100_000...100_000))
            case .uuid: attribute.defaultValueString = "6F9619FF-8B86-D011-B42D-00CF4FC964FF"
            case .uri: attribute.defaultValueString = "https://example.com/a?b=c"
            default: break
            }
        }
        if type == .transformable, random.chance(50) {
            attribute.customClassName = random.pick(["[String]", "NSArray", "Set<Int>", "[String: Int]"])
            attribute.valueTransformerName = random.chance(50) ? "NSSecureUnarchiveFromData" : nil
        }
        return attribute
    }
}
