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
            case .dictionary(let keys, let values):
                pending.append(contentsOf: values.reversed())
                pending.append(contentsOf: keys.reversed())
            default: break
            }
        }
        let referenceSize = BinaryPropertyListBytes.byteCount(UInt64(order.count))
        let capacity = order.reduce(BinaryPropertyListBytes.trailerBound(objectCount: order.count)) {
            $0 + bound(of: list.objects[$1], referenceSize: referenceSize)
        }
        var bytes = BinaryPropertyListBytes(capacity: capacity, objectCount: order.count)
        for index in order {
            bytes.startObject()
            switch list.objects[index] {
            case .null: bytes.append(0x00)
            case .boolean(let value): bytes.append(value ? 0x09 : 0x08)
            case .integer(let value): bytes.integer(UInt64(bitPattern: value))
            case .unsignedInteger(let value):
                bytes.append(0x14)
                bytes.append(0, size: 8)
                bytes.append(value, size: 8)
            case .real(let value):
                bytes.append(0x23)
                bytes.append(value.bitPattern, size: 8)
            case .real32(let value):
                bytes.append(0x22)
                bytes.append(UInt64(value.bitPattern), size: 4)
            case .date(let value):
                bytes.append(0x33)
                bytes.append(value.bitPattern, size: 8)
            case .data(let data):
                bytes.marker(0x40, count: data.count)
                data.withUnsafeBytes { bytes.append($0) }
            case .string(let string): bytes.string(string)
            case .uid(let value): bytes.uid(value)
            case .array(let elements):
                bytes.marker(0xA0, count: elements.count)
                for element in elements { bytes.reference(number[element], size: referenceSize) }
            case .set(let elements):
                bytes.marker(0xC0, count: elements.count)
                for element in elements { bytes.reference(number[element], size: referenceSize) }
            case .dictionary(let keys, let values):
                bytes.marker(0xD0, count: keys.count)
                for key in keys { bytes.reference(number[key], size: referenceSize) }
                for value in values { bytes.reference(number[value], size: referenceSize) }
            }
        }
        return bytes.finish(referenceSize: referenceSize)
    }

    /// The most `object` takes written.
    private static func bound(of object: BinaryPropertyList.Object, referenceSize: Int) -> Int {
        switch object {
        case .null, .boolean: 1
        case .integer, .real, .date, .uid: 9
        case .unsignedInteger: 17
        case .real32: 5
        case .data(let data): BinaryPropertyListBytes.markerBound + data.count
        case .string(let string): BinaryPropertyListBytes.stringBound(string)
        case .array(let elements), .set(let elements): BinaryPropertyListBytes.markerBound + referenceSize * elements.count
        case .dictionary(let keys, let values): BinaryPropertyListBytes.markerBound + referenceSize * (keys.count + values.count)
        }
    }
}
