/// Identifier rules: which names need backticks, which clash with the runtime's members, and how
/// model names become Swift names.
public enum SwiftNames {
    /// Words that must be written in backticks to be used as an identifier anywhere (declaration,
    /// or after a dot: `Type`, `Protocol`, `self`, `init` mean something else there).
    public static let reservedWords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "Type", "Protocol", "package", "consume", "borrowing", "consuming", "copy",
        "discard", "each", "some", "any", "_",
    ]

    /// The members every generated class inherits from `ManagedObject` or declares itself (plus
    /// the nested `Keys` enum): the runtime's public API, and of its generated-code SPI only the
    /// door (`_managedGen`) and `storedPropertyLayoutHash` (`RuntimeContract.reservedMembers`). A
    /// model property with one of these names gets a Swift property named with a trailing `_`
    /// appended (`description` → `description_`); its key stays the model's name. So does a property named like its own class. `id` is not among them:
    /// `Identifiable`'s comes from the standard library's extension for classes, so a generated
    /// `id` (Xcode's name, which Core Data code uses) stands beside it as on `NSManagedObject`.
    public static let managedObjectMembers: Set<String> = Set([
        "entity", "objectID", "managedObjectContext", "isInserted", "isUpdated", "isDeleted",
        "isFault", "hasChanges", "hasPersistentChangedValues", "changedValues", "committedValues",
        "changedValuesForCurrentEvent", "description", "debugDescription", "hash", "hashValue",
        "value", "setValue", "primitiveValue", "setPrimitiveValue", "willAccessValue",
        "didAccessValue", "willChangeValue", "didChangeValue", "attributeValue",
        "setAttributeValue", "toOneRelationship", "setToOneRelationship", "relationship",
        "setRelationship", "orderedRelationship", "setOrderedRelationship", "addToRelationship",
        "removeFromRelationship", "insertIntoRelationship", "replaceInRelationship",
        "awakeFromInsert", "awakeFromFetch", "willSave", "didSave", "prepareForDeletion",
        "willTurnIntoFault", "didTurnIntoFault", "faultingState", "validateForInsert",
        "validateForUpdate", "validateForDelete", "validateValue", "objectIDs",
        "entityName", "fetchRequest", "Keys", "self", "init", "deinit", "isEqual", "className",
        "classForCoder", "dynamicType", "isEmpty", "propertyValues", "setValuesForKeys",
        "dictionaryWithValues", "mutableSetValue", "mutableOrderedSetValue", "mutableArrayValue",
        // The runtime's own public members, and the one generated classes implement.
        "objectIDValue", "typedObjectID", "storedValue", "hasFaultForRelationship", "propertyNamesByKeyPath",
        // FetchableManagedObject's static methods: `Reserved.fetch(in:)` would be ambiguous beside a property.
        "fetch", "count", "first",
    ]).union(RuntimeContract.reservedMembers)

    /// What a class with a snapshot declares (`SnapshotTranslator`): reserved as property names
    /// in every class of a model where some class has one.
    public static let snapshotMembers: Set<String> = [
        "snapshot", "Snapshot", "fetchSnapshots", "anySnapshot", "AnySnapshot", "fetchAnySnapshots",
    ]

    /// `name` as it must be written to be an identifier.
    public static func escaped(_ name: String) -> String {
        reservedWords.contains(name) ? "`\(name)`" : name
    }

    /// The first letter uppercased: `icao` → `Icao`.
    public static func uppercasingFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// The first letter lowercased: `Dog` → `dog`.
    public static func lowercasingFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// A string literal for `text`, escaping what Swift requires.
    public static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Whether `name` is a valid Swift identifier on its own (letters, digits, `_`; not starting
    /// with a digit). Model names that are not get a sanitized Swift name.
    public static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        if ("0"..."9").contains(first) { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// `name` with anything that cannot be in an identifier replaced by `_`.
    public static func sanitized(_ name: String) -> String {
        if isIdentifier(name) { return name }
        var result = String(String.UnicodeScalarView(name.unicodeScalars.map {
            $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) ? $0 : "_"
        }))
        if result.first.map({ $0.isNumber }) ?? true { result = "_" + result }
        return result
    }
}
