import DataModelReader
import Foundation

/// How one attribute appears in Swift: the property's type and the accessor bodies that move the
/// value between that type and the runtime's storage type.
struct AttributeTyping {
    /// The property's Swift type.
    var propertyType: String
    /// The runtime storage type (non-optional), what the door's `value(at:)` is asked for.
    var storageType: String
    var getter: [String]
    var setter: [String]
    /// Said above the property when the type is a fallback (`Any?` for an unknown class).
    var comments: [String] = []
}

/// Types a transformable's `customClassName` may name and still compile everywhere (Linux
/// Foundation has the `NS` collection and value classes). Anything else is typed `Any`.
let knownTransformableTypes: Set<String> = [
    "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "Double", "Float", "Bool", "Character", "Date", "Data", "URL", "UUID", "Decimal", "Locale",
    "TimeZone", "Calendar", "IndexSet", "IndexPath", "DateComponents", "PersonNameComponents",
    "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
    "NSOrderedSet", "NSMutableOrderedSet", "NSString", "NSMutableString", "NSAttributedString",
    "NSMutableAttributedString", "NSNumber", "NSDecimalNumber", "NSData", "NSMutableData", "NSDate",
    "NSURL", "NSUUID", "NSValue", "NSObject", "NSNull", "NSIndexSet", "NSMutableIndexSet",
    "NSIndexPath", "NSLocale", "NSTimeZone", "NSCalendar", "NSDateComponents", "NSError",
    "NSPersonNameComponents", "NSMeasurement", "NSUnit",
]

struct TypeMapper {
    let index: ModelIndex
    var types: TypeNames { index.types }
    var options: GeneratorOptions { index.options }

    /// The runtime storage type of an attribute, non-optional. `comment` explains a fallback.
    func storageType(of attribute: Attribute) -> (type: String, comment: String?) {
        switch attribute.type {
        case .integer16: (types.swift("Int16"), nil)
        case .integer32: (types.swift("Int32"), nil)
        case .integer64: (types.swift("Int64"), nil)
        case .decimal: (types.foundation("Decimal"), nil)
        case .double: (types.swift("Double"), nil)
        case .float: (types.swift("Float"), nil)
        case .string: (types.string, nil)
        case .boolean: (types.swift("Bool"), nil)
        case .date: (types.foundation("Date"), nil)
        case .binary: (types.foundation("Data"), nil)
        case .uuid: (types.foundation("UUID"), nil)
        case .uri: (types.foundation("URL"), nil)
        case .objectID: (types.runtime("ManagedObjectID"), nil)
        case .undefined: (types.any, nil)
        case .composite:
            if let name = attribute.composite.flatMap({ index.compositeTypeNames[$0] }) { (name, nil) } else {
                (types.any, "Composite '\(attribute.composite ?? "")' is not defined in the model; typed Any.")
            }
        case .transformable:
            if let codable = codableType(of: attribute) { (codable, nil) } else { transformableType(attribute.customClassName) }
        }
    }

    /// The Swift type of a Transformable attribute whose user info says its `customClassName` is
    /// a `Codable` type of the app's (`managedgen.codable` = `YES`): the name as written, less
    /// the leading or trailing `.` Xcode may add; `nil` for any other attribute, or a name that
    /// is not a Swift type name.
    func codableType(of attribute: Attribute) -> String? {
        guard attribute.type == .transformable, let flag = attribute.userInfo[UserInfoKeys.codable],
              ModelIndex.isYes(flag), var name = attribute.customClassName else { return nil }
        while name.hasSuffix(".") { name.removeLast() }
        while name.hasPrefix(".") { name.removeFirst() }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let isTypeName = !parts.isEmpty && parts.allSatisfy { part in
            guard let first = part.first, first == "_" || first.isLetter else { return false }
            return part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        }
        return isTypeName ? name : nil
    }

    /// `customClassName` as a Swift type: a trailing or leading `.` and a module prefix are
    /// dropped; known Foundation/standard types (and arrays and dictionaries of them) are kept;
    /// anything else (UIColor, CKRecordID, app classes) becomes `Any`, with a comment.
    func transformableType(_ customClassName: String?) -> (type: String, comment: String?) {
        guard var name = customClassName else { return (types.any, nil) }
        while name.hasSuffix(".") { name.removeLast() }
        if name.hasPrefix(".") { name.removeFirst() }
        if let dot = name.lastIndex(of: "."), !name.contains("[") { name = String(name[name.index(after: dot)...]) }
        if let swiftType = knownType(name) { return (swiftType, nil) }
        if name.isEmpty || name == "Any" { return (types.any, nil) }
        return (types.any, "Transformable class '\(customClassName!)' is not a Foundation or standard type; typed Any.")
    }

