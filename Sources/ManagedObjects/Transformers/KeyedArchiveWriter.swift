import Foundation

/// Writes a value made of Foundation's plist types as an `NSKeyedArchiver` archive laid out as
/// Apple's archiver lays it out, in Core Foundation's binary property list bytes
/// (``BinaryPropertyListWriter``), after checking every part is of an allowed class: an archive
/// the reader would refuse must fail at save, not on the next read.
///
/// What the archives Core Data wrote show (the tests re-write them byte for byte): the top
/// dictionary's keys in the order `$version`, `$archiver`, `$top`, `$objects`; `$null` first,
/// the root next; an object's number taken before its members are archived and its class
/// archived after them, as `{$classname, $classes}` with the class and its superclasses; an
/// object's keys in the order it encodes them, `$class` last; strings, numbers and data inline.
/// Apple's writer shares an object by identity, not by value: a string short enough to be one
/// of Apple's tagged-pointer strings ("Content") is one object wherever it is used, a longer
/// one ("CoreDataPlus_Tests.Cover") is written again each time. This writer follows that rule;
/// for collections, Apple's member order is the order of its hash tables, which cannot be
/// known, so dictionary keys and set members are written sorted (deterministic bytes).
struct KeyedArchiveWriter {
    static let archiverVersion: Int64 = 100_000

    static func archive(_ value: Any, allowedClassNames: Set<String>) throws -> Data {
        try directArchive(value, allowedClassNames: allowedClassNames)
            ?? archiveThroughObjectTable(value, allowedClassNames: allowedClassNames)
    }

    /// The archive of the commonest Transformable, a `[String]`, written straight to its bytes
    /// (``StringArrayArchive``); `nil` for other values, and for arrays it leaves to the table.
    static func directArchive(_ value: Any, allowedClassNames: Set<String>) -> Data? {
        // Exactly a `[String]` (`type(of:)` sees through an `Any` boxed in an `Any`, as generic
        // code stores one), so the cast is never one member by member.
        guard type(of: value) == [String].self, let strings = value as? [String],
              allowedClassNames.contains("NSArray"), allowedClassNames.contains("NSString") else { return nil }
        return StringArrayArchive.archive(strings)
    }

    /// The archive of any value, through the object table (what `archive` does for all but a
    /// `[String]`, whose bytes must be these).
    static func archiveThroughObjectTable(_ value: Any, allowedClassNames: Set<String>) throws -> Data {
        var writer = KeyedArchiveWriter(allowedClassNames: allowedClassNames)
        let root = try writer.encode(value, depth: 0)
        return BinaryPropertyListWriter.write(writer.finish(root: root))
    }

    private let allowedClassNames: Set<String>
    private var list = BinaryPropertyList()
    /// The `$objects`, each the index of its object in `list`.
    private var archived: [Int] = []
    /// The object numbers of values archived once wherever they occur, and of classes.
    private var sharedNumbers: [SharedValue: Int] = [:]
    private var classNumbers: [String: Int] = [:]
    /// Strings written once (the archiver's keys, tagged-pointer strings).
    private var sharedStrings: [String: Int] = [:]

    private enum SharedValue: Hashable {
        case string(String)
        case integer(Int64)
        case boolean(Bool)
    }

    private init(allowedClassNames: Set<String>) {
        self.allowedClassNames = allowedClassNames
        archived = [string("$null")]
    }

    private func require(_ className: String, for value: Any) throws {
        guard allowedClassNames.contains(className) else {
            throw KeyedArchiveError("a \(type(of: value)) archives as \(className), which the transformer does not allow")
        }
    }

    /// A string object: one per archive when Apple's would be one object (see the type's comment).
    private mutating func string(_ value: String) -> Int {
        guard AppleTaggedPointers.canHold(value) else { return list.append(.string(value)) }
        if let index = sharedStrings[value] { return index }
        let index = list.append(.string(value))
        sharedStrings[value] = index
        return index
    }

    /// An archiver key (`$class`, `NS.objects` …): a constant string in Apple's archiver.
    private mutating func key(_ name: String) -> Int {
        if let index = sharedStrings[name] { return index }
        let index = list.append(.string(name))
        sharedStrings[name] = index
        return index
    }

