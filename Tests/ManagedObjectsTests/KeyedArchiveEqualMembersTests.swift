import Foundation
@testable import ManagedObjects
import Testing

/// Sets, ordered sets and dictionaries whose archive holds members (keys) that Apple's
/// `isEqual:` calls equal: read as Apple's unarchiver makes them, one of equal members kept
/// (the first), equal by Foundation's rules (numbers by value, strings literally), found without
/// comparing nested values deeply. Found by FuzzKeyedArchiveReader (Fuzz/FailCases).
@Suite("Keyed archives: equal members")
struct KeyedArchiveEqualMembersTests {
    static let transformer = SecureUnarchiveFromDataTransformer()

    static func collection(_ members: [UInt64], classUID: UInt64) -> PlistFixture {
        .dictionary([("NS.objects", .array(members.map { .uid($0) })), ("$class", .uid(classUID))])
    }

    @Test("a set of true, 1, 1.0 and two equal strings keeps one number, the first, and one string")
    func setOfEqualNumbers() throws {
        let data = PlistFixture.archive(objects: [
            .string("$null"), Self.collection([3, 4, 5, 6, 7], classUID: 2), .classEntry("NSSet"),
            .boolean(true), .integer(1), .real(1.0), .string("a"), .string("a"),
        ])
        let read = try Self.transformer.unarchive(data)
        let set = try #require(read as? Set<AnyHashable>)
        #expect(set.count == 2)
        #expect(set.contains(AnyHashable("a")))
        #expect(set.contains { $0.base is Bool && $0.base as? Bool == true })
    }

    @Test("an ordered set of two equal ordered sets (a fuzz find) holds one, the first")
    func orderedSetOfEqualOrderedSets() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/FailCases/FuzzKeyedArchiveReader/ordered-set-of-two-equal-ordered-sets"))
        let read = try Self.transformer.unarchive(data)
        let outer = try #require(read as? NSOrderedSet)
        #expect(outer.array.count == 1)
        let inner = try #require(outer.array.first as? NSOrderedSet)
        #expect(inner.array.count == 2)
        #expect(inner.array.first as? String == "a")
        // The first inner set's number, 1, not the second's `true`.
        #expect(inner.array.last.map { type(of: $0) is NSNumber.Type } == true)
        #expect((inner.array.last as? NSNumber)?.intValue == 1)
    }

    @Test("strings are equal literally, as NSString's isEqual: finds them: é and e + combining acute are two members")
    func stringsLiterally() throws {
        let data = PlistFixture.archive(objects: [
            .string("$null"), Self.collection([3, 4, 5], classUID: 2), .classEntry("NSOrderedSet"),
            .string("\u{E9}"), .string("e\u{301}"), .string("\u{E9}"),
        ])
        let read = try Self.transformer.unarchive(data)
        let set = try #require(read as? NSOrderedSet)
        #expect(set.array.compactMap { ($0 as? String).map { Array($0.unicodeScalars) } } == [["\u{E9}"], ["e", "\u{301}"]])
    }

    @Test("numbers are equal by value: NaN equals NaN; 1.5, 2 and 2⁶³ as a real and Int64.max are four")
    func numbersByValue() throws {
        let data = PlistFixture.archive(objects: [
            .string("$null"), Self.collection([3, 4, 5, 6, 7, 8], classUID: 2), .classEntry("NSOrderedSet"),
            .real(.nan), .real(-.nan), .real(1.5), .integer(2), .real(9_223_372_036_854_775_808.0), .integer(.max),
        ])
        let read = try Self.transformer.unarchive(data)
        let set = try #require(read as? NSOrderedSet)
        #expect(set.array.count == 5)
        #expect((set.array.first as? NSNumber)?.doubleValue.isNaN == true)
    }

    @Test("equal dictionary keys (1 and true) are one key: the first key, the last value")
    func dictionaryKeys() throws {
        let data = PlistFixture.archive(objects: [
            .string("$null"),
            .dictionary([("NS.keys", .array([.uid(3), .uid(4)])), ("NS.objects", .array([.uid(5), .uid(6)])), ("$class", .uid(2))]),
            .classEntry("NSDictionary"), .integer(1), .boolean(true), .string("first"), .string("last"),
        ])
        let read = try Self.transformer.unarchive(data)
        let dictionary = try #require(read as? [AnyHashable: Any])
        #expect(dictionary.count == 1)
        let key = try #require(dictionary.keys.first)
        // The first key, the number 1 (an `NSNumber`, which `is Bool` would bridge), not `true`.
        #expect(!(type(of: key.base) is Bool.Type) && "\(key.base)" == "1")
        #expect(dictionary.values.first as? String == "last")
    }

    @Test("sets of equal nested collections, each level sharing the one below twice: one member per level, read at once")
    func sharedNesting() throws {
        // Level k is a set of two ordered sets, each holding level k - 1: equal ordered sets, so
        // each set has one member. Compared deeply, each level would double the work (2⁶⁰ at
        // the top); no timing is asserted, a test that hangs fails.
        let levels = 60
        var objects: [PlistFixture] = [.string("$null"), .classEntry("NSSet"), .classEntry("NSOrderedSet"), .string("bottom")]
        var below: UInt64 = 3
        for _ in 0..<levels {
            let first = UInt64(objects.count)
            objects.append(Self.collection([below], classUID: 2))
            objects.append(Self.collection([below], classUID: 2))
            objects.append(Self.collection([first, first + 1], classUID: 1))
            below = first + 2
        }
        var value = try #require(try Self.transformer.unarchive(PlistFixture.archive(objects: objects, root: below)))
        for _ in 0..<levels {
            let set = try #require(value as? Set<AnyHashable>)
            #expect(set.count == 1)
            let ordered = try #require(set.first?.base as? NSOrderedSet)
            #expect(ordered.array.count == 1)
            value = try #require(ordered.array.first)
        }
        #expect(value as? String == "bottom")
    }
}
