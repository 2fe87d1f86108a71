#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a mapping model Xcode wrote: a `.xcmappingmodel` folder (or its `xcmapping.xml`), a
/// document in Core Data's XML store format (`<database>` with `<object type="XDDEVENTITYMAPPING">`
/// and the like, joined by `idrefs`), whose value expressions are keyed-archived `NSExpression`s.
///
/// ```swift
/// let document = try MappingModelReader().read(at: "Migrations/V2toV3.xcmappingmodel")
/// document.entityMappings.map(\.name)   // ["CarToCar", "LuxuryCarToLuxuryCar", …]
/// ```
public struct MappingModelReader: Sendable {
    public var limits: ReaderLimits

    public init(limits: ReaderLimits = .default) {
        self.limits = limits
    }

    /// Reads `path`: a `.xcmappingmodel` folder or the `xcmapping.xml` inside one.
    public func read(at path: String) throws(MappingModelReadError) -> MappingDocument {
        let isFolder = FileSystem.kind(of: path) == .directory || path.hasSuffix(".xcmappingmodel")
        let file = isFolder ? path + "/xcmapping.xml" : path
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(of: file, maxSize: limits.maxFileSize)
        } catch {
            throw MappingModelReadError(file: file, message: error.description)
        }
        return try read(xml: bytes, path: file)
    }

    /// Reads one `xcmapping.xml` held in memory; `path` names it in errors.
    public func read(xml bytes: [UInt8], path: String) throws(MappingModelReadError) -> MappingDocument {
        if bytes.starts(with: BinaryPropertyList.magic) {
            throw MappingModelReadError(
                file: path, message: "a compiled mapping model (.cdm) is not read; give the .xcmappingmodel Xcode compiles it from")
        }
        var diagnostics: [Diagnostic] = []
        guard let root = XMLTree.parse(bytes, path: path, limits: limits, keepsText: true, diagnostics: &diagnostics) else {
            let first = diagnostics.first { $0.severity == .error }
            throw MappingModelReadError(file: path, location: first?.location, message: first?.message ?? "the file is not XML")
        }
        guard root.name == "database" else {
            throw MappingModelReadError(file: path, location: root.location, message: "expected a <database> root element, found <\(root.name)>; this is not an xcmapping.xml")
        }
        var objects: [String: StoredObject] = [:]
        for element in root.children where element.name == "object" {
            let object = StoredObject(element)
            guard !object.id.isEmpty else {
                throw MappingModelReadError(file: path, location: element.location, message: "an <object> has no id")
            }
            objects[object.id] = object
        }
        return try DocumentBuilder(path: path, objects: objects).document()
    }
}

/// One `<object>` of Core Data's XML store format: its attributes' text and relationships' ids.
private struct StoredObject {
    let id: String
    let type: String
    let location: SourceLocation
    var attributes: [String: String] = [:]
    var relationships: [String: [String]] = [:]

    init(_ element: XMLTree.Element) {
        let fields = Dictionary(element.attributes.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        id = fields["id"] ?? ""
        type = fields["type"] ?? ""
        location = element.location
        for child in element.children {
            guard let name = child.attributes.first(where: { $0.name == "name" })?.value else { continue }
            switch child.name {
            case "attribute":
                attributes[name] = child.text
            case "relationship":
                let ids = child.attributes.first { $0.name == "idrefs" }?.value ?? ""
                relationships[name] = ids.split(separator: " ").map(String.init)
            default:
                continue
            }
        }
    }
}

private struct DocumentBuilder {
    let path: String
    let objects: [String: StoredObject]

    func failure(_ message: String, at object: StoredObject? = nil) -> MappingModelReadError {
        MappingModelReadError(file: path, location: object?.location, message: message)
    }

    /// What each kind of object may hold. Anything else (a source expression or filter
    /// predicate, say) would change what migrates, so it is refused rather than left out.
    static let knownAttributes: [String: Set<String>] = [
        "XDDEVMAPPINGMODEL": ["sourcemodelpath", "sourcemodeldata", "destinationmodelpath", "destinationmodeldata"],
        "XDDEVENTITYMAPPING": [
            "name", "sourcename", "destinationname", "mappingtypename", "mappingnumber", "migrationpolicyclassname", "autogenerateexpression",
            "userinfodata",
        ],
        "XDDEVATTRIBUTEMAPPING": ["name", "valueexpressiondata", "autogenerateexpression"],
        "XDDEVRELATIONSHIPMAPPING": ["name", "valueexpressiondata", "autogenerateexpression", "sourcekeypath", "sourcemappingname"],
    ]

