#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the model versions a mapping model keeps (`sourcemodeldata`, `destinationmodeldata`):
/// keyed archives of Xcode's editor classes (`XDPMModel`, `XDPMEntity`, `XDPMAttribute`,
/// `XDPMRelationship`, superentities as `XDUMLGeneralizationImp`), whose Core Data settings sit
/// in stereotypes, one property object per key (`XD_PAttK_attributeType` = 700,
/// `XD_PPSK_isOptional`, `XD_PPSK_versionHashModifier`, `XD_PRK_destination`, …). Only what an
/// entity's version hash depends on is read: Core Data picks a mapping model by those hashes.
enum ModelArchiveUnarchiver {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static func model(fromArchive bytes: [UInt8]) throws(ReadError) -> Model {
        try graph(bytes).model()
    }

    /// A keyed-archived dictionary of strings (an entity mapping's user info, as Xcode writes it).
    static func stringDictionary(fromArchive bytes: [UInt8]) throws(ReadError) -> [String: String] {
        let graph = try graph(bytes)
        guard let root = graph.object(graph.root) else { throw ReadError(description: "the archive has no root object") }
        var result: [String: String] = [:]
        for (key, value) in graph.dictionary(root) {
            guard let text = graph.text(value) else { throw ReadError(description: "the value of \(key) is not a string") }
            result[key] = text
        }
        return result
    }

    private static func graph(_ bytes: [UInt8]) throws(ReadError) -> Graph {
        let archive: BinaryPropertyList.Value
        do {
            archive = try BinaryPropertyList.read(bytes)
        } catch {
            throw ReadError(description: error.description)
        }
        guard case .dictionary(let top) = archive, case .string("NSKeyedArchiver")? = top["$archiver"],
              case .array(let objects)? = top["$objects"] else {
            throw ReadError(description: "not a keyed archive (no $archiver NSKeyedArchiver and $objects)")
        }
        var root: BinaryPropertyList.Value?
        if case .dictionary(let roots)? = top["$top"] { root = roots["root"] }
        return Graph(objects: objects, root: root)
    }

    private struct Graph {
        let objects: [BinaryPropertyList.Value]
        /// `$top.root`: a reference to the archived root object.
        let root: BinaryPropertyList.Value?

        func object(_ value: BinaryPropertyList.Value?) -> BinaryPropertyList.Value? {
            guard case .uid(let uid)? = value, uid >= 0, uid < objects.count else { return nil }
            if case .string("$null") = objects[uid] { return nil }
            return objects[uid]
        }

        func className(_ value: BinaryPropertyList.Value?) -> String? {
            guard case .dictionary(let info)? = object(fields(value)["$class"]),
                  case .string(let name)? = info["$classname"] else { return nil }
            return name
        }

        /// An archived object's fields; `value` is the object or a reference (`uid`) to it.
        func fields(_ value: BinaryPropertyList.Value?) -> [String: BinaryPropertyList.Value] {
            if case .uid? = value { return fields(object(value)) }
            if case .dictionary(let fields)? = value { return fields }
            return [:]
        }

        func string(_ value: BinaryPropertyList.Value?) -> String? {
            if case .string(let text)? = object(value) { return text }
            return nil
        }

        func name(_ value: BinaryPropertyList.Value?) -> String? {
            string(fields(value)["_name"])
        }

        /// The elements of an archived `NSArray`/`NSSet` (`NS.objects`).
        func elements(_ value: BinaryPropertyList.Value?) -> [BinaryPropertyList.Value] {
            guard case .array(let items)? = fields(value)["NS.objects"] else { return [] }
            return items.compactMap { object($0) }
        }

        /// An archived `NSDictionary` (`NS.keys`, `NS.objects`) with string keys.
        func dictionary(_ value: BinaryPropertyList.Value?) -> [String: BinaryPropertyList.Value] {
            let fields = fields(value)
            guard case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"] else { return [:] }
            var result: [String: BinaryPropertyList.Value] = [:]
            for (key, item) in zip(keys, values) {
                guard case .string(let name)? = object(key), let item = object(item) else { continue }
                result[name] = item
            }
            return result
        }

        /// An element's Core Data settings: every stereotype's properties, by key, their values.
        func settings(of element: BinaryPropertyList.Value) -> [String: BinaryPropertyList.Value] {
            var result: [String: BinaryPropertyList.Value] = [:]
            for stereotype in dictionary(fields(element)["XDBucketForStereotypesstorage"]).values {
                for (key, property) in dictionary(fields(stereotype)["XDBucketForOwnedAttributesstorage"]) {
                    if let value = object(fields(property)["_default"]) { result[key] = value }
                }
            }
            return result
        }