    private func knownType(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
            let inner = String(trimmed.dropFirst().dropLast())
            if let colon = topLevelColon(inner) {
                guard let key = knownType(String(inner[..<colon])), key != "Any",
                      let value = knownType(String(inner[inner.index(after: colon)...])) else { return nil }
                return "[\(key): \(value)]"
            }
            return knownType(inner).map { "[\($0)]" }
        }
        if trimmed.hasPrefix("Set<") && trimmed.hasSuffix(">") {
            guard let element = knownType(String(trimmed.dropFirst(4).dropLast())), element != "Any" else { return nil }
            return types.set(of: element)
        }
        // `[String: Any]`, `[Any]`: Xcode types them as written, and so do we.
        if trimmed == "Any" || trimmed == "AnyHashable" { return trimmed }
        guard knownTransformableTypes.contains(trimmed) else { return nil }
        switch trimmed {
        case "Date", "Data", "URL", "UUID", "Decimal", "Locale", "TimeZone", "Calendar", "IndexSet",
             "IndexPath", "DateComponents", "PersonNameComponents":
            return types.foundation(trimmed)
        case let name where name.hasPrefix("NS"):
            return types.foundation(name)
        default:
            return types.swift(trimmed)
        }
    }

    private func topLevelColon(_ text: String) -> String.Index? {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case ":" where depth == 0: return index
            default: break
            }
        }
        return nil
    }

    /// Whether the property is a Swift optional under the current options.
    func isOptionalProperty(_ attribute: Attribute) -> Bool {
        switch options.optionality {
        case .strict:
            return attribute.isOptional || attribute.type == .undefined || storageType(of: attribute).type == types.any
        case .xcode:
            if usesScalar(attribute) { return false }
            return true
        }
    }

    /// Xcode's rule: numbers and Booleans are scalars when `usesScalarValueType` is on; Decimal
    /// never is.
    func usesScalar(_ attribute: Attribute) -> Bool {
        attribute.type.isNumeric && attribute.type != .decimal && attribute.usesScalarValueType == true
    }

    /// The stem of the door's typed accessors for the attribute's storage (`int32` →
    /// `int32(at:)`, `setInt32(_:at:)`, `int32Number(at:)`; `RuntimeContract.ObjectDoor`), or `nil`
    /// for generic storage (transformable, composite, undefined), read and written generically.
    private func accessorStem(_ attribute: Attribute) -> String? {
        Self.accessorStemsByType[attribute.type]
    }

    static let accessorStemsByType: [AttributeType: String] = [
        .integer16: "int16", .integer32: "int32", .integer64: "int64", .double: "double", .float: "float",
        .boolean: "bool", .decimal: "decimal", .string: "string", .date: "date", .binary: "data", .uuid: "uuid",
        .uri: "url", .objectID: "objectID",
    ]

    static var accessorStems: [String] { Array(accessorStemsByType.values) }

    /// The stems that also have `NSNumber?` accessors (Xcode's non-scalar numbers and Booleans).
    static let numberAccessorStems = ["int16", "int32", "int64", "double", "float", "bool"]

    /// `receiver`'s door to the runtime (`_managedGen`, or `object._managedGen` for another object).
    static func door(of receiver: String) -> String {
        receiver == "self" ? RuntimeContract.door : "\(receiver).\(RuntimeContract.door)"
    }

    /// Reads the stored attribute at `propertyIndex` as an optional of its storage type.
    func attributeRead(_ attribute: Attribute, at propertyIndex: Int) -> String {
        typedAttributeRead(attribute, at: propertyIndex, from: RuntimeContract.door)
            ?? "\(RuntimeContract.door).\(RuntimeContract.ObjectDoor.value)(at: \(propertyIndex))"
    }

    /// Reads the attribute at `propertyIndex` from `source` (an object's door, or a snapshot's
    /// `SnapshotValues`) through the typed read of its storage type (`string(at:)`), with
    /// `fallback` for nothing stored when given; `nil` for generic storage, which has none.
    func typedAttributeRead(_ attribute: Attribute, at propertyIndex: Int, from source: String, fallback: String? = nil) -> String? {
        accessorStem(attribute).map { stem in
            "\(source).\(RuntimeContract.ObjectDoor.typed(stem))(at: \(propertyIndex)\(fallback.map { ", default: \($0)" } ?? ""))"
        }
    }

    /// Writes `value` (an optional of the storage type) to the attribute at `propertyIndex` of
    /// `receiver` (the object itself, or the one a snapshot is applied to).
    func attributeWrite(_ attribute: Attribute, _ value: String, at propertyIndex: Int, of receiver: String = "self") -> String {
        let door = Self.door(of: receiver)
        if swiftType(of: attribute) != nil { return "\(door).\(RuntimeContract.ObjectDoor.setRawValue)(\(value), at: \(propertyIndex))" }
        return accessorStem(attribute).map { "\(door).\(RuntimeContract.ObjectDoor.setTyped($0))(\(value), at: \(propertyIndex))" }
            ?? "\(door).\(RuntimeContract.ObjectDoor.setValue)(\(value), at: \(propertyIndex))"
    }

    // MARK: Attributes typed with a Swift type of the app's

    /// The attribute types whose value can be the raw value of a `RawRepresentable` type.
    static let rawValueAttributeTypes: Set<AttributeType> = [.string, .integer16, .integer32, .integer64]

    /// The `RawRepresentable` Swift type the user info gives the attribute (`swiftType`, …), as
    /// written; `nil` when none is given, or it cannot be used (`swiftTypeProblem`).
    func swiftType(of attribute: Attribute) -> String? {
        guard let name = Self.declaredSwiftType(of: attribute), Self.swiftTypeProblem(of: attribute, name) == nil else { return nil }
        return name
    }

    static func declaredSwiftType(of attribute: Attribute) -> String? {
        UserInfoKeys.swiftTypeKeys.lazy.compactMap { attribute.userInfo[$0] }.first
    }

    /// Why a declared Swift type is ignored, or `nil` when it is used.
    static func swiftTypeProblem(of attribute: Attribute, _ name: String) -> String? {
        guard rawValueAttributeTypes.contains(attribute.type) else {
            return "a \(attribute.type.rawValue) attribute cannot store a raw value (String and integer attributes can)"
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ SwiftNames.isIdentifier($0) && !SwiftNames.reservedWords.contains($0) }) else {
            return "'\(name)' is not a Swift type name"
        }
        return nil
    }

    /// The user info's value for a Swift-typed attribute that has none or an unknown raw value.
    static func swiftTypeDefault(of attribute: Attribute) -> String? {
        UserInfoKeys.swiftTypeDefaultKeys.lazy.compactMap { attribute.userInfo[$0] }.first
    }

    /// A Swift-typed attribute: its type (optional when the attribute is, or when nothing says
    /// what to read for no value) and the runtime's raw-value accessors.
    private func rawValueTyping(_ attribute: Attribute, type: String, at propertyIndex: Int, receiver: String = "self") -> AttributeTyping {
        let read = rawValueRead(attribute, type: type, at: propertyIndex, receiver: receiver)
        return AttributeTyping(
            propertyType: read.type, storageType: storageType(of: attribute).type, getter: [read.expression],
            setter: [attributeWrite(attribute, "newValue", at: propertyIndex)])
    }

    /// How a Swift-typed attribute reads from `receiver`: `self` (through its door), or a
    /// snapshot's `values`.
    func rawValueRead(_ attribute: Attribute, type: String, at propertyIndex: Int, receiver: String) -> (type: String, expression: String) {
        let read = receiver == "self"
            ? "\(RuntimeContract.door).\(RuntimeContract.ObjectDoor.rawValue)"
            : "\(receiver).\(RuntimeContract.SnapshotValues.rawValueAttribute)"
        switch (attribute.isOptional, Self.swiftTypeDefault(of: attribute)) {
        case (false, let fallback?): return (type, "\(read)(at: \(propertyIndex), default: \(fallback))")
        case (true, let fallback?): return ("\(type)?", "\(read)(at: \(propertyIndex), ifUnknown: \(fallback))")
        case (_, nil): return ("\(type)?", "\(read)(at: \(propertyIndex))")
        }
    }

    func typing(of attribute: Attribute, at propertyIndex: Int, entityName: String) -> AttributeTyping {
        if let swiftType = swiftType(of: attribute) { return rawValueTyping(attribute, type: swiftType, at: propertyIndex) }
        let (storage, comment) = storageType(of: attribute)
        let comments = comment.map { [$0] } ?? []
        if options.optionality == .xcode, !usesScalar(attribute), attribute.type.isNumeric, attribute.type != .decimal,
           let stem = accessorStem(attribute) {
            return AttributeTyping(
                propertyType: "\(types.foundation("NSNumber"))?", storageType: storage,
                getter: ["\(RuntimeContract.door).\(RuntimeContract.ObjectDoor.number(stem))(at: \(propertyIndex))"],
                setter: ["\(RuntimeContract.door).\(RuntimeContract.ObjectDoor.setNumber(stem))(newValue, at: \(propertyIndex))"])
        }
        if let composite = attribute.composite.flatMap({ index.compositeTypeNames[$0] }), attribute.type == .composite {
            let optional = isOptionalProperty(attribute)
            let door = RuntimeContract.door
            let read = "(\(door).\(RuntimeContract.ObjectDoor.value)(at: \(propertyIndex)) as [\(types.string): Any]?)"
                + ".map(\(composite).init(dictionary:))"
            if optional {
                return AttributeTyping(
                    propertyType: "\(composite)?", storageType: storage, getter: [read],
                    setter: [attributeWrite(attribute, "newValue?.dictionary", at: propertyIndex)], comments: comments)
            }
            return AttributeTyping(
                propertyType: composite, storageType: storage,
                getter: ["\(read) ?? \(composite)()"],
                setter: [attributeWrite(attribute, "newValue.dictionary", at: propertyIndex)], comments: comments)
        }
        let setter = [attributeWrite(attribute, "newValue", at: propertyIndex)]
        if isOptionalProperty(attribute) {
            return AttributeTyping(
                propertyType: "\(storage)?", storageType: storage,
                getter: [attributeRead(attribute, at: propertyIndex)], setter: setter, comments: comments)
        }
        return AttributeTyping(
            propertyType: storage, storageType: storage,
            getter: nonOptionalAttributeRead(
                attribute, at: propertyIndex, type: storage,
                fallback: fallbackValue(for: attribute, override: nil),
                what: "\(entityName).\(attribute.name)"),
            setter: setter, comments: comments)
    }

    /// A getter for a non-optional view of the attribute at `propertyIndex`: the stored value,
    /// else `fallback` (`int16(at: 3, default: 0)`, quicker to typecheck than `?? 0`),
    /// else a trap naming the property.
    func nonOptionalAttributeRead(_ attribute: Attribute, at propertyIndex: Int, type: String, fallback: String?, what: String) -> [String] {
        let read = attributeRead(attribute, at: propertyIndex)
        guard let fallback else { return requiredRead(read, type: type, what: what) }
        if let typed = typedAttributeRead(attribute, at: propertyIndex, from: RuntimeContract.door, fallback: fallback) {
            return [typed]
        }
        return ["\(read) ?? \(fallback)"]
    }

    /// A getter that reads an optional and traps naming the property when it is `nil`.
    func requiredRead(_ read: String, type: String, what: String) -> [String] {
        ["\(RuntimeContract.door).\(RuntimeContract.ObjectDoor.required)(\(read) as \(type)?, key: \(SwiftNames.stringLiteral(what)))"]
    }

    /// The value a non-optional view of the attribute gives when nothing is stored: the override
    /// (user info), else the model's default, else the type's empty value (`""`, `0`, `false`,
    /// empty `Data`); `nil` where there is none (a date, UUID, URL, object) — then the getter traps.
    /// Overrides and model defaults are read by `AttributeDefault`, as the runtime reads defaults,
    /// so the fallback is the value a new object gets; one that does not read as the type is
    /// ignored (real models have those).
    func fallbackValue(for attribute: Attribute, override: String?) -> String? {
        if let override, let value = AttributeDefault(parsing: override, as: attribute.type) {
            return literal(value)
        }
        if let value = attribute.parsedDefault { return literal(value) }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal: return "0"
        case .boolean: return "false"
        case .string: return "\"\""
        case .binary: return "\(types.foundation("Data"))()"
        default: return nil
        }
    }

    /// A Swift literal for a parsed default.
    func literal(_ value: AttributeDefault) -> String {
        switch value {
        case .integer(let number): String(number)
        case .double(let number): numberLiteral(number)
        case .decimal(let number):
            "\(types.foundation("Decimal"))(string: \(SwiftNames.stringLiteral(number.description)))!"
        case .boolean(let flag): flag ? "true" : "false"
        case .string(let text): SwiftNames.stringLiteral(text)
        case .date(let seconds):
            "\(types.foundation("Date"))(timeIntervalSinceReferenceDate: \(numberLiteral(seconds)))"
        case .uuid(let uuid):
            "\(types.foundation("UUID"))(uuidString: \(SwiftNames.stringLiteral(uuid.uuidString)))!"
        case .uri(let url):
            "\(types.foundation("URL"))(string: \(SwiftNames.stringLiteral(url.absoluteString)))!"
        }
    }

    /// A number as Swift source: integral values without a fraction (`2`), others as Swift prints
    /// them (shortest round-trip form, so it is the same on every machine).
    func numberLiteral(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
