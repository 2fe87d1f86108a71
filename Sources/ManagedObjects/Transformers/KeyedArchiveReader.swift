import Foundation

/// Reads an `NSKeyedArchiver` archive (a binary property list whose `$objects` refer to each
/// other by UID) into Foundation values, admitting only allowed classes: secure decoding as
/// Apple's, which refuses an archive naming any other class before instantiating anything.
///
/// Ours, not Foundation's `NSKeyedUnarchiver`: on Linux that stops the program on a class that
/// is not allowed. A store's archives are data from outside, so every malformed part (a
/// reference out of range, a reference cycle, nesting deeper than `maximumDepth`, a count the
/// bytes cannot hold, a wrong type anywhere) throws ``KeyedArchiveError``. Each object is
/// decoded once and shared by the references to it, so an archive's cost is bounded by its size.
struct KeyedArchiveReader {
    /// Each level recurses through a few frames; 512 levels overflowed a context thread's stack
    /// under Thread Sanitizer (larger frames). Real archives nest a handful of levels.
    static let maximumDepth = 256

    private let list: BinaryPropertyList
    /// The `$objects`, each the index of its object in `list`.
    private let objects: [Int]
    private let root: Int
    private let allowedClassNames: Set<String>
    private var decoded: [Int: Any] = [:]
    /// Each decoded object's identity: equal objects (as Apple's `isEqual:` finds them) share one.
    private var identities: [Int: Int] = [:]
    private var equality = ArchivedObjectIdentities()
    private var inProgress: Set<Int> = []

    init(data: Data, allowedClassNames: Set<String>) throws {
        let list = try BinaryPropertyListReader.read(data)
        guard case .dictionary = list.objects[list.top] else { throw KeyedArchiveError("the property list is not a keyed archive (its top is no dictionary)") }
        guard let archiver = list.value(in: list.top, forKey: "$archiver"), list.objects[archiver] == .string("NSKeyedArchiver") else {
            throw KeyedArchiveError("$archiver is not NSKeyedArchiver")
        }
        guard let objectsIndex = list.value(in: list.top, forKey: "$objects"), case .array(let objects) = list.objects[objectsIndex] else {
            throw KeyedArchiveError("the archive has no $objects list")
        }
        guard let top = list.value(in: list.top, forKey: "$top"), let rootReference = list.value(in: top, forKey: "root") else {
            throw KeyedArchiveError("the archive has no $top root")
        }
        guard case .uid(let root) = list.objects[rootReference], root < objects.count else {
            throw KeyedArchiveError("$top root is not a reference to one of the \(objects.count) objects")
        }
        self.list = list
        self.objects = objects
        self.root = Int(root)
        self.allowedClassNames = allowedClassNames
        try requireAllowedClasses()
    }

    /// The archive's root value; `nil` when the root is `$null`.
    mutating func rootObject() throws -> Any? {
        try object(root, depth: 0)
    }

    /// Refuses the archive when any of its objects names a class that is not allowed, before
    /// anything is decoded.
    private func requireAllowedClasses() throws {
        for number in objects.indices {
            guard let classReference = list.value(in: objects[number], forKey: "$class") else { continue }
            try requireAllowed(try className(reference: classReference, of: number), at: number)
        }
    }

    private func className(reference: Int, of number: Int) throws -> String {
        let classNumber = try self.number(reference, "$class", in: number)
        guard let name = list.value(in: objects[classNumber], forKey: "$classname"), case .string(let className) = list.objects[name] else {
            throw KeyedArchiveError("object \(number): its $class (object \(classNumber)) has no $classname")
        }
        return className
    }

    /// The object number a UID at `reference` (an index in `list`) gives.
    private func number(_ reference: Int?, _ what: String, in number: Int) throws -> Int {
        guard let reference, case .uid(let uid) = list.objects[reference], uid < objects.count else {
            throw KeyedArchiveError("object \(number): \(what) is not a reference to one of the \(objects.count) objects")
        }
        return Int(uid)
    }

    private func requireAllowed(_ className: String, at number: Int) throws {
        guard allowedClassNames.contains(className) else {
            throw KeyedArchiveError("object \(number) is of class \(className), which is not allowed (allowed: \(allowedClassNames.sorted().joined(separator: ", ")))")
        }
    }

