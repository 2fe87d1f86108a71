import Foundation

/// Writes a ``BinaryPropertyList`` in Core Foundation's byte layout (`__CFBinaryPlistWrite`),
/// which is what Apple's `NSKeyedArchiver` gives Core Data: objects in depth-first order from
/// the top (a dictionary's keys, then its values), an object the table shares written once,
/// integers in the fewest of 1, 2, 4 or 8 bytes (negative ones in 8, those above `Int64.max`
/// in 16), ASCII strings as bytes and others as UTF-16, the top object first, references and
/// offsets in the fewest bytes that hold the object count and the offset table's position.
/// Re-writing the archives in the real stores gives their bytes back (the tests check it).
enum BinaryPropertyListWriter {
    static func write(_ list: BinaryPropertyList) -> Data {
        // Depth first, without recursion (an archive's lists may nest deeply): an object is
        // numbered where it is first reached.
        var number = [Int](repeating: -1, count: list.objects.count)
        var order: [Int] = []
        var pending = [list.top]
        while let index = pending.popLast() {
            guard number[index] < 0 else { continue }
            number[index] = order.count
            order.append(index)
            switch list.objects[index] {
            case .array(let elements), .set(let elements): pending.append(contentsOf: elements.reversed())
            case .dictionary(let keys, let values): pending.append(contentsOf: (keys + values).reversed())
            default: break
            }
        }
        let referenceSize = byteCount(UInt64(order.count))
        var bytes = [UInt8](BinaryPropertyListReader.magic)
        var offsets: [Int] = []
        offsets.reserveCapacity(order.count)
        func references(_ indices: [Int]) {
            for index in indices { append(UInt64(number[index]), size: referenceSize, to: &bytes) }
        }
        for index in order {
            offsets.append(bytes.count)
            switch list.objects[index] {
            case .null: bytes.append(0x00)
            case .boolean(let value): bytes.append(value ? 0x09 : 0x08)
            case .integer(let value): appendInteger(UInt64(bitPattern: value), to: &bytes)
            case .unsignedInteger(let value):
                bytes.append(0x14)
                append(0, size: 8, to: &bytes)
                append(value, size: 8, to: &bytes)
            case .real(let value):
                bytes.append(0x23)
                append(value.bitPattern, size: 8, to: &bytes)
            case .real32(let value):
                bytes.append(0x22)
                append(UInt64(value.bitPattern), size: 4, to: &bytes)
            case .date(let value):
                bytes.append(0x33)
                append(value.bitPattern, size: 8, to: &bytes)
            case .data(let data):
                appendMarker(0x40, count: data.count, to: &bytes)
                bytes += data
            case .string(let string):
                if string.utf8.allSatisfy({ $0 < 0x80 }) {
                    appendMarker(0x50, count: string.utf8.count, to: &bytes)
                    bytes += string.utf8
                } else {
                    let units = Array(string.utf16)
                    appendMarker(0x60, count: units.count, to: &bytes)
                    for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                }
            case .uid(let value):
                let size = value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
                bytes.append(0x80 | UInt8(size - 1))
                append(value, size: size, to: &bytes)
            case .array(let elements):
                appendMarker(0xA0, count: elements.count, to: &bytes)
                references(elements)
            case .set(let elements):
                appendMarker(0xC0, count: elements.count, to: &bytes)
                references(elements)
            case .dictionary(let keys, let values):
                appendMarker(0xD0, count: keys.count, to: &bytes)
                references(keys)
                references(values)
            }
        }
        let table = bytes.count
        let offsetSize = byteCount(UInt64(table))
        for offset in offsets { append(UInt64(offset), size: offsetSize, to: &bytes) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        append(UInt64(order.count), size: 8, to: &bytes)
        append(0, size: 8, to: &bytes)  // the top object is written first
        append(UInt64(table), size: 8, to: &bytes)
        return Data(bytes)
    }

    /// The bytes `value` needs (Core Foundation's rule for reference and offset sizes).
    private static func byteCount(_ value: UInt64) -> Int {
        var count = 0
        var rest = value
        while rest != 0 {
            count += 1
            rest >>= 8
        }
        return count
    }

    private static func append(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: 8 * (size - 1), through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// An integer object in the fewest of 1, 2, 4 or 8 bytes (a negative one, as unsigned, in 8).
    private static func appendInteger(_ value: UInt64, to bytes: inout [UInt8]) {
        let power = value <= 0xFF ? 0 : value <= 0xFFFF ? 1 : value <= 0xFFFF_FFFF ? 2 : 3
        bytes.append(0x10 | UInt8(power))
        append(value, size: 1 << power, to: &bytes)
    }

    /// A marker with the count in its low nibble, or 0xF and the count as an integer after it.
    private static func appendMarker(_ marker: UInt8, count: Int, to bytes: inout [UInt8]) {
        bytes.append(marker | UInt8(min(count, 15)))
        if count >= 15 { appendInteger(UInt64(count), to: &bytes) }
    }
}