    func checkAttributes(of object: StoredObject, in mapping: String?) throws(MappingModelReadError) {
        guard let known = Self.knownAttributes[object.type],
              let unknown = object.attributes.keys.filter({ !known.contains($0) }).sorted().first else { return }
        let owner = mapping.map { "entity mapping \($0)" } ?? "the mapping model"
        let value = Self.shown(object.attributes[unknown] ?? "").map { " \($0)" } ?? ""
        throw failure("\(owner) has \(unknown)\(value) (in \(object.type) \(object.id)), which this reader does not read", at: object)
    }

    /// What an attribute the reader does not read holds, for its error: an archived expression as
    /// Core Data prints it, else the text quoted (shortened); `nil` when empty. No mapping file
    /// in `shared/corpus` has a source expression or filter predicate, so how Xcode writes one is
    /// not known here and it is refused with what it says rather than guessed at.
    static func shown(_ text: String) -> String? {
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard !trimmed.isEmpty else { return nil }
        if let data = Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters),
           let expression = try? MappingExpressionUnarchiver.expression(fromArchive: [UInt8](data)) {
            return expression.description
        }
        let limit = 200
        return "\"" + (trimmed.count > limit ? trimmed.prefix(limit) + "…" : trimmed) + "\""
    }

    func document() throws(MappingModelReadError) -> MappingDocument {
        let models = objects.values.filter { $0.type == "XDDEVMAPPINGMODEL" }
        guard models.count == 1, let model = models.first else {
            throw failure("expected one XDDEVMAPPINGMODEL object, found \(models.count); this is not an xcmapping.xml")
        }
        try checkAttributes(of: model, in: nil)
        let source = try versionName(model, "sourcemodelpath")
        let destination = try versionName(model, "destinationmodelpath")
        var mappings: [(number: Int, mapping: MappingDocument.EntityMapping)] = []
        for id in model.relationships["entitymappings"] ?? [] {
            guard let object = objects[id], object.type == "XDDEVENTITYMAPPING" else {
                throw failure("the mapping model lists entity mapping \(id), which is no XDDEVENTITYMAPPING object", at: model)
            }
            mappings.append((Int(object.attributes["mappingnumber"] ?? "") ?? Int.max, try entityMapping(object)))
        }
        let names = mappings.map(\.mapping.name)
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw failure("two entity mappings are named \(repeated)", at: model)
        }
        return MappingDocument(
            sourceVersionName: source, destinationVersionName: destination,
            entityMappings: mappings.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(\.element.mapping),
            sourceModel: try archivedModel(model, "sourcemodeldata"), destinationModel: try archivedModel(model, "destinationmodeldata"))
    }

    /// The model version the file keeps under `attribute` (a base64 keyed archive); `nil` without one.
    private func archivedModel(_ model: StoredObject, _ attribute: String) throws(MappingModelReadError) -> Model? {
        guard let text = model.attributes[attribute], !text.isEmpty else { return nil }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw failure("the mapping model's \(attribute) is not base64", at: model)
        }
        do {
            return try ModelArchiveUnarchiver.model(fromArchive: [UInt8](data))
        } catch {
            throw failure("cannot read the model archived in \(attribute): \(error.description)", at: model)
        }
    }

    /// An entity mapping's `userinfodata`: a keyed-archived dictionary of strings.
    private func userInfo(of object: StoredObject, in mapping: String) throws(MappingModelReadError) -> [String: String] {
        guard let text = object.attributes["userinfodata"], !text.isEmpty else { return [:] }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw failure("entity mapping \(mapping): the user info is not base64", at: object)
        }
        do {
            return try ModelArchiveUnarchiver.stringDictionary(fromArchive: [UInt8](data))
        } catch {
            throw failure("entity mapping \(mapping): cannot read the user info: \(error.description)", at: object)
        }
    }

    /// `Tests/Model.xcdatamodeld/Model 2.xcdatamodel` → `Model 2`.
    private func versionName(_ model: StoredObject, _ attribute: String) throws(MappingModelReadError) -> String {
        guard let path = model.attributes[attribute], let last = path.split(separator: "/").last, !last.isEmpty else {
            throw failure("the mapping model has no \(attribute)", at: model)
        }
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : String(last)
    }

    private func entityMapping(_ object: StoredObject) throws(MappingModelReadError) -> MappingDocument.EntityMapping {
        let source = object.attributes["sourcename"].flatMap { $0.isEmpty ? nil : $0 }
        let destination = object.attributes["destinationname"].flatMap { $0.isEmpty ? nil : $0 }
        guard source != nil || destination != nil else {
            throw failure("entity mapping \(object.id) names neither a source nor a destination entity", at: object)
        }
        let name = object.attributes["name"].flatMap { $0.isEmpty ? nil : $0 }
            ?? source.map { "\($0)To\(destination ?? "")" } ?? destination ?? ""
        try checkAttributes(of: object, in: name)
        return MappingDocument.EntityMapping(
            name: name, sourceEntityName: source, destinationEntityName: destination,
            mappingTypeName: object.attributes["mappingtypename"],
            migrationPolicyClassName: object.attributes["migrationpolicyclassname"].flatMap { $0.isEmpty ? nil : $0 },
            userInfo: try userInfo(of: object, in: name),
            autogeneratesExpressions: object.attributes["autogenerateexpression"] == "1",
            attributeMappings: try properties(of: object, named: name, "attributemappings", type: "XDDEVATTRIBUTEMAPPING"),
            relationshipMappings: try properties(of: object, named: name, "relationshipmappings", type: "XDDEVRELATIONSHIPMAPPING"))
    }

    private func properties(
        of mapping: StoredObject, named mappingName: String, _ relationship: String, type: String
    ) throws(MappingModelReadError) -> [MappingDocument.PropertyMapping] {
        var result: [MappingDocument.PropertyMapping] = []
        for id in mapping.relationships[relationship] ?? [] {
            guard let object = objects[id], object.type == type else {
                throw failure("entity mapping \(mappingName) lists \(id) among its \(relationship), which is no \(type) object", at: mapping)
            }
            try checkAttributes(of: object, in: mappingName)
            guard let name = object.attributes["name"], !name.isEmpty else {
                throw failure("entity mapping \(mappingName) has a property mapping (\(id)) without a name", at: object)
            }
            var expression: MappingExpression?
            if let text = object.attributes["valueexpressiondata"] {
                guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                    throw failure("entity mapping \(mappingName), property \(name): the value expression is not base64", at: object)
                }
                do {
                    expression = try MappingExpressionUnarchiver.expression(fromArchive: [UInt8](data))
                } catch {
                    throw failure("entity mapping \(mappingName), property \(name): cannot read the value expression: \(error.description)", at: object)
                }
            }
            if expression == nil, object.attributes["autogenerateexpression"] == "1", let keyPath = object.attributes["sourcekeypath"] {
                expression = try autogenerated(keyPath: keyPath, mappingName: object.attributes["sourcemappingname"], property: name, in: mappingName, object)
            }
            result.append(MappingDocument.PropertyMapping(name: name, valueExpression: expression))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// The expression Xcode generates from a relationship mapping's key path and entity mapping
    /// (its inspector's fields, kept as `sourcekeypath` and `sourcemappingname` without an
    /// archived expression): `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:",
    /// "<mapping>", $source.<keyPath>)`, or `$source.<keyPath>` without a mapping name.
    private func autogenerated(
        keyPath: String, mappingName: String?, property: String, in mapping: String, _ object: StoredObject
    ) throws(MappingModelReadError) -> MappingExpression {
        let prefix = "$source."
        guard keyPath.hasPrefix(prefix), keyPath.count > prefix.count else {
            throw failure("entity mapping \(mapping), relationship \(property): the key path \(keyPath) does not start at $source", at: object)
        }
        let source = MappingExpression.function(operand: .variable("source"), selector: "valueForKeyPath:", arguments: [.keyPath(String(keyPath.dropFirst(prefix.count)))])
        guard let mappingName, !mappingName.isEmpty else { return source }
        return .function(
            operand: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
            arguments: [.constant(.string(mappingName)), source])
    }
}