    private mutating func object(_ number: Int, depth: Int) throws -> Any? {
        // UID 0 is `$null`, Apple's nil.
        guard number != 0 else { return nil }
        if let done = decoded[number] { return done }
        guard depth < Self.maximumDepth else { throw KeyedArchiveError("objects nest deeper than \(Self.maximumDepth)") }
        let value: Any
        var identity: Int?
        switch list.objects[objects[number]] {
        case .string(let string):
            try requireAllowed("NSString", at: number)
            value = string
        case .integer(let integer):
            try requireAllowed("NSNumber", at: number)
            value = NSNumber(value: integer)
        case .unsignedInteger(let integer):
            try requireAllowed("NSNumber", at: number)
            value = NSNumber(value: integer)
        case .real(let real):
            try requireAllowed("NSNumber", at: number)
            value = NSNumber(value: real)
        case .real32(let real):
            try requireAllowed("NSNumber", at: number)
            value = NSNumber(value: real)
        case .boolean(let boolean):
            try requireAllowed("NSNumber", at: number)
            value = boolean
        case .data(let data):
            try requireAllowed("NSData", at: number)
            value = data
        case .dictionary:
            guard let classReference = list.value(in: objects[number], forKey: "$class") else {
                throw KeyedArchiveError("object \(number) is a dictionary without $class")
            }
            let className = try className(reference: classReference, of: number)
            try requireAllowed(className, at: number)
            guard inProgress.insert(number).inserted else { throw KeyedArchiveError("object \(number) contains itself") }
            defer { inProgress.remove(number) }
            let made = try instance(of: className, number: number, depth: depth)
            value = made.value
            identity = made.identity
        case let other:
            throw KeyedArchiveError("object \(number) is \(Self.describe(other)), neither a value nor an object with a $class")
        }
        decoded[number] = value
        identities[number] = identity ?? equality.identity(of: value, objectNumber: number)
        return value
    }

    private static func describe(_ object: BinaryPropertyList.Object) -> String {
        switch object {
        case .null: "a property list null"
        case .date: "a property list date"
        case .uid: "a UID"
        case .array: "a property list array"
        case .set: "a property list set"
        default: "\(object)"
        }
    }

    /// The field `key` of object `number`, when it is there.
    private func field(_ key: String, of number: Int) -> BinaryPropertyList.Object? {
        list.value(in: objects[number], forKey: key).map { list.objects[$0] }
    }

    private typealias Member = (value: Any, identity: Int)

    private mutating func member(_ reference: Int?, _ key: String, of number: Int, depth: Int) throws -> Member {
        let memberNumber = try self.number(reference, key, in: number)
        guard let member = try object(memberNumber, depth: depth + 1), let identity = identities[memberNumber] else {
            throw KeyedArchiveError("object \(number): \(key) holds $null")
        }
        return (member, identity)
    }

    private mutating func members(_ key: String, of number: Int, depth: Int) throws -> [Member] {
        guard case .array(let references)? = field(key, of: number) else { throw KeyedArchiveError("object \(number): \(key) is not a list") }
        return try references.map { try member($0, key, of: number, depth: depth) }
    }

    /// The first of each run of equal members, in order: what `NSSet` and `NSOrderedSet` keep
    /// of members equal by `isEqual:` (`true` and `1`, two equal arrays) when Apple's
    /// unarchiver makes them.
    private static func unique(_ members: [Member]) -> [Member] {
        var seen: Set<Int> = []
        return members.filter { seen.insert($0.identity).inserted }
    }

