import Foundation
import GRDB
@testable import ManagedObjects
import Testing

/// The default transformer's archives against Apple's: every keyed archive Core Data wrote in
/// the real stores re-written byte for byte, string archives written as Core Data writes them,
/// and, for every Foundation plist type and nesting, archives written here read by Foundation's
/// own unarchiver and Foundation's archives read here.
@Suite("Keyed archives: compatibility")
struct KeyedArchiveCompatibilityTests {
    struct RealArchive {
        var place: String
        var data: Data
    }

    /// Every cell of every real store that holds a keyed archive, each store copied first.
    static func realArchives() throws -> [RealArchive] {
        let stores = RealSQLiteStoreTests.shared.appendingPathComponent("stores")
        let files = try #require(FileManager.default.enumerator(atPath: stores.path)).compactMap { $0 as? String }
            .filter { ($0.hasSuffix(".sqlite") || $0.hasSuffix(".moody")) }.sorted()
        var archives: [RealArchive] = []
        for file in files {
            let directory = try TemporaryDirectory()
            let copy = try RealSQLiteStoreTests.copy(file, into: directory)
            let queue = try DatabaseQueue(path: copy.path)
            try queue.read { db in
                for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'Z_METADATA'") {
                    for column in try Row.fetchAll(db, sql: "PRAGMA table_info(\"\(table)\")").compactMap({ $0["name"] as String? }) {
                        let cells = try Data.fetchAll(db, sql: "SELECT \"\(column)\" FROM \"\(table)\" WHERE typeof(\"\(column)\") = 'blob'")
                        for data in cells where data.starts(with: Data("bplist00".utf8)) {
                            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
                            guard plist?["$archiver"] as? String == "NSKeyedArchiver" else { continue }
                            archives.append(RealArchive(place: "\(file) \(table).\(column)", data: data))
                        }
                    }
                }
            }
            try queue.close()
        }
        return archives
    }

    @Test("every keyed archive in the real stores, parsed and written again, gives its own bytes")
    func realArchivesRewriteByteForByte() throws {
        let archives = try Self.realArchives()
        let places = Dictionary(grouping: archives, by: \.place).mapValues(\.count)
        // The stores' README: BookMigration's ZFILEURL, and CoreDataPlus's SampleModel2 covers
        // and page contents (a class of the app's own in each).
        #expect(places == [
            "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V1.sqlite ZBOOK.ZCOVER": 52,
            "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V1.sqlite ZPAGE.ZCONTENT": 4_970,
            "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V2.sqlite ZBOOK.ZFRONTCOVER": 3,
            "alemar11__CoreDataPlus/SampleModel2/SampleModel2_V2.sqlite ZPAGE.ZCONTENT": 119,
            "hwaxxer__BookMigration/Model1.sqlite ZBOOK.ZFILEURL": 4,
        ])
        var different: [String] = []
        for archive in archives {
            let rewritten = BinaryPropertyListWriter.write(try BinaryPropertyListReader.read(archive.data))
            if rewritten != archive.data { different.append(archive.place) }
        }
        #expect(different.isEmpty, "\(different.count) archives differ, first in \(different.first ?? "")")
    }

    /// The top dictionary's keys, in the order the archive's bytes give them.
    static func topKeys(_ list: BinaryPropertyList) throws -> [String] {
        guard case .dictionary(let keys, _) = list.objects[list.top] else { throw KeyedArchiveError("no top dictionary") }
        return keys.map { key in
            if case .string(let name) = list.objects[key] { name } else { "?" }
        }
    }

    static let modernTopKeys = ["$version", "$archiver", "$top", "$objects"]

    @Test("a string archived here is, byte for byte, what Core Data wrote for it (in today's top-key order)")
    func stringArchivesAsCoreDataWritesThem() throws {
        let archives = try Self.realArchives()
        // Today's archiver (CoreDataPlus's stores, framework 1000+) orders the top keys so.
        let modern = try #require(archives.first { $0.place.contains("SampleModel2_V2") })
        #expect(try Self.topKeys(BinaryPropertyListReader.read(modern.data)) == Self.modernTopKeys)
        let strings = archives.filter { $0.place.contains("BookMigration") }
        #expect(strings.count == 4)
        for archive in strings {
            var list = try BinaryPropertyListReader.read(archive.data)
            // BookMigration's store (framework 419, iOS 6) has the older order; otherwise the same.
            #expect(try Self.topKeys(list) == ["$top", "$objects", "$version", "$archiver"])
            guard case .dictionary(let keys, let values) = list.objects[list.top] else { continue }
            let order = try Self.modernTopKeys.map { name in
                try #require(keys.firstIndex { list.objects[$0] == .string(name) })
            }
            list.objects[list.top] = .dictionary(keys: order.map { keys[$0] }, values: order.map { values[$0] })
            let expected = BinaryPropertyListWriter.write(list)
            let text = try #require(try SecureUnarchiveFromDataTransformer().unarchive(archive.data) as? String)
            #expect(try SecureUnarchiveFromDataTransformer().archive(text) == expected, "\(text)")
        }
    }

    @Test("CoreDataPlus's archives of its own classes are refused naming the class, decoding nothing")
    func realArchivesOfOtherClassesAreRefused() throws {
        let archives = try Self.realArchives().filter { $0.place.contains("CoreDataPlus") }
        #expect(archives.count == 5_144)
        for archive in archives {
            let error = try #require(throws: KeyedArchiveError.self) { try SecureUnarchiveFromDataTransformer().unarchive(archive.data) }
            #expect(error.message.contains("not allowed"))
            #expect(error.message.contains("CoreDataPlus_Tests.Cover") || error.message.contains("class Content"), "\(error)")
        }
    }

    /// Values of every Foundation plist type, alone and nested.
    static var samples: [(String, Any)] {
        let date = Date(timeIntervalSinceReferenceDate: 786_000_123.25)
        let uuid = UUID(uuidString: "0F3C1D2E-5A6B-4C7D-8E9F-A0B1C2D3E4F5")!
        let base = URL(string: "https://example.com/dir/")!
        return [
            ("empty string", ""), ("ASCII string", "Kafka"), ("long string", String(repeating: "The Trial ", count: 20)),
            ("non-ASCII string", "Zürich ✓ 😀"), ("string of 70,000 characters", String(repeating: "x", count: 70_000)),
            ("zero", 0), ("one", 1), ("minus one", -1), ("255", 255), ("256", 256), ("65,536", 65_536),
            ("Int64.max", Int64.max), ("Int64.min", Int64.min), ("UInt64.max", UInt64.max),
            ("a double", 2.5), ("pi", Double.pi), ("a float", Float(2.25)), ("true", true), ("false", false),
            ("a date", date), ("empty data", Data()), ("data", Data((0..<200).map { UInt8($0) })),
            ("a UUID", uuid), ("an absolute URL", URL(string: "https://example.com/a?b=c#d")!),
            ("a file URL", URL(fileURLWithPath: "/tmp/x y.txt")), ("a URL relative to a base", URL(string: "file.txt", relativeTo: base)!),
            ("null", NSNull()),
            ("an empty array", [Any]()), ("strings, one twice", ["a", "b", "a"]), ("mixed array", [1, "x", true, 2.5, NSNull()] as [Any]),
            ("20 elements", (0..<20).map { "element \($0)" }), ("300 elements", Array(0..<300)),
            ("an empty dictionary", [String: Any]()), ("a dictionary", ["a": 1, "b": [1, 2]] as [String: Any]),
            ("integer keys", [1: "one", 2: "two"]), ("a set", Set(["x", "y", "z"])), ("a set of numbers", Set([1, 2, 3])),
            ("an ordered set", NSOrderedSet(array: ["b", "a", "c"])),
            ("nested", ["list": [["x": Set(["y"])], NSOrderedSet(array: [date, uuid])] as [Any],
                        "url": base, "data": Data([1]), "none": NSNull(), "when": [date, date]] as [String: Any]),
            ("100 deep", (0..<100).reduce(["bottom"] as [Any]) { inner, _ in [inner] as [Any] }),
        ]
    }

    static var foundationClasses: [AnyClass] { [NSArray.self, NSDictionary.self, NSSet.self, NSOrderedSet.self, NSString.self,
                                                NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self] }

    /// Whether two values are equal as Foundation objects (an `NSNumber` and an `Int`, a
    /// `Set` and an `NSSet`, a `URL` and an `NSURL`).
    static func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        if let left = lhs as? URL, let right = rhs as? URL { return left.absoluteString == right.absoluteString }
        return (lhs as AnyObject as? NSObject)?.isEqual(rhs as AnyObject) ?? false
    }

    @Test("an archive written here decodes with Foundation's NSKeyedUnarchiver (secure) and its plist parser, for every type")
    func foundationReadsOurArchives() throws {
        for (name, value) in Self.samples {
            let data = try SecureUnarchiveFromDataTransformer().archive(value)
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = true
            let decoded = unarchiver.decodeObject(of: Self.foundationClasses, forKey: NSKeyedArchiveRootObjectKey)
            #expect(unarchiver.error == nil, "\(name): \(String(describing: unarchiver.error))")
            #expect(Self.same(decoded, value), "\(name): \(String(describing: decoded))")
            // Core Foundation's own parser reads the bytes to the same objects ours finds.
            let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any], "\(name)")
            let objects = try #require(plist["$objects"] as? [Any], "\(name)")
            guard case .array(let ours)? = try BinaryPropertyListReader.read(data).value(forTopKey: "$objects") else {
                Issue.record("\(name): no $objects"); continue
            }
            #expect(objects.count == ours.count, "\(name)")
            // Our own reader reads it back, and writing that again gives the same bytes.
            let read = try SecureUnarchiveFromDataTransformer().unarchive(data)
            #expect(Self.same(read, value), "\(name)")
            #expect(try SecureUnarchiveFromDataTransformer().archive(try #require(read)) == data, "\(name)")
        }
    }

    @Test("an archive Foundation's NSKeyedArchiver writes decodes here, for every type")
    func ourReaderReadsFoundationArchives() throws {
        for (name, value) in Self.samples {
            let data = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
            let decoded = try SecureUnarchiveFromDataTransformer().unarchive(data)
            // What Foundation's own unarchiver finds in it (Foundation's archiver on Linux
            // writes a `true` inside an array as the integer 1).
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.requiresSecureCoding = true
            let reference = unarchiver.decodeObject(of: Self.foundationClasses, forKey: NSKeyedArchiveRootObjectKey)
            #expect(Self.same(decoded, reference), "\(name): \(String(describing: decoded))")
        }
    }

    @Test("the bytes of an archive written here do not depend on the order a dictionary or set happens to hold")
    func deterministicBytes() throws {
        let keys = (0..<50).map { "key \($0)" }
        let forward = Dictionary(uniqueKeysWithValues: keys.map { ($0, $0.count) })
        let backward = Dictionary(uniqueKeysWithValues: keys.reversed().map { ($0, $0.count) })
        let transformer = SecureUnarchiveFromDataTransformer()
        #expect(try transformer.archive(forward) == transformer.archive(backward))
        #expect(try transformer.archive(Set(keys)) == transformer.archive(Set(keys.reversed())))
    }
}

extension BinaryPropertyList {
    /// The object the top dictionary holds under `key`.
    func value(forTopKey key: String) -> Object? {
        value(in: top, forKey: key).map { objects[$0] }
    }
}
