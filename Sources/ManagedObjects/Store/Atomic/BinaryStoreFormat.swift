import DataModel
import Foundation

/// The binary store's file (``PersistentStoreType/binary``): a binary property list. Core
/// Data's binary store is a keyed archive of its own classes, whose layout no real sample here
/// shows, so this is a format of ManagedObjects, documented in Docs/RuntimeDifferences.md
/// ("Stores"), and Core Data's binary files are not read:
///
///     { "format": "ManagedObjects.BinaryStore", "formatVersion": 1,
///       "metadata": { NSStoreUUID, NSStoreType, NSStoreModelVersionHashes, … },
///       "lastNumbers": { <root entity>: <last number given out> },
///       "objects": [ { "entity": <name>, "number": <n>,
///                      "attributes": { <name>: <value> },          (nil values left out)
///                      "relationships": { <name>: [<member number>, …] } } ] }
///
/// Values by kind (``AtomicStoreValue``): integers and reals as numbers, Booleans as
/// Booleans, text as strings, data as data.
struct BinaryStoreFormat: AtomicStoreFormat {
    static let formatName = "ManagedObjects.BinaryStore"
    static let formatVersion = 1

    func encode(_ contents: AtomicStoreContents) throws -> Data {
        let objects: [[String: Any]] = contents.objects.map { object in
            [
                "entity": object.entityName,
                "number": object.number,
                "attributes": Dictionary(object.attributes.map { ($0.name, Self.propertyListValue($0.value)) }, uniquingKeysWith: { $1 }),
                "relationships": Dictionary(object.relationships.map { ($0.name, $0.members) }, uniquingKeysWith: { $1 }),
            ]
        }
        let root: [String: Any] = [
            "format": Self.formatName, "formatVersion": Self.formatVersion,
            "metadata": contents.metadata, "lastNumbers": contents.lastNumbers, "objects": objects,
        ]
        return try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    }

    func metadata(of data: Data, path: String) throws -> [String: Any] {
        guard let metadata = try Self.root(of: data, path: path)["metadata"] as? [String: Any] else {
            throw ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: it has no metadata")
        }
        return metadata
    }

    func replacingMetadata(_ metadata: [String: Any], in data: Data, path: String) throws -> Data {
        var root = try Self.root(of: data, path: path)
        root["metadata"] = metadata
        return try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    }

    /// The file's top dictionary, once it is known to be a binary store file of this format version.
    private static func root(of data: Data, path: String) throws -> [String: Any] {
        func corrupt(_ message: String) -> ManagedObjectError {
            ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: \(message)")
        }
        guard data.starts(with: Data("bplist00".utf8)) else {
            throw ManagedObjectError(.persistentStoreOpen, "\(path) is not a binary store file (it does not start as a binary property list)")
        }
        let root: [String: Any]
        do {
            guard let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw corrupt("its property list is not a dictionary")
            }
            root = dictionary
        } catch let error as ManagedObjectError {
            throw error
        } catch {
            throw corrupt("its property list does not read (\(error.localizedDescription))")
        }
        guard root["format"] as? String == Self.formatName else {
            throw ManagedObjectError(
                .persistentStoreOpen,
                "\(path) is not a ManagedObjects binary store (Core Data's binary store files are not read; see Docs/RuntimeDifferences.md)")
        }
        guard let version = Self.integer(root["formatVersion"]), version == Int64(Self.formatVersion) else {
            throw ManagedObjectError(
                .persistentStoreOpen, "\(path) is a binary store of format version \(root["formatVersion"].map { "\($0)" } ?? "(none)"), not \(Self.formatVersion)")
        }
        return root
    }

    func decode(_ data: Data, path: String, attributeType: (String, String) -> AttributeType?) throws -> AtomicStoreContents {
        func corrupt(_ message: String) -> ManagedObjectError {
            ManagedObjectError(.persistentStoreOpen, "the store file \(path) is damaged: \(message)")
        }
        let root = try Self.root(of: data, path: path)
        guard let metadata = root["metadata"] as? [String: Any] else { throw corrupt("it has no metadata") }
        guard let numbers = root["lastNumbers"] as? [String: Any], let list = root["objects"] as? [Any] else {
            throw corrupt("it has no number sequences or no object list")
        }
        var lastNumbers: [String: Int64] = [:]
        for (name, value) in numbers {
            guard let number = Self.integer(value) else { throw corrupt("the number sequence of \(name) is not a number") }
            lastNumbers[name] = number
        }
        var objects: [AtomicStoreContents.Object] = []
        objects.reserveCapacity(list.count)
        for (position, item) in list.enumerated() {
            guard let dictionary = item as? [String: Any], let entity = dictionary["entity"] as? String,
                  let number = Self.integer(dictionary["number"]) else {
                throw corrupt("object \(position + 1) of the list has no entity or number")
            }
            var object = AtomicStoreContents.Object(entityName: entity, number: number)
            for (name, value) in (dictionary["attributes"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let type = attributeType(entity, name), let kind = AtomicStoreValue.kind(of: type),
                      let read = Self.value(value, kind: kind) else {
                    throw corrupt("\(entity) number \(number) has \(value) for \(name), which is not a stored attribute's value")
                }
                object.attributes.append((name, type, read))
            }
            for (name, value) in (dictionary["relationships"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let members = (value as? [Any])?.map(Self.integer), !members.contains(nil) else {
                    throw corrupt("\(entity) number \(number) has members of \(name) that are not numbers")
                }
                object.relationships.append((name, "", members.map { $0! }))
            }
            objects.append(object)
        }
        return AtomicStoreContents(metadata: metadata, lastNumbers: lastNumbers, objects: objects)
    }

    private static func propertyListValue(_ value: AtomicStoreValue) -> Any {
        switch value {
        case .integer(let integer): integer
        case .boolean(let flag): flag
        case .real(let double): double
        case .text(let text): text
        case .data(let data): data
        }
    }

    private static func value(_ value: Any, kind: AtomicStoreValue.Kind) -> AtomicStoreValue? {
        switch kind {
        case .integer: integer(value).map(AtomicStoreValue.integer)
        case .boolean: (value as? Bool).map(AtomicStoreValue.boolean)
        case .real: (value as? Double).map(AtomicStoreValue.real) ?? integer(value).map { .real(Double($0)) }
        case .text: (value as? String).map(AtomicStoreValue.text)
        case .data: (value as? Data).map(AtomicStoreValue.data)
        }
    }

    /// A property-list integer (an `NSNumber` on Linux as on Apple platforms).
    private static func integer(_ value: Any?) -> Int64? {
        if let integer = value as? Int64 { return integer }
        return (value as? Int).map(Int64.init)
    }
}