    private mutating func uid(_ number: Int) -> Int {
        list.append(.uid(UInt64(number)))
    }

    /// Archives an inline value (string, number, data) and gives its object number.
    private mutating func inline(_ object: BinaryPropertyList.Object, shared: SharedValue?) -> Int {
        if let shared, let number = sharedNumbers[shared] { return number }
        let index: Int
        if case .string(let text) = object { index = string(text) } else { index = list.append(object) }
        archived.append(index)
        if let shared { sharedNumbers[shared] = archived.count - 1 }
        return archived.count - 1
    }

    /// Archives an object of `className` whose fields `encodeFields` archives (in order), and
    /// gives its number, taken before its fields as Apple's archiver takes it.
    private mutating func object(_ className: String, superclasses: [String] = ["NSObject"],
                                 encodeFields: (inout KeyedArchiveWriter) throws -> [(String, BinaryPropertyList.Object)]) rethrows -> Int {
        let number = archived.count
        archived.append(-1)
        let fields = try encodeFields(&self)
        let classNumber = classReference(className, superclasses: superclasses)
        var keys: [Int] = []
        var values: [Int] = []
        for (name, value) in fields {
            keys.append(key(name))
            values.append(list.append(value))
        }
        keys.append(key("$class"))
        values.append(uid(classNumber))
        archived[number] = list.append(.dictionary(keys: keys, values: values))
        return number
    }

    private mutating func classReference(_ className: String, superclasses: [String]) -> Int {
        if let number = classNumbers[className] { return number }
        let names = ([className] + superclasses).map { string($0) }
        let entry = list.append(.dictionary(keys: [key("$classname"), key("$classes")],
                                            values: [string(className), list.append(.array(names))]))
        archived.append(entry)
        classNumbers[className] = archived.count - 1
        return archived.count - 1
    }

    private mutating func references(_ members: [Any], depth: Int) throws -> BinaryPropertyList.Object {
        var numbers: [Int] = []
        for member in members { numbers.append(try encode(member, depth: depth + 1)) }
        return .array(numbers.map { list.append(.uid(UInt64($0))) })
    }

    private mutating func encode(_ value: Any, depth: Int) throws -> Int {
        guard depth < KeyedArchiveReader.maximumDepth else {
            throw KeyedArchiveError("the value nests deeper than \(KeyedArchiveReader.maximumDepth)")
        }
        switch value {
        case let text as String:
            try require("NSString", for: value)
            return inline(.string(text), shared: AppleTaggedPointers.canHold(text) ? .string(text) : nil)
        case let strings as [String]:
            // The commonest Transformable (`[String]`), without making each member an `Any` and
            // casting it back: the same objects as the general case below.
            try require("NSArray", for: value)
            return try object("NSArray") { writer in
                guard let first = strings.first else { return [("NS.objects", .array([]))] }
                guard depth + 1 < KeyedArchiveReader.maximumDepth else {
                    throw KeyedArchiveError("the value nests deeper than \(KeyedArchiveReader.maximumDepth)")
                }
                try writer.require("NSString", for: first)
                var numbers: [Int] = []
                numbers.reserveCapacity(strings.count)
                for text in strings {
                    numbers.append(writer.inline(.string(text), shared: AppleTaggedPointers.canHold(text) ? .string(text) : nil))
                }
                return [("NS.objects", .array(numbers.map { writer.list.append(.uid(UInt64($0))) }))]
            }
        case let data as Data:
            try require("NSData", for: value)
            return inline(.data(data), shared: nil)
        case let date as Date:
            try require("NSDate", for: value)
            return object("NSDate") { _ in [("NS.time", .real(date.timeIntervalSinceReferenceDate))] }
        case let uuid as UUID:
            try require("NSUUID", for: value)
            return object("NSUUID") { _ in [("NS.uuidbytes", .data(withUnsafeBytes(of: uuid.uuid) { Data($0) }))] }
        case let url as URL:
            try require("NSURL", for: value)
            return try object("NSURL") { writer in
                let base = try url.baseURL.map { try writer.encode($0, depth: depth + 1) } ?? 0
                let relative = try writer.encode(url.relativeString, depth: depth + 1)
                return [("NS.base", .uid(UInt64(base))), ("NS.relative", .uid(UInt64(relative)))]
            }
        case is NSNull:
            try require("NSNull", for: value)
            return object("NSNull") { _ in [] }
        case let set as NSOrderedSet:
            try require("NSOrderedSet", for: value)
            return try object("NSOrderedSet") { writer in [("NS.objects", try writer.references(set.array, depth: depth))] }
        case let array as [Any]:
            try require("NSArray", for: value)
            return try object("NSArray") { writer in [("NS.objects", try writer.references(array, depth: depth))] }
        case let dictionary as [AnyHashable: Any]:
            try require("NSDictionary", for: value)
            let keys = Self.sorted(Array(dictionary.keys))
            return try object("NSDictionary") { writer in
                let keyReferences = try writer.references(keys.map(\.base), depth: depth)
                let valueReferences = try writer.references(keys.map { dictionary[$0]! }, depth: depth)
                return [("NS.keys", keyReferences), ("NS.objects", valueReferences)]
            }
        case let set as Set<AnyHashable>:
            try require("NSSet", for: value)
            return try object("NSSet") { writer in [("NS.objects", try writer.references(Self.sorted(Array(set)).map(\.base), depth: depth))] }
        default:
            guard let number = Self.number(value) ?? Self.foundationNumber(value) else {
                throw KeyedArchiveError("a \(type(of: value)) is not one of Foundation's plist types, which the transformer archives")
            }
            try require("NSNumber", for: value)
            switch number {
            case .integer(let integer) where AppleTaggedPointers.canHold(integer): return inline(number, shared: .integer(integer))
            case .boolean(let boolean): return inline(number, shared: .boolean(boolean))
            default: return inline(number, shared: nil)
            }
        }
    }

