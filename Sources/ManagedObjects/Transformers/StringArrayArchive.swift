import Foundation

/// The keyed archive of a `[String]` (the commonest Transformable) written straight to its
/// bytes, without the object table and the depth-first walk of the general writers: the bytes
/// ``KeyedArchiveWriter`` and ``BinaryPropertyListWriter`` give for the same array (a test
/// compares them over arrays of every shape), at a fraction of the work.
///
/// The layout, each object numbered as Core Foundation's writer reaches it depth first from the
/// top dictionary, for `n` members of which `k` are distinct objects (a tagged-pointer string is
/// one object however often it occurs, see ``KeyedArchiveWriter``):
///
///     0  {$version 1: 5, $archiver 2: 6, $top 3: 7, $objects 4: 10}
///     5  100000   6  "NSKeyedArchiver"   7  {root 8: 9}   9  UID 1
///     10 [11, 12, the members' objects, the class's object]   11 "$null"
///     12 {NS.objects 13: 15, $class 14: 16+n}   15 [16 … 15+n]   16 … 15+n  a UID per member
///     16+n  UID k+2 (the class)   17+n … 16+n+k  the distinct members (`$objects` 2 … k+1)
///     c = 17+n+k  {$classname c+1: c+3, $classes c+2: c+4}   c+3 "NSArray"   c+4 [c+3, c+5]
///     c+5 "NSObject"
enum StringArrayArchive {
    /// The archive of `strings`; `nil` when a member is one of the archiver's own tagged-pointer
    /// strings (`root`, `$class` …), which the general writer shares with the member: a layout not
    /// written here.
    static func archive(_ strings: [String]) -> Data? {
        let count = strings.count
        // Each member's `$objects` number, negative for a tagged-pointer string (written once,
        // where it first occurs; the others where they occur).
        var numbers: [Int] = []
        numbers.reserveCapacity(count)
        var distinct = 0
        // Searched in place while the members are few.
        var taggedNumbers: [String: Int] = [:]
        var memberBound = 0
        for (position, text) in strings.enumerated() {
            memberBound += BinaryPropertyListBytes.stringBound(text)
            guard AppleTaggedPointers.canHold(text) else {
                distinct += 1
                numbers.append(distinct + 1)
                continue
            }
            // Each of them starts with `$`, `N` or `r`.
            if let first = text.utf8.first, first == 0x24 || first == 0x4E || first == 0x72,
               taggedArchiverStrings.contains(where: { $0 == text }) {
                return nil
            }
            let earlier = count <= 32
                ? (0..<position).first { numbers[$0] < 0 && strings[$0] == text }.map { numbers[$0] }
                : taggedNumbers[text]
            if let earlier {
                numbers.append(earlier)
                continue
            }
            distinct += 1
            numbers.append(-(distinct + 1))
            if count > 32 { taggedNumbers[text] = -(distinct + 1) }
        }

        let objectCount = 23 + count + distinct
        let size = BinaryPropertyListBytes.byteCount(UInt64(objectCount))
        // The most it takes: the strings; 7 container markers, the version and 2 UIDs (97 bytes);
        // a reference per object; a UID per member; the trailer.
        var bytes = BinaryPropertyListBytes(
            capacity: archiverStringsBound + 97 + objectCount * size + 9 * count + memberBound
                + BinaryPropertyListBytes.trailerBound(objectCount: objectCount),
            objectCount: objectCount)
        let classDictionary = 17 + count + distinct
        bytes.container(0xD0, count: 4)
        for object in 1...7 { bytes.reference(object, size: size) }
        bytes.reference(10, size: size)
        bytes.stringObject("$version")
        bytes.stringObject("$archiver")
        bytes.stringObject("$top")
        bytes.stringObject("$objects")
        bytes.startObject()
        bytes.integer(UInt64(KeyedArchiveWriter.archiverVersion))
        bytes.stringObject("NSKeyedArchiver")
        bytes.container(0xD0, count: 1)
        bytes.reference(8, size: size)
        bytes.reference(9, size: size)
        bytes.stringObject("root")
        bytes.uidObject(1)
        bytes.container(0xA0, count: distinct + 3)
        bytes.reference(11, size: size)
        bytes.reference(12, size: size)
        for object in 17 + count...classDictionary { bytes.reference(object, size: size) }
        bytes.stringObject("$null")
        bytes.container(0xD0, count: 2)
        for object in 13...15 { bytes.reference(object, size: size) }
        bytes.reference(16 + count, size: size)
        bytes.stringObject("NS.objects")
        bytes.stringObject("$class")
        bytes.container(0xA0, count: count)
        for object in 16..<16 + count { bytes.reference(object, size: size) }
        for number in numbers { bytes.uidObject(UInt64(abs(number))) }
        bytes.uidObject(UInt64(distinct + 2))
        // The distinct members, in `$objects` order: each where its number first occurs.
        var written = 0
        for (position, number) in numbers.enumerated() where abs(number) == written + 2 {
            written += 1
            bytes.stringObject(strings[position])
        }
        bytes.container(0xD0, count: 2)
        for object in classDictionary + 1...classDictionary + 4 { bytes.reference(object, size: size) }
        bytes.stringObject("$classname")
        bytes.stringObject("$classes")
        bytes.stringObject("NSArray")
        bytes.container(0xA0, count: 2)
        bytes.reference(classDictionary + 3, size: size)
        bytes.reference(classDictionary + 5, size: size)
        bytes.stringObject("NSObject")
        return bytes.finish(referenceSize: size)
    }

    /// The strings the archive itself holds.
    private static let archiverStrings = ["$null", "$class", "root", "$top", "NSArray", "NSObject", "$classes",
                                          "$classname", "NS.objects", "$version", "$archiver", "$objects", "NSKeyedArchiver"]
    private static let archiverStringsBound = archiverStrings.reduce(0) { $0 + BinaryPropertyListBytes.stringBound($1) }
    private static let taggedArchiverStrings = archiverStrings.filter(AppleTaggedPointers.canHold)
}

private extension BinaryPropertyListBytes {
    mutating func container(_ marker: UInt8, count: Int) {
        startObject()
        self.marker(marker, count: count)
    }

    mutating func stringObject(_ text: String) {
        startObject()
        string(text)
    }

    mutating func uidObject(_ value: UInt64) {
        startObject()
        uid(value)
    }
}
