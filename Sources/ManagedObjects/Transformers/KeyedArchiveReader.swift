import Foundation

/// Reads an `NSKeyedArchiver` archive (a property list whose `$objects` refer to each other by
/// UID) into Foundation values, admitting only allowed classes: secure decoding as Apple's,
/// which refuses an archive naming any other class before instantiating anything.
///
/// Ours, not Foundation's `NSKeyedUnarchiver`: on Linux that stops the program on a class that
/// is not allowed. A store's archives are data from outside, so every malformed part (a
/// reference out of range, a reference cycle, nesting deeper than `maximumDepth`, a wrong
/// type anywhere) throws ``KeyedArchiveError``. Each object is decoded once and shared by the
/// references to it, so an archive's cost is bounded by its size.
struct KeyedArchiveReader {
    static let maximumDepth = 512

    private let objects: [Any]
    private let root: Int
    private let allowedClassNames: Set<String>
    private var decoded: [Int: Any] = [:]
    private var inProgress: Set<Int> = []

    init(data: Data, allowedClassNames: Set<String>) throws {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw KeyedArchiveError("not a property list (\(data.count) bytes)")
        }
        guard let archive = plist as? [String: Any] else { throw KeyedArchiveError("the property list is not a keyed archive") }
        guard archive["$archiver"] as? String == "NSKeyedArchiver" else {
            throw KeyedArchiveError("$archiver is not NSKeyedArchiver")
        }
        guard let objects = archive["$objects"] as? [Any] else { throw KeyedArchiveError("the archive has no $objects list") }
        guard let top = archive["$top"] as? [String: Any], let rootReference = top["root"] else {
            throw KeyedArchiveError("the archive has no $top root")
        }
        guard let root = Self.uid(rootReference), root < objects.count else {
            throw KeyedArchiveError("$top root is not a reference to one of the \(objects.count) objects")
        }
        self.objects = objects
        self.root = root
        self.allowedClassNames = allowedClassNames
    }

    /// The archive's root value; `nil` when the root is `$null`.
    mutating func rootObject() throws -> Any? {
        try object(root, depth: 0)
    }

    /// A UID's value: Foundation on Linux gives binary plists' UIDs as its internal
    /// `_NSKeyedArchiverUID` (its number in `value`); XML archives write `{CF$UID = n}`.
    static func uid(_ reference: Any) -> Int? {
        if let dictionary = reference as? [String: Any], dictionary.count == 1, let value = dictionary["CF$UID"] as? Int {
            return value >= 0 ? value : nil
        }
        guard String(describing: type(of: reference)) == "_NSKeyedArchiverUID" else { return nil }
        return Mirror(reflecting: reference).children.first { $0.label == "value" }.flatMap { child in
            (child.value as? UInt32).map(Int.init)
        }
    }

    private func reference(_ value: Any?, _ what: String, in index: Int) throws -> Int {
        guard let value, let uid = Self.uid(value), uid < objects.count else {
            throw KeyedArchiveError("object \(index): \(what) is not a reference to one of the \(objects.count) objects")
        }
        return uid
    }

    private func requireAllowed(_ className: String, at index: Int) throws {
        guard allowedClassNames.contains(className) else {
            throw KeyedArchiveError("object \(index) is of class \(className), which is not allowed (allowed: \(allowedClassNames.sorted().joined(separator: ", ")))")
        }
    }

    private mutating func object(_ index: Int, depth: Int) throws -> Any? {
        if let done = decoded[index] { return done }
        guard depth < Self.maximumDepth else { throw KeyedArchiveError("objects nest deeper than \(Self.maximumDepth)") }
        let raw = objects[index]
        if let string = raw as? String {
            if string == "$null" { return nil }
            try requireAllowed("NSString", at: index)
            return string
        }
        if raw is Bool || raw is NSNumber || raw is Int || raw is Double {
            try requireAllowed("NSNumber", at: index)
            return raw
        }
        if let data = raw as? Data {
            try requireAllowed("NSData", at: index)
            return data
        }
        guard let fields = raw as? [String: Any], let classReference = fields["$class"] else {
            throw KeyedArchiveError("object \(index) is neither a value nor an object with a $class")
        }
        let classIndex = try reference(classReference, "$class", in: index)
        guard let classFields = objects[classIndex] as? [String: Any], let className = classFields["$classname"] as? String else {
            throw KeyedArchiveError("object \(index): its $class (object \(classIndex)) has no $classname")
        }
        try requireAllowed(className, at: index)
        guard inProgress.insert(index).inserted else { throw KeyedArchiveError("object \(index) contains itself") }
        defer { inProgress.remove(index) }
        let value = try instance(of: className, fields: fields, index: index, depth: depth)
        decoded[index] = value
        return value
    }

    private mutating func members(_ fields: [String: Any], key: String, index: Int, depth: Int) throws -> [Any] {
        guard let references = fields[key] as? [Any] else { throw KeyedArchiveError("object \(index): \(key) is not a list") }
        return try references.map { reference in
            guard let member = try object(self.reference(reference, key, in: index), depth: depth + 1) else {
                throw KeyedArchiveError("object \(index): \(key) holds $null")
            }
            return member
        }
    }

    private mutating func instance(of className: String, fields: [String: Any], index: Int, depth: Int) throws -> Any {
        func field<Value>(_ key: String, _: Value.Type) throws -> Value {
            guard let value = fields[key] as? Value else {
                throw KeyedArchiveError("object \(index) (\(className)): \(key) is missing or not \(Value.self)")
            }
            return value
        }
        switch className {
        case "NSArray", "NSMutableArray":
            return try members(fields, key: "NS.objects", index: index, depth: depth)
        case "NSSet", "NSMutableSet":
            return Set(try hashable(members(fields, key: "NS.objects", index: index, depth: depth), index: index))
        case "NSOrderedSet", "NSMutableOrderedSet":
            if fields["NS.objects"] != nil {
                return NSOrderedSet(array: try members(fields, key: "NS.objects", index: index, depth: depth))
            }
            // Foundation on Linux writes each member under a key of its own.
            var references: [Any] = []
            while let reference = fields["NS.object.\(references.count)"] { references.append(reference) }
            return NSOrderedSet(array: try members(["NS.objects": references], key: "NS.objects", index: index, depth: depth))
        case "NSDictionary", "NSMutableDictionary":
            let keys = try hashable(members(fields, key: "NS.keys", index: index, depth: depth), index: index)
            let values = try members(fields, key: "NS.objects", index: index, depth: depth)
            guard keys.count == values.count else {
                throw KeyedArchiveError("object \(index): \(keys.count) keys but \(values.count) values")
            }
            return Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
        case "NSString", "NSMutableString":
            if let string = fields["NS.string"] as? String { return string }
            guard let bytes = fields["NS.bytes"] as? Data, let string = String(data: bytes, encoding: .utf8) else {
                throw KeyedArchiveError("object \(index) (\(className)) has neither NS.string nor UTF-8 NS.bytes")
            }
            return string
        case "NSDate":
            return Date(timeIntervalSinceReferenceDate: try field("NS.time", Double.self))
        case "NSData", "NSMutableData":
            return try field("NS.data", Data.self)
        case "NSUUID":
            let bytes = [UInt8](try field("NS.uuidbytes", Data.self))
            guard bytes.count == 16 else { throw KeyedArchiveError("object \(index) (NSUUID): NS.uuidbytes is not 16 bytes") }
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        case "NSURL":
            let base = try object(reference(fields["NS.base"], "NS.base", in: index), depth: depth + 1)
            guard let relative = try object(reference(fields["NS.relative"], "NS.relative", in: index), depth: depth + 1) as? String else {
                throw KeyedArchiveError("object \(index) (NSURL): NS.relative is not a string")
            }
            guard let url = URL(string: relative, relativeTo: base as? URL) else {
                throw KeyedArchiveError("object \(index) (NSURL): \(relative) is not a URL")
            }
            return url
        case "NSNull":
            return NSNull()
        default:
            throw KeyedArchiveError("object \(index): class \(className) is allowed but cannot be read here")
        }
    }

    private func hashable(_ values: [Any], index: Int) throws -> [AnyHashable] {
        try values.map { value in
            guard let hashable = value as? AnyHashable else {
                throw KeyedArchiveError("object \(index): a set member or key of type \(type(of: value)) cannot be hashed")
            }
            return hashable
        }
    }
}