        func bool(_ value: BinaryPropertyList.Value?) -> Bool {
            switch value {
            case .boolean(let flag)?: flag
            case .integer(let number)?: number != 0
            default: false
            }
        }

        func integer(_ value: BinaryPropertyList.Value?) -> Int? {
            if case .integer(let number)? = value { return number }
            return nil
        }

        func text(_ value: BinaryPropertyList.Value?) -> String? {
            if case .string(let text)? = value { return text }
            return nil
        }

        func model() throws(ReadError) -> Model {
            var entities: [Entity] = []
            for value in objects where className(value) == "XDPMEntity" {
                entities.append(try entity(value))
            }
            guard !entities.isEmpty else { throw ReadError(description: "the archived model has no XDPMEntity") }
            // Hashing walks up each hierarchy: every parent must exist, without a cycle.
            let parents = Dictionary(entities.map { ($0.name, $0.parentEntity) }, uniquingKeysWith: { first, _ in first })
            for entity in entities {
                var seen: Set<String> = [entity.name]
                var parent = entity.parentEntity
                while let name = parent {
                    guard let next = parents[name] else {
                        throw ReadError(description: "archived entity \(entity.name) has superentity \(name), which the archive does not have")
                    }
                    guard seen.insert(name).inserted else {
                        throw ReadError(description: "archived entity \(entity.name)'s superentities form a cycle through \(name)")
                    }
                    parent = next
                }
            }
            return Model(entities: entities.sorted { $0.name < $1.name })
        }

        func entity(_ value: BinaryPropertyList.Value) throws(ReadError) -> Entity {
            guard let entityName = name(value) else { throw ReadError(description: "an archived XDPMEntity has no name") }
            let settings = settings(of: value)
            let parent = elements(fields(value)["XDBucketForGeneralizationsstorage"]).compactMap { name(fields($0)["_general"]) }.first
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            for property in dictionary(fields(value)["XDBucketForOwnedAttributesstorage"]).values {
                guard let propertyName = name(property) else {
                    throw ReadError(description: "entity \(entityName) has an archived property without a name")
                }
                let options = self.settings(of: property)
                let isOptional = bool(options["XD_PPSK_isOptional"])
                let isTransient = bool(options["XD_PPSK_isTransient"])
                let modifier = text(options["XD_PPSK_versionHashModifier"])
                switch className(property) {
                case "XDPMAttribute":
                    let code = integer(options["XD_PAttK_attributeType"]) ?? 0
                    guard let type = Self.attributeTypes[code] else {
                        throw ReadError(description: "entity \(entityName), attribute \(propertyName): attribute type \(code) is not one Core Data has")
                    }
                    attributes.append(Attribute(
                        name: propertyName, type: type, isOptional: isOptional, isTransient: isTransient,
                        allowsExternalBinaryDataStorage: bool(options["XD_PAttK_allowsExternalBinaryDataStorage"]),
                        preserveAfterDeletion: bool(options["XD_PAttK_preserveValueOnDeletionInPersistentHistory"]),
                        versionHashModifier: modifier))
                case "XDPMRelationship":
                    let isToMany = bool(options["XD_PRK_isToMany"])
                    relationships.append(Relationship(
                        name: propertyName, destinationEntity: name(options["XD_PRK_destination"]),
                        inverseName: name(options["XD_PRK_inverseRelationship"]),
                        isToMany: isToMany, isOrdered: bool(options["XD_PRK_ordered"]), isOptional: isOptional, isTransient: isTransient,
                        minCount: integer(options["XD_PRK_minCount"]), maxCount: integer(options["XD_PRK_maxCount"]),
                        versionHashModifier: modifier))
                default:
                    // Fetched properties are not stored and not hashed.
                    continue
                }
            }
            // Each constraint: an array of property names (or of the properties themselves).
            let constraints: [[String]] = elements(settings["XDPMUniquenessConstraints"]).map { constraint in
                let members = elements(constraint)
                return (members.isEmpty ? [constraint] : members).compactMap { text($0) ?? name($0) }
            }.filter { !$0.isEmpty }
            return Entity(
                name: entityName, parentEntity: parent,
                isAbstract: bool(settings["XD_PSK_isAbstract"]) || bool(fields(value)["_isAbstract"]),
                versionHashModifier: text(settings["XD_PSK_versionHashModifier"]),
                attributes: attributes.sorted { $0.name < $1.name }, relationships: relationships.sorted { $0.name < $1.name },
                uniquenessConstraints: constraints)
        }

        static let attributeTypes: [Int: AttributeType] = [
            0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal, 500: .double, 600: .float,
            700: .string, 800: .boolean, 900: .date, 1000: .binary, 1100: .uuid, 1200: .uri, 1800: .transformable,
            2000: .objectID, 2100: .composite,
        ]
    }
}
