import Foundation
@testable import ManagedObjects

/// Archives tests make by hand: a property list written out as nested values, turned into the
/// object table ``BinaryPropertyListWriter`` writes.
indirect enum PlistFixture {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case data(Data)
    case date(Double)
    case uid(UInt64)
    case array([PlistFixture])
    case dictionary([(String, PlistFixture)])

    /// A keyed archive whose `$objects` are `objects` and whose root is object `root`.
    static func archive(objects: [PlistFixture], root: UInt64 = 1) -> Data {
        PlistFixture.dictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", .uid(root))])), ("$objects", .array(objects)),
        ]).bytes
    }

    static func classEntry(_ name: String) -> PlistFixture {
        .dictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))])
    }

    var bytes: Data {
        var list = BinaryPropertyList()
        var shared: [[UInt8]: Int] = [:]
        list.top = append(to: &list, shared: &shared)
        return BinaryPropertyListWriter.write(list)
    }

    /// Appends the value's objects; strings and UIDs are written once per value (`shared`), so
    /// an archive of a million objects stays small. Shared by their UTF-8 bytes: Swift's `==`
    /// calls `é` and `e` + U+0301 equal, which an archive keeps apart.
    private func append(to list: inout BinaryPropertyList, shared: inout [[UInt8]: Int]) -> Int {
        func once(_ key: String, _ object: BinaryPropertyList.Object) -> Int {
            let bytes = Array(key.utf8)
            if let index = shared[bytes] { return index }
            let index = list.append(object)
            shared[bytes] = index
            return index
        }
        switch self {
        case .string(let value): return once("s" + value, .string(value))
        case .integer(let value): return list.append(.integer(value))
        case .real(let value): return list.append(.real(value))
        case .boolean(let value): return list.append(.boolean(value))
        case .data(let value): return list.append(.data(value))
        case .date(let value): return list.append(.date(value))
        case .uid(let value): return once("u\(value)", .uid(value))
        case .array(let elements):
            let indices = elements.map { $0.append(to: &list, shared: &shared) }
            return list.append(.array(indices))
        case .dictionary(let pairs):
            let keys = pairs.map { once("s" + $0.0, .string($0.0)) }
            let values = pairs.map { $0.1.append(to: &list, shared: &shared) }
            return list.append(.dictionary(keys: keys, values: values))
        }
    }
}

/// Hostile and damaged archives, each wrong in one way; every one must be refused with an error,
/// in bounded time, by the reader and by a store reading it from a cell.
enum HostileArchives {
    static let arrayClass = PlistFixture.classEntry("NSArray")

    static func array(_ members: [UInt64], classUID: UInt64) -> PlistFixture {
        .dictionary([("NS.objects", .array(members.map { .uid($0) })), ("$class", .uid(classUID))])
    }