    /// The object of an allowed class, with its identity when it is a collection (whose identity
    /// comes from its members').
    private mutating func instance(of className: String, number: Int, depth: Int) throws -> (value: Any, identity: Int?) {
        switch className {
        case "NSArray", "NSMutableArray":
            let members = try members("NS.objects", of: number, depth: depth)
            let array = members.map(\.value)
            return (array, equality.identity(of: array, objectNumber: number, members: members.map(\.identity)))
        case "NSSet", "NSMutableSet":
            let members = Self.unique(try members("NS.objects", of: number, depth: depth))
            let set = Set(try hashable(members.map(\.value), number: number))
            return (set, equality.identity(of: set, objectNumber: number, members: members.map(\.identity)))
        case "NSOrderedSet", "NSMutableOrderedSet":
            var members: [Member] = []
            if field("NS.objects", of: number) != nil {
                members = try self.members("NS.objects", of: number, depth: depth)
            } else if case .dictionary(let keys, let values) = list.objects[objects[number]] {
                // Foundation on Linux writes each member under a key of its own.
                var fields: [String: Int] = [:]
                for (key, value) in zip(keys, values) {
                    if case .string(let name) = list.objects[key] { fields[name] = value }
                }
                while let reference = fields["NS.object.\(members.count)"] {
                    members.append(try member(reference, "NS.object.\(members.count)", of: number, depth: depth))
                }
            }
            members = Self.unique(members)
            let set = NSOrderedSet(array: members.map(\.value))
            return (set, equality.identity(of: set, objectNumber: number, members: members.map(\.identity)))
        case "NSDictionary", "NSMutableDictionary":
            let keys = try members("NS.keys", of: number, depth: depth)
            let values = try members("NS.objects", of: number, depth: depth)
            guard keys.count == values.count else {
                throw KeyedArchiveError("object \(number): \(keys.count) keys but \(values.count) values")
            }
            // Equal keys (by `isEqual:`) are one key, as in `NSDictionary`: the first key with
            // the last value.
            var order: [Int] = []
            var pairs: [Int: (key: Member, value: Member)] = [:]
            for (key, value) in zip(keys, values) {
                if let first = pairs[key.identity] {
                    pairs[key.identity] = (first.key, value)
                } else {
                    pairs[key.identity] = (key, value)
                    order.append(key.identity)
                }
            }
            let kept = order.map { pairs[$0]! }
            let dictionary = Dictionary(zip(try hashable(kept.map(\.key.value), number: number), kept.map(\.value.value)),
                                        uniquingKeysWith: { _, last in last })
            return (dictionary, equality.identity(of: dictionary, objectNumber: number,
                                                  members: kept.map(\.key.identity), values: kept.map(\.value.identity)))
        case "NSString", "NSMutableString":
            if case .string(let string)? = field("NS.string", of: number) { return (string, nil) }
            guard case .data(let bytes)? = field("NS.bytes", of: number), let string = String(data: bytes, encoding: .utf8) else {
                throw KeyedArchiveError("object \(number) (\(className)) has neither NS.string nor UTF-8 NS.bytes")
            }
            return (string, nil)
        case "NSDate":
            switch field("NS.time", of: number) {
            case .real(let time)?: return (Date(timeIntervalSinceReferenceDate: time), nil)
            case .integer(let time)?: return (Date(timeIntervalSinceReferenceDate: Double(time)), nil)
            default: throw KeyedArchiveError("object \(number) (NSDate): NS.time is missing or not a number")
            }
        case "NSData", "NSMutableData":
            guard case .data(let data)? = field("NS.data", of: number) else {
                throw KeyedArchiveError("object \(number) (\(className)): NS.data is missing or not data")
            }
            return (data, nil)
        case "NSUUID":
            guard case .data(let data)? = field("NS.uuidbytes", of: number), data.count == 16 else {
                throw KeyedArchiveError("object \(number) (NSUUID): NS.uuidbytes is missing or not 16 bytes")
            }
            let bytes = [UInt8](data)
            return (UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])), nil)
        case "NSURL":
            let baseNumber = try self.number(list.value(in: objects[number], forKey: "NS.base"), "NS.base", in: number)
            let base = try object(baseNumber, depth: depth + 1)
            guard base == nil || base is URL else { throw KeyedArchiveError("object \(number) (NSURL): NS.base is not a URL") }
            guard let relative = try object(self.number(list.value(in: objects[number], forKey: "NS.relative"), "NS.relative", in: number),
                                            depth: depth + 1) as? String else {
                throw KeyedArchiveError("object \(number) (NSURL): NS.relative is not a string")
            }
            guard let url = URL(string: relative, relativeTo: base as? URL) else {
                throw KeyedArchiveError("object \(number) (NSURL): \(relative) is not a URL")
            }
            return (url, equality.identity(of: url, objectNumber: number, members: [identities[baseNumber] ?? 0]))
        case "NSNull":
            return (NSNull(), nil)
        default:
            throw KeyedArchiveError("object \(number): class \(className) is allowed but cannot be read here")
        }
    }

    private func hashable(_ values: [Any], number: Int) throws -> [AnyHashable] {
        try values.map { value in
            guard let hashable = value as? AnyHashable else {
                throw KeyedArchiveError("object \(number): a set member or key of type \(type(of: value)) cannot be hashed")
            }
            return hashable
        }
    }
}
