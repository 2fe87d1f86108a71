import Foundation
import ManagedObjects

/// Any bytes as a Transformable cell for Core Data's default transformer
/// (`NSSecureUnarchiveFromData`): refused with a `KeyedArchiveError`, or read to a value that
/// archives again and reads back to an equal value. Never a trap, a stack overflow or an
/// allocation the input does not pay for (AddressSanitizer and `-rss_limit_mb` watch).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchiveReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    let transformer = SecureUnarchiveFromDataTransformer()
    let value: Any?
    do {
        value = try transformer.unarchive(data)
    } catch is KeyedArchiveError {
        return 0
    } catch {
        fatalError("an error that is not a KeyedArchiveError: \(error)")
    }
    guard let value else { return 0 }
    do {
        let again = try transformer.archive(value)
        let reread = try transformer.unarchive(again)
        guard same(reread, value) else { fatalError("read back as \(String(describing: reread)), archived from \(value)") }
    } catch {
        fatalError("a value read from an archive does not archive and read back: \(error); value \(value)")
    }
    return 0
}

/// Equal as Foundation objects (an `NSNumber` and an `Int`, a `Set` and an `NSSet`); NaN equals
/// NaN, as a number read twice from the same bytes.
func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
    guard let lhs, let rhs else { return lhs == nil && rhs == nil }
    if let left = lhs as? URL, let right = rhs as? URL { return left.absoluteString == right.absoluteString }
    if let left = lhs as? [Any], let right = rhs as? [Any] {
        return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
    }
    // Keys matched with `same`, not by hash: a key may be a set or an array (a fail case has a
    // set as a key), whose hash as an `AnyHashable` differs between Swift's and Foundation's
    // collections of equal members.
    if let left = lhs as? [AnyHashable: Any], let right = rhs as? [AnyHashable: Any] {
        return left.count == right.count && left.allSatisfy { key, value in
            right.contains { same(key.base, $0.key.base) && same(value, $0.value) }
        }
    }
    // Members matched with `same` too, each way: bridged to `NSSet`, a set would merge members
    // Foundation's `isEqual:` calls equal (a kept fail case held `true` and `1`; the reader now
    // keeps one of those, as Apple's unarchiver does).
    if let left = lhs as? Set<AnyHashable>, let right = rhs as? Set<AnyHashable> {
        return left.count == right.count && left.allSatisfy { member in right.contains { same(member.base, $0.base) } }
            && right.allSatisfy { member in left.contains { same(member.base, $0.base) } }
    }
    // Members in order, each compared with `same` (their arrays, which are what archives):
    // Foundation's `isEqual(to:)` on Linux compares only the members it can hash, up to a
    // `count` its hash table of members gives, where members equal but for their hash (two
    // equal ordered sets, in a kept fail case) count as one or two by chance.
    if let left = lhs as? NSOrderedSet, let right = rhs as? NSOrderedSet {
        return same(left.array, right.array)
    }
    if let left = lhs as? NSNumber, let right = rhs as? NSNumber, left.doubleValue.isNaN, right.doubleValue.isNaN { return true }
    return (lhs as AnyObject as? NSObject)?.isEqual(rhs as AnyObject) ?? false
}

/// `FUZZ_WRITE_SEEDS=DIR`: writes the seed inputs into DIR and exits. Archives of Foundation's
/// plist types written by the transformer, and the keyed archives found in the bytes of the
/// real stores under `FUZZ_SHARED/stores` (each archive's own bytes, found by its header and
/// trailer: the store files are read, never opened as databases).
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] else { return 0 }
    var seeds: [Data] = []
    let transformer = SecureUnarchiveFromDataTransformer()
    let date = Date(timeIntervalSinceReferenceDate: 786_000_123.25)
    let uuid = UUID(uuidString: "0F3C1D2E-5A6B-4C7D-8E9F-A0B1C2D3E4F5")!
    let values: [Any] = [
        "The Trial.file", "Zürich ✓", 7, -3, Int64.max, UInt64.max, 2.5, Float(1.5), true, date, Data([1, 2, 3]), uuid,
        URL(string: "https://example.com/a?b")!, URL(string: "file.txt", relativeTo: URL(string: "https://example.com/d/"))!,
        NSNull(), ["a", "b", "a"], ["k": 1, "l": [true, false]] as [String: Any], Set(["x", "y"]), NSOrderedSet(array: [date, uuid]),
        [[["deep"]]], ["list": [["x": Set([1, 2])], NSOrderedSet(array: ["o"])] as [Any], "url": URL(string: "https://e.com")!] as [String: Any],
    ]
    for value in values {
        guard let data = try? transformer.archive(value) else { fatalError("cannot archive the seed \(value)") }
        seeds.append(data)
    }
    if let shared = ProcessInfo.processInfo.environment["FUZZ_SHARED"] {
        seeds += archivesInStores(under: URL(fileURLWithPath: shared).appendingPathComponent("stores"))
    }
    for (index, seed) in seeds.enumerated() {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(String(format: "archive-%03d", index))
        guard (try? seed.write(to: url)) != nil else { fatalError("cannot write \(url.path)") }
    }
    print("wrote \(seeds.count) seeds to \(directory)")
    exit(0)
}

/// The distinct keyed archives in the bytes of the store files (and their WALs) under `stores`,
/// a few from each file.
func archivesInStores(under stores: URL) -> [Data] {
    let magic = Array("bplist00".utf8)
    var found: [Data] = []
    let files = (FileManager.default.enumerator(atPath: stores.path)?.compactMap { $0 as? String } ?? []).sorted()
    for file in files where [".sqlite", ".moody", "-wal"].contains(where: file.hasSuffix) {
        guard let bytes = try? [UInt8](Data(contentsOf: stores.appendingPathComponent(file))) else { continue }
        var fromFile: Set<Data> = []
        var start = 0
        while start + 41 <= bytes.count, fromFile.count < 8 {
            defer { start += 1 }
            guard bytes[start] == magic[0], bytes[start..<(start + 8)].elementsEqual(magic) else { continue }
            // The archive's length is where a trailer that describes it ends.
            for length in 41...min(4_096, bytes.count - start) {
                let trailer = start + length - 32
                let table = bytes[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
                let count = bytes[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
                let offsetSize = Int(bytes[trailer + 6])
                guard (1...8).contains(offsetSize), count > 0, count < 100_000, table + count * offsetSize + 32 == length else { continue }
                let archive = Data(bytes[start..<(start + length)])
                if (try? PropertyListSerialization.propertyList(from: archive, format: nil) as? [String: Any])?["$archiver"] as? String == "NSKeyedArchiver" {
                    fromFile.insert(archive)
                    break
                }
            }
        }
        found += fromFile.sorted { $0.count < $1.count || ($0.count == $1.count && $0.lexicographicallyPrecedes($1)) }
    }
    return found
}
