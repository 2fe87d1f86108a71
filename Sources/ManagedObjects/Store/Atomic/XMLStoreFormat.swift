import DataModel
import Foundation

/// The XML store's file (``PersistentStoreType/xml``), in the shape of Core Data's XML store
/// as a real file it wrote shows it (a `<database>` of `<databaseInfo>` and `<object type="…"
/// id="z…">` elements holding `<attribute name="…" type="int32">` and `<relationship name="…"
/// destination="…" idrefs="z… z…">`; Core Data's type names `string`, `int16`, `int32`, `bool`).
/// It is a format of ManagedObjects all the same, documented in Docs/RuntimeDifferences.md
/// ("Stores"), and Core Data's XML files are not read: no real sample shows how Core Data
/// writes metadata, the other types or ordered relationships, and Core Data numbers objects
/// in one sequence where this runtime numbers each root entity's objects apart.
///
///     <?xml version="1.0" encoding="UTF-8"?>
///     <database>
///         <databaseInfo>
///             <format>ManagedObjects.XMLStore</format>
///             <formatVersion>1</formatVersion>
///             <UUID>…</UUID>
///             <lastNumber entity="Owner">3</lastNumber>                   (one per root entity)
///             <metadata>…the metadata as an XML property list…</metadata>
///         </databaseInfo>
///         <object type="Painting" id="z2">                                (z + number in its root's sequence)
///             <attribute name="note" type="string">oil</attribute>        (nil values left out)
///             <relationship name="tags" destination="Tag" idrefs="z1 z2"></relationship>
///         </object>
///     </database>
///
/// `idrefs` are numbers in the sequence of `destination` (the destination's root entity), in
/// relationship order. Values: integers in decimal, Booleans 1 or 0, reals (and dates, as
/// seconds since 2001-01-01 UTC) as Swift prints them (they read back exactly), data in
/// base64, text as is; text with a character XML cannot hold has `encoding="base64"`.
struct XMLStoreFormat: AtomicStoreFormat {
    static let formatName = "ManagedObjects.XMLStore"
    static let formatVersion = 1

    /// The type names of the `type` attribute: Core Data's where a real file shows them.
    static func typeName(of type: AttributeType) -> String {
        switch type {
        case .integer16: "int16"
        case .integer32: "int32"
        case .integer64: "int64"
        case .decimal: "decimal"
        case .double: "double"
        case .float: "float"
        case .string: "string"
        case .boolean: "bool"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "uuid"
        case .uri: "uri"
        case .transformable: "transformable"
        case .objectID: "objectid"
        case .composite: "composite"
        case .undefined: "undefined"
        }
    }

    // MARK: Writing

    func encode(_ contents: AtomicStoreContents) throws -> Data {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<database>\n    <databaseInfo>\n"
        xml += "        <format>\(Self.formatName)</format>\n"
        xml += "        <formatVersion>\(Self.formatVersion)</formatVersion>\n"
        xml += "        <UUID>\(Self.escaped(contents.identifier ?? ""))</UUID>\n"
        for (name, number) in contents.lastNumbers.sorted(by: { $0.key < $1.key }) {
            xml += "        <lastNumber entity=\"\(Self.escaped(name, inAttribute: true))\">\(number)</lastNumber>\n"
        }
        let metadata = try PropertyListSerialization.data(fromPropertyList: contents.metadata, format: .xml, options: 0)
        xml += "        <metadata>\(Self.escaped(String(decoding: metadata, as: UTF8.self)))</metadata>\n"
        xml += "    </databaseInfo>\n"
        for object in contents.objects {
            xml += "    <object type=\"\(Self.escaped(object.entityName, inAttribute: true))\" id=\"z\(object.number)\">\n"
            for (name, type, value) in object.attributes {
                let (text, base64) = Self.text(of: value)
                xml += "        <attribute name=\"\(Self.escaped(name, inAttribute: true))\" type=\"\(Self.typeName(of: type))\""
                xml += (base64 ? " encoding=\"base64\"" : "") + ">\(text)</attribute>\n"
            }
            for (name, destination, members) in object.relationships {
                xml += "        <relationship name=\"\(Self.escaped(name, inAttribute: true))\" destination=\"\(Self.escaped(destination, inAttribute: true))\""
                xml += members.isEmpty ? "" : " idrefs=\"\(members.map { "z\($0)" }.joined(separator: " "))\""
                xml += "></relationship>\n"
            }
            xml += "    </object>\n"
        }
        xml += "</database>\n"
        return Data(xml.utf8)
    }

