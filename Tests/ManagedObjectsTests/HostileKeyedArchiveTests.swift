import Foundation
@testable import ManagedObjects
import Testing

/// Archives from outside (a store is data from outside) that are damaged or hostile: each is a
/// thrown ``KeyedArchiveError`` in bounded time, never a trap, a stack overflow or an
/// allocation the archive's size does not pay for. (`ValueTransformerTests` reads the same
/// cases from a store's cell, where the error names attribute and object.)
@Suite("Keyed archives: hostile input")
struct HostileKeyedArchiveTests {
    static let transformer = SecureUnarchiveFromDataTransformer()

    /// Unarchives `data`, expecting an error, within `limit`.
    static func refuse(_ data: Data, _ what: String, within limit: Duration = .seconds(10)) -> KeyedArchiveError? {
        let clock = ContinuousClock()
        let start = clock.now
        var caught: KeyedArchiveError?
        do {
            _ = try transformer.unarchive(data)
            Issue.record("\(what): read without an error")
        } catch let error as KeyedArchiveError {
            caught = error
        } catch {
            Issue.record("\(what): \(error) is not a KeyedArchiveError")
        }
        #expect(clock.now - start < limit, "\(what) took \(clock.now - start)")
        return caught
    }

    @Test("each hostile case is refused with an error saying what is wrong")
    func hostileCases() throws {
        for (what, data) in HostileArchives.cases() {
            let error = Self.refuse(data, what)
            #expect(error?.message.isEmpty == false, "\(what)")
        }
    }

    @Test("the errors name what is wrong")
    func messages() throws {
        let messages = Dictionary(uniqueKeysWithValues: HostileArchives.cases().map { ($0.0, Self.refuse($0.1, $0.0)?.message ?? "") })
        #expect(messages["a class not allowed inside an array"]?.contains("MHWEvilPayload, which is not allowed") == true)
        #expect(messages["a reference cycle: an array holding itself"]?.contains("contains itself") == true)
        #expect(messages["a reference cycle: a URL its own base"]?.contains("contains itself") == true)
        #expect(messages["nesting 2,000 deep"]?.contains("deeper than \(KeyedArchiveReader.maximumDepth)") == true)
        #expect(messages["an array claiming 4 billion members"]?.contains("claims 4294967296 elements") == true)
        #expect(messages["an offset table claiming 2⁴⁰ objects"]?.contains("trailer is damaged") == true)
        #expect(messages["a member reference out of range"]?.contains("not a reference to one of the 3 objects") == true)
        #expect(messages["an XML plist"]?.contains("not a binary property list") == true)
    }

    @Test("objects nesting a million deep through UIDs: refused at the maximum depth, no stack overflow")
    func millionDeepThroughUIDs() throws {
        let data = HostileArchives.nested(1_000_000)
        let error = Self.refuse(data, "a million deep", within: .seconds(60))
        #expect(error?.message.contains("deeper than \(KeyedArchiveReader.maximumDepth)") == true)
    }

    @Test("property list arrays nesting a million deep: refused, not recursed into")
    func millionDeepPropertyList() throws {
        var list = BinaryPropertyList()
        var inner = list.append(.string("bottom"))
        for _ in 0..<1_000_000 { inner = list.append(.array([inner])) }
        // A keyed archive whose $objects is the outermost of the million arrays.
        let objects = list.append(.string("$objects"))
        let archiver = list.append(.string("$archiver"))
        let name = list.append(.string("NSKeyedArchiver"))
        let top = list.append(.string("$top"))
        let rootKey = list.append(.string("root"))
        let root = list.append(.uid(1))
        let topDictionary = list.append(.dictionary(keys: [rootKey], values: [root]))
        list.top = list.append(.dictionary(keys: [archiver, top, objects], values: [name, topDictionary, list.append(.array([inner, inner]))]))
        let data = BinaryPropertyListWriter.write(list)
        let error = Self.refuse(data, "a million-deep property list", within: .seconds(60))
        #expect(error?.message.contains("object 1") == true, "\(String(describing: error))")
    }

    @Test("a class not allowed anywhere in the archive fails before any object is decoded")
    func classNotAllowedDecodesNothing() throws {
        // The root array's first member is a damaged date: decoding would meet it first. The
        // error names the class instead, so nothing was decoded before the refusal.
        let data = PlistFixture.archive(objects: [
            .string("$null"), HostileArchives.array([3, 5], classUID: 2), HostileArchives.arrayClass,
            .dictionary([("NS.time", .string("never")), ("$class", .uid(4))]), PlistFixture.classEntry("NSDate"),
            .dictionary([("$class", .uid(6))]), PlistFixture.classEntry("MHWEvilPayload"),
        ])
        let error = Self.refuse(data, "a class not allowed after a damaged date")
        #expect(error?.message.contains("object 5 is of class MHWEvilPayload, which is not allowed") == true, "\(String(describing: error))")
        // A transformer allowing fewer classes refuses an archive of allowed Foundation classes.
        final class StringsOnly: SecureUnarchiveFromDataTransformer, @unchecked Sendable {
            override class var allowedTopLevelClasses: [AnyClass] { [NSString.self] }
        }
        let dates = try Self.transformer.archive([Date(timeIntervalSinceReferenceDate: 0)])
        let narrow = try #require(throws: KeyedArchiveError.self) { try StringsOnly().unarchive(dates) }
        #expect(narrow.message.contains("class NSArray, which is not allowed"))
    }

    /// A good archive of every type, to damage.
    static var goodArchive: Data {
        get throws {
            try transformer.archive([
                "text", 7, -3, 2.5, true, Date(timeIntervalSinceReferenceDate: 5), Data([1, 2]),
                UUID(uuidString: "0F3C1D2E-5A6B-4C7D-8E9F-A0B1C2D3E4F5")!, URL(string: "https://example.com")!, NSNull(),
                ["k": ["v"]], Set(["s"]), NSOrderedSet(array: ["o"]),
            ] as [Any])
        }
    }

    @Test("every prefix of a good archive is refused")
    func truncated() throws {
        let good = try Self.goodArchive
        for length in 0..<good.count {
            _ = Self.refuse(good.prefix(length), "the first \(length) bytes")
        }
    }

    @Test("a wrong type at every position of a good archive: an error or a value, never a trap")
    func wrongTypeEverywhere() throws {
        let list = try BinaryPropertyListReader.read(try Self.goodArchive)
        let wrong: [BinaryPropertyList.Object] = [
            .null, .boolean(true), .integer(-1), .unsignedInteger(.max), .real(.nan), .real32(1), .date(0), .data(Data([0xFF])),
            .string("$null"), .string("NSObject"), .uid(0), .uid(1), .uid(9_999), .uid(.max), .array([]), .array([list.top]), .set([]),
            .dictionary(keys: [], values: []),
        ]
        var refused = 0
        var read = 0
        for position in list.objects.indices {
            for replacement in wrong {
                var damaged = list
                damaged.objects[position] = replacement
                let data = BinaryPropertyListWriter.write(damaged)
                do {
                    _ = try Self.transformer.unarchive(data)
                    read += 1
                } catch is KeyedArchiveError {
                    refused += 1
                }
            }
        }
        #expect(refused + read == list.objects.count * wrong.count)
        #expect(refused > read)
    }

    @Test("random damage (seeded) to a good archive's bytes: an error or a value, never a trap")
    func randomDamage() throws {
        let good = [UInt8](try Self.goodArchive)
        var generator = SeededGenerator(seed: 30)
        for _ in 0..<5_000 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? Self.transformer.unarchive(Data(bytes))
        }
    }
}