    /// An `NSNumber` (as the reader gives numbers) as the property list object Apple's archiver
    /// writes for it: its Boolean, 4-byte real, real or integer.
    private static func foundationNumber(_ value: Any) -> BinaryPropertyList.Object? {
        guard type(of: value) is NSNumber.Type, let number = value as? NSNumber else { return nil }
        if String(describing: type(of: number)) == "__NSCFBoolean" { return .boolean(number.boolValue) }
        switch String(cString: number.objCType) {
        case "f": return .real32(number.floatValue)
        case "d": return .real(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            return number.uint64Value <= UInt64(Int64.max) ? .integer(number.int64Value) : .unsignedInteger(number.uint64Value)
        default: return .integer(number.int64Value)
        }
    }

    /// A Swift number as the property list object Apple's archiver writes for its `NSNumber`.
    private static func number(_ value: Any) -> BinaryPropertyList.Object? {
        guard !(type(of: value) is NSNumber.Type) else { return nil }
        if type(of: value) == Bool.self, let value = value as? Bool { return .boolean(value) }
        return switch value {
        case let value as Int: .integer(Int64(value))
        case let value as Int8: .integer(Int64(value))
        case let value as Int16: .integer(Int64(value))
        case let value as Int32: .integer(Int64(value))
        case let value as Int64: .integer(value)
        case let value as UInt8: .integer(Int64(value))
        case let value as UInt16: .integer(Int64(value))
        case let value as UInt32: .integer(Int64(value))
        case let value as UInt: UInt64(value) <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(UInt64(value))
        case let value as UInt64: value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
        case let value as Double: .real(value)
        case let value as Float: .real32(value)
        default: nil
        }
    }

    /// Dictionary keys and set members in a deterministic order: by type, then by description.
    private static func sorted(_ values: [AnyHashable]) -> [AnyHashable] {
        values.sorted { lhs, rhs in
            let left = (String(describing: type(of: lhs.base)), String(describing: lhs.base))
            let right = (String(describing: type(of: rhs.base)), String(describing: rhs.base))
            return left < right
        }
    }

    private mutating func finish(root: Int) -> BinaryPropertyList {
        let rootUID = uid(root)
        let topDictionary = list.append(.dictionary(keys: [key("root")], values: [rootUID]))
        let objects = list.append(.array(archived))
        let top = list.append(.dictionary(
            keys: [key("$version"), key("$archiver"), key("$top"), key("$objects")],
            values: [list.append(.integer(Self.archiverVersion)), string("NSKeyedArchiver"), topDictionary, objects]))
        list.top = top
        return list
    }
}