    /// The element text of a value, escaped; whether it is base64 of text XML cannot hold.
    private static func text(of value: AtomicStoreValue) -> (String, base64: Bool) {
        switch value {
        case .integer(let integer): ("\(integer)", false)
        case .boolean(let flag): (flag ? "1" : "0", false)
        case .real(let double): ("\(double)", false)
        case .data(let data): (data.base64EncodedString(), false)
        case .text(let text):
            text.unicodeScalars.allSatisfy(isAllowedInXML) ? (escaped(text), false) : (Data(text.utf8).base64EncodedString(), true)
        }
    }

    /// XML 1.0's `Char` production.
    private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `text` with what XML would change escaped: markup characters, and the whitespace an XML
    /// parser normalizes (a carriage return in text; tabs and newlines in attribute values).
    private static func escaped(_ text: String, inAttribute: Bool = false) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where inAttribute: output += "&quot;"
            case "\r": output += "&#13;"
            case "\t" where inAttribute: output += "&#9;"
            case "\n" where inAttribute: output += "&#10;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    // MARK: Reading

    func metadata(of data: Data, path: String) throws -> [String: Any] {
        try Self.databaseInfo(of: data, path: path).metadata
    }

    /// Rewrites the text of `<metadata>` alone: the first `<metadata>` of the file is
    /// `<databaseInfo>`'s, as every `<` of a value is escaped.
    func replacingMetadata(_ metadata: [String: Any], in data: Data, path: String) throws -> Data {
        _ = try Self.databaseInfo(of: data, path: path)
        let text = String(decoding: data, as: UTF8.self)
        guard let open = text.range(of: "<metadata>"), let close = text.range(of: "</metadata>", range: open.upperBound..<text.endIndex) else {
            throw ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: its <metadata> is not written as <metadata>…</metadata>")
        }
        let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .xml, options: 0)
        return Data(text.replacingCharacters(in: open.upperBound..<close.lowerBound, with: Self.escaped(String(decoding: plist, as: UTF8.self))).utf8)
    }

    /// The parsed file, its `<databaseInfo>` and its metadata, once it is known to be an XML
    /// store file of this format version.
    private static func databaseInfo(of data: Data, path: String) throws -> (database: XMLStoreParser.Element, info: XMLStoreParser.Element, metadata: [String: Any]) {
        func corrupt(_ message: String) -> ManagedObjectError {
            ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: \(message)")
        }
        guard data.prefix(64).contains(UInt8(ascii: "<")) else {
            throw ManagedObjectError(.persistentStoreOpen, "\(path) is not an XML store file (it does not start as XML)")
        }
        let database = try XMLStoreParser.parse(data, path: path)
        guard database.name == "database", let info = database.child(named: "databaseInfo") else {
            throw ManagedObjectError(.persistentStoreOpen, "\(path) is not an XML store file (no <database> with <databaseInfo>)")
        }
        guard info.child(named: "format")?.text == Self.formatName else {
            let coreData = info.child(named: "version").map { " written by Core Data (XML store version \($0.text))" } ?? ""
            throw ManagedObjectError(
                .persistentStoreOpen,
                "\(path) is an XML store\(coreData), not one of ManagedObjects' (Core Data's XML store files are not read; see Docs/RuntimeDifferences.md)")
        }
        guard let version = info.child(named: "formatVersion")?.text, version == String(Self.formatVersion) else {
            throw ManagedObjectError(
                .persistentStoreOpen, "\(path) is an XML store of format version \(info.child(named: "formatVersion")?.text ?? "(none)"), not \(Self.formatVersion)")
        }
        guard let plist = info.child(named: "metadata")?.text,
              let metadata = try? PropertyListSerialization.propertyList(from: Data(plist.utf8), format: nil) as? [String: Any] else {
            throw corrupt("its <metadata> is not a property list dictionary")
        }
        guard metadata["NSStoreUUID"] as? String == info.child(named: "UUID")?.text else {
            throw corrupt("<UUID> is not the metadata's NSStoreUUID")
        }
        return (database, info, metadata)
    }

    func decode(_ data: Data, path: String, attributeType: (String, String) -> AttributeType?) throws -> AtomicStoreContents {
        func corrupt(_ message: String) -> ManagedObjectError {
            ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: \(message)")
        }
        let (database, info, metadata) = try Self.databaseInfo(of: data, path: path)
        var lastNumbers: [String: Int64] = [:]
        for element in info.children(named: "lastNumber") {
            guard let entity = element.attributes["entity"], let number = Int64(element.text) else {
                throw corrupt("a <lastNumber> without an entity or a number")
            }
            lastNumbers[entity] = number
        }
        var objects: [AtomicStoreContents.Object] = []
        for element in database.children where element.name != "databaseInfo" {
            guard element.name == "object", let entity = element.attributes["type"], let id = element.attributes["id"],
                  let number = Self.number(id) else {
                throw corrupt("<\(element.name)> \(element.attributes["id"] ?? "") is not an <object> with a type and an id z<number>")
            }
            var object = AtomicStoreContents.Object(entityName: entity, number: number)
            for child in element.children {
                guard let name = child.attributes["name"] else { throw corrupt("a <\(child.name)> without a name in object \(id)") }
                switch child.name {
                case "attribute":
                    guard let type = attributeType(entity, name), let kind = AtomicStoreValue.kind(of: type) else {
                        throw corrupt("object \(id) has a value for \(name), which is not a stored attribute of \(entity)")
                    }
                    guard child.attributes["type"] == Self.typeName(of: type) else {
                        throw corrupt("\(name) of object \(id) has type \(child.attributes["type"] ?? "(none)"), not \(Self.typeName(of: type))")
                    }
                    guard let value = Self.value(child.text, kind: kind, base64: child.attributes["encoding"] == "base64") else {
                        throw corrupt("\(name) of object \(id) has \"\(child.text)\", which does not read as \(Self.typeName(of: type))")
                    }
                    object.attributes.append((name, type, value))
                case "relationship":
                    let references = (child.attributes["idrefs"] ?? "").split(separator: " ")
                    let members = references.map { Self.number(String($0)) }
                    guard !members.contains(nil) else { throw corrupt("\(name) of object \(id) has idrefs that are not z<number>") }
                    object.relationships.append((name, child.attributes["destination"] ?? "", members.map { $0! }))
                default:
                    throw corrupt("object \(id) holds a <\(child.name)>")
                }
            }
            objects.append(object)
        }
        return AtomicStoreContents(metadata: metadata, lastNumbers: lastNumbers, objects: objects)
    }

    /// The number of an id `z<number>`.
    private static func number(_ id: String) -> Int64? {
        id.first == "z" ? Int64(id.dropFirst()) : nil
    }

    private static func value(_ text: String, kind: AtomicStoreValue.Kind, base64: Bool) -> AtomicStoreValue? {
        switch kind {
        case .integer: Int64(text).map(AtomicStoreValue.integer)
        case .boolean: text == "1" ? .boolean(true) : text == "0" ? .boolean(false) : nil
        case .real: Double(text).map(AtomicStoreValue.real)
        case .data: Data(base64Encoded: text).map(AtomicStoreValue.data)
        case .text:
            if base64 { Data(base64Encoded: text).flatMap { String(data: $0, encoding: .utf8) }.map(AtomicStoreValue.text) }
            else { .text(text) }
        }
    }
}