    /// A binary plist of one array whose count says 2³² members, in 51 bytes.
    static var hugeCountPlist: Data {
        var bytes = Array("bplist00".utf8)
        bytes += [0xAF, 0x13, 0, 0, 0, 1, 0, 0, 0, 0]  // array, count as an 8-byte integer
        let offsetTable = bytes.count
        bytes += [8]  // object 0 at offset 8
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]  // unused, offset size 1, reference size 1
        bytes += [0, 0, 0, 0, 0, 0, 0, 1]  // one object
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]  // the top object is object 0
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(offsetTable)]
        return Data(bytes)
    }

    /// A valid plist whose offset table claims 2⁴⁰ objects in a few bytes.
    static var hugeObjectCountPlist: Data {
        var bytes = [UInt8](PlistFixture.array([]).bytes)
        let count = bytes.count - 24
        bytes.replaceSubrange(count..<(count + 8), with: [0, 0, 1, 0, 0, 0, 0, 0])
        return Data(bytes)
    }

    /// Objects nesting `depth` deep: each an array holding the next.
    static func nested(_ depth: Int) -> Data {
        var objects: [PlistFixture] = [.string("$null"), arrayClass]
        for level in 0..<depth { objects.append(array([UInt64(level + 3)], classUID: 1)) }
        objects.append(.string("bottom"))
        return PlistFixture.archive(objects: objects, root: 2)
    }

    static func cases() -> [(String, Data)] {
        let good = PlistFixture.archive(objects: [.string("$null"), array([3, 4, 5], classUID: 2), arrayClass, .string("a"), .string("b"), .string("c")])
        let evil = PlistFixture.classEntry("MHWEvilPayload")
        return [
            ("truncated", good.prefix(good.count - 9)),
            ("not a plist", Data("bplist00 but nothing else".utf8)),
            ("an XML plist", Data("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8)),
            ("a class not allowed at the root", PlistFixture.archive(objects: [.string("$null"), .dictionary([("$class", .uid(2))]), evil])),
            ("a class not allowed inside an array", PlistFixture.archive(objects: [
                .string("$null"), array([3], classUID: 2), arrayClass, .dictionary([("$class", .uid(4))]), evil])),
            ("a reference cycle: an array holding itself", PlistFixture.archive(objects: [.string("$null"), array([1], classUID: 2), arrayClass])),
            ("a reference cycle through two arrays", PlistFixture.archive(objects: [
                .string("$null"), array([3], classUID: 2), arrayClass, array([1], classUID: 2)])),
            ("a reference cycle: a URL its own base", PlistFixture.archive(objects: [
                .string("$null"), .dictionary([("NS.base", .uid(1)), ("NS.relative", .uid(3)), ("$class", .uid(2))]),
                PlistFixture.classEntry("NSURL"), .string("x")])),
            ("a member reference out of range", PlistFixture.archive(objects: [.string("$null"), array([4_000_000], classUID: 2), arrayClass])),
            ("a UID of 2⁶⁴ - 1", PlistFixture.archive(objects: [.string("$null"), array([UInt64.max], classUID: 2), arrayClass])),
            ("a root reference out of range", PlistFixture.archive(objects: [.string("$null"), .string("x")], root: 9)),
            ("a $class reference out of range", PlistFixture.archive(objects: [.string("$null"), array([], classUID: 77)])),
            ("a $class that is a string", PlistFixture.archive(objects: [.string("$null"), array([], classUID: 2), .string("NSArray")])),
            ("a class entry as a member", PlistFixture.archive(objects: [.string("$null"), array([2], classUID: 2), arrayClass])),
            ("NS.objects not a list", PlistFixture.archive(objects: [
                .string("$null"), .dictionary([("NS.objects", .integer(5)), ("$class", .uid(2))]), arrayClass])),
            ("NS.objects holding numbers, not UIDs", PlistFixture.archive(objects: [
                .string("$null"), .dictionary([("NS.objects", .array([.integer(0)])), ("$class", .uid(2))]), arrayClass])),
            ("a date without its time", PlistFixture.archive(objects: [
                .string("$null"), .dictionary([("NS.time", .string("yesterday")), ("$class", .uid(2))]), PlistFixture.classEntry("NSDate")])),
            ("a UUID of 3 bytes", PlistFixture.archive(objects: [
                .string("$null"), .dictionary([("NS.uuidbytes", .data(Data([1, 2, 3]))), ("$class", .uid(2))]), PlistFixture.classEntry("NSUUID")])),
            ("a dictionary with more keys than values", PlistFixture.archive(objects: [
                .string("$null"), .dictionary([("NS.keys", .array([.uid(3), .uid(4)])), ("NS.objects", .array([.uid(3)])), ("$class", .uid(2))]),
                PlistFixture.classEntry("NSDictionary"), .string("k"), .string("v")])),
            ("a set holding an array (not hashable)", PlistFixture.archive(objects: [
                .string("$null"), .dictionary([("NS.objects", .array([.uid(3)])), ("$class", .uid(2))]), PlistFixture.classEntry("NSSet"),
                array([], classUID: 4), arrayClass])),
            ("nesting 2,000 deep", nested(2_000)),
            ("an array claiming 4 billion members", hugeCountPlist),
            ("an offset table claiming 2⁴⁰ objects", hugeObjectCountPlist),
            ("a root that is no reference", PlistFixture.dictionary([
                ("$archiver", .string("NSKeyedArchiver")), ("$top", .dictionary([("root", .string("here"))])), ("$objects", .array([.string("$null")])),
            ]).bytes),
            ("an archiver that is not NSKeyedArchiver", PlistFixture.dictionary([
                ("$archiver", .string("NSArchiver")), ("$top", .dictionary([("root", .uid(1))])), ("$objects", .array([.string("$null"), .string("x")])),
            ]).bytes),
            ("a top object that is an array", PlistFixture.array([.string("$null")]).bytes),
        ]
    }
}
