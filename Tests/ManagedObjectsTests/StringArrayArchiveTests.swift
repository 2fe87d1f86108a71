import Foundation
@testable import ManagedObjects
import Testing

/// The `[String]` archive written straight to its bytes (`StringArrayArchive`) against the
/// general writer's object table: the same bytes for arrays of every shape the layout depends
/// on, and the general writer for the arrays it leaves to it.
@Suite("Keyed archives: [String] written directly")
struct StringArrayArchiveTests {
    static let allowed = SecureUnarchiveFromDataTransformer().allowedClassNames

    static func general(_ strings: [String]) throws -> Data {
        try KeyedArchiveWriter.archiveThroughObjectTable(strings, allowedClassNames: allowed)
    }

    /// Arrays of each shape: empty; tagged-pointer strings (written once) repeated or not, beside
    /// longer ones repeated; non-ASCII (UTF-16) and decomposed strings; lengths at the marker's
    /// limit of 15; enough members for 2-byte references and UIDs above 255.
    static let shapes: [[String]] = [
        [],
        ["swift"],
        ["swift", "linux", "tag1", "user1", "item-1"],
        ["a", "a", "a"],
        ["a-long-string-here", "a-long-string-here", "b", "b", "a"],
        ["", "", "x"],
        ["café", "cafe\u{301}", "日本語", "🙂", "café"],
        ["123456789012345", "12345678901234", "1234567890123456", "eilotrm.ap", "eilotrm.apd", "eilotrm.apdn"],
        (0..<15).map { "m\($0)" },
        (0..<14).map { _ in "same" },
        (0..<300).map { "member number \($0)" },
        (0..<300).map { "t\($0 % 40)" },
        (0..<70_000).map { "\($0 % 50_000)" },
    ]

    @Test("each shape's bytes are the general writer's, and Foundation's unarchiver reads them back")
    func sameBytesAsTheGeneralWriter() throws {
        for strings in Self.shapes {
            let direct = try #require(StringArrayArchive.archive(strings), "\(strings.prefix(3)) (\(strings.count))")
            #expect(direct == (try Self.general(strings)), "\(strings.prefix(3)) (\(strings.count))")
            #expect(try KeyedArchiveWriter.archive(strings, allowedClassNames: Self.allowed) == direct)
        }
        let small = try #require(StringArrayArchive.archive(["swift", "café", "item-12345"]))
        let read = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: small)
        #expect(read as? [String] == ["swift", "café", "item-12345"])
    }

    @Test("an array holding one of the archiver's own tagged-pointer strings (shared with the member) is left to the general writer")
    func archiverStringsGoThroughTheObjectTable() throws {
        for member in ["$null", "$class", "root", "$top", "NSArray", "NSObject"] {
            let strings = ["swift", member, "linux"]
            #expect(StringArrayArchive.archive(strings) == nil, "\(member)")
            #expect(try KeyedArchiveWriter.archive(strings, allowedClassNames: Self.allowed) == (try Self.general(strings)))
        }
        // Longer ones are never shared with a member, so the layout holds.
        for member in ["$classes", "$classname", "NS.objects", "$version", "$archiver", "$objects", "NSKeyedArchiver"] {
            let strings = ["swift", member, "linux"]
            #expect(StringArrayArchive.archive(strings) == (try Self.general(strings)), "\(member)")
        }
    }

    /// `value` as generic code stores it: an `Any` boxed in an `Any` when `Value` is `Any`.
    static func boxed<Value>(_ value: Value) -> Any { value as Any }

    @Test("a [String] is written directly however it is boxed, as a store hands it over from an object's values")
    func storedValuesTakeTheDirectWay() throws {
        let strings = ["swift", "linux", "tag1"]
        for value in [strings as Any, Self.boxed(strings as Any), Self.boxed(Self.boxed(strings as Any))] {
            #expect(KeyedArchiveWriter.directArchive(value, allowedClassNames: Self.allowed) == (try Self.general(strings)))
        }
        // Not a `[String]`, though it would cast to one: through the object table.
        #expect(KeyedArchiveWriter.directArchive(strings as [Any], allowedClassNames: Self.allowed) == nil)
        #expect(KeyedArchiveWriter.directArchive(NSArray(array: strings), allowedClassNames: Self.allowed) == nil)
    }

    @Test("a transformer that does not allow NSString still refuses a [String], naming the class")
    func disallowedClassStillRefused() throws {
        #expect(throws: KeyedArchiveError.self) {
            try KeyedArchiveWriter.archive(["swift"], allowedClassNames: ["NSArray"])
        }
        #expect(try KeyedArchiveWriter.archive([String](), allowedClassNames: ["NSArray"])
            == (try KeyedArchiveWriter.archiveThroughObjectTable([String](), allowedClassNames: ["NSArray"])))
    }
}
