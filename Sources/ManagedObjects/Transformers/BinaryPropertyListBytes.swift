import Foundation

/// A binary property list's bytes as they are written, into memory allocated once for the most
/// they can take (the writer works that out first), in Core Foundation's encodings: markers,
/// integers, UIDs, strings, references, and the trailer. ``BinaryPropertyListWriter`` and
/// ``StringArrayArchive`` both write through it, so the two give the same bytes.
struct BinaryPropertyListBytes: ~Copyable {
    /// The objects' offsets, then the bytes: one allocation.
    private let offsets: UnsafeMutablePointer<Int>
    private let objectCapacity: Int
    private var objectCount = 0
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    /// The most a marker with its count takes: the marker byte and an 8-byte integer object.
    static let markerBound = 10
    /// The most the trailer and the offset table of `objectCount` objects take.
    static func trailerBound(objectCount: Int) -> Int { 8 * objectCount + 32 }
    /// The most a string object takes (a UTF-16 unit is at least one UTF-8 byte).
    static func stringBound(_ string: String) -> Int { markerBound + 2 * string.utf8.count }

    /// Room for `capacity` bytes after the `bplist00` header, for `objectCount` objects.
    init(capacity: Int, objectCount: Int) {
        self.capacity = capacity + BinaryPropertyListReader.magic.count
        objectCapacity = objectCount
        let memory = UnsafeMutableRawPointer.allocate(byteCount: objectCount * MemoryLayout<Int>.stride + self.capacity,
                                                      alignment: MemoryLayout<Int>.alignment)
        offsets = memory.bindMemory(to: Int.self, capacity: objectCount)
        start = (memory + objectCount * MemoryLayout<Int>.stride).bindMemory(to: UInt8.self, capacity: self.capacity)
        BinaryPropertyListReader.magic.withUnsafeBytes { append($0) }
    }

    deinit { UnsafeMutableRawPointer(offsets).deallocate() }

    /// The next object starts here (objects come in number order).
    @inline(__always)
    mutating func startObject() {
        precondition(objectCount < objectCapacity, "a binary property list has more objects than worked out for it")
        offsets[objectCount] = count
        objectCount += 1
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "a binary property list outgrew the room worked out for it")
        start[count] = byte
        count += 1
    }

    /// `value`'s low `size` bytes, big-endian.
    @inline(__always)
    mutating func append(_ value: UInt64, size: Int) {
        precondition(count + size <= capacity, "a binary property list outgrew the room worked out for it")
        var shift = 8 * (size - 1)
        while shift >= 0 {
            start[count] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            count += 1
            shift -= 8
        }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        precondition(count + bytes.count <= capacity, "a binary property list outgrew the room worked out for it")
        guard let base = bytes.baseAddress else { return }
        (start + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    /// A reference to object `number`, in `size` bytes.
    @inline(__always)
    mutating func reference(_ number: Int, size: Int) {
        append(UInt64(number), size: size)
    }

    /// An integer object in the fewest of 1, 2, 4 or 8 bytes (a negative one, as unsigned, in 8).
    mutating func integer(_ value: UInt64) {
        let power = value <= 0xFF ? 0 : value <= 0xFFFF ? 1 : value <= 0xFFFF_FFFF ? 2 : 3
        append(0x10 | UInt8(power))
        append(value, size: 1 << power)
    }

    /// A marker with the count in its low nibble, or 0xF and the count as an integer after it.
    mutating func marker(_ marker: UInt8, count: Int) {
        append(marker | UInt8(min(count, 15)))
        if count >= 15 { integer(UInt64(count)) }
    }

    /// A keyed archive's UID in the fewest of 1, 2, 4 or 8 bytes.
    mutating func uid(_ value: UInt64) {
        let size = value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
        append(0x80 | UInt8(size - 1))
        append(value, size: size)
    }

    /// A string object: ASCII as its bytes, others as UTF-16 (big-endian).
    mutating func string(_ string: String) {
        var string = string
        let isASCII = string.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            marker(0x50, count: utf8.count)
            append(UnsafeRawBufferPointer(utf8))
            return true
        }
        guard !isASCII else { return }
        marker(0x60, count: string.utf16.count)
        for unit in string.utf16 { append(UInt64(unit), size: 2) }
    }

    /// The offset table (the top object first) and trailer, and the finished bytes.
    consuming func finish(referenceSize: Int) -> Data {
        let table = count
        let offsetSize = Self.byteCount(UInt64(table))
        for object in 0..<objectCount { append(UInt64(offsets[object]), size: offsetSize) }
        append(0, size: 6)
        append(UInt8(offsetSize))
        append(UInt8(referenceSize))
        append(UInt64(objectCount), size: 8)
        append(0, size: 8)  // the top object is written first
        append(UInt64(table), size: 8)
        return Data(bytes: start, count: count)
    }

    /// The bytes `value` needs (Core Foundation's rule for reference and offset sizes).
    static func byteCount(_ value: UInt64) -> Int {
        var count = 0
        var rest = value
        while rest != 0 {
            count += 1
            rest >>= 8
        }
        return count
    }
}
