import Foundation

/// Reads a binary property list (`bplist00`) into its object table, checking every offset,
/// count and reference against the bytes there are, as Core Foundation's reader does: a
/// damaged or hostile list is a ``KeyedArchiveError``, never a trap, an allocation larger than
/// the list, or a recursion (objects are read one after another, each offset once).
enum BinaryPropertyListReader {
    static let magic = Data("bplist00".utf8)
    private static let trailerSize = 32

    static func read(_ data: Data) throws -> BinaryPropertyList {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + trailerSize + 1, bytes.starts(with: magic) else {
            throw KeyedArchiveError("not a binary property list (\(bytes.count) bytes without the bplist00 header and trailer)")
        }
        let trailer = bytes.count - trailerSize
        guard bytes[trailer..<(trailer + 6)].allSatisfy({ $0 == 0 }) else {
            throw KeyedArchiveError("the property list's trailer is damaged (its first six bytes are not zero)")
        }
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let top = bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let table = bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw KeyedArchiveError("the property list's trailer gives offset size \(offsetSize) and reference size \(referenceSize)")
        }
        // The offset table fills exactly the bytes between the objects and the trailer.
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard count >= 1, top < count, table >= 9, table < UInt64(trailer), !overflow, UInt64(trailer) - table == tableSize else {
            throw KeyedArchiveError("the property list's trailer is damaged (\(count) objects, top object \(top), offset table at \(table) of \(bytes.count) bytes)")
        }
        guard referenceSize >= 8 || count < UInt64(1) << (8 * referenceSize) else {
            throw KeyedArchiveError("the property list's \(count) objects do not fit its \(referenceSize)-byte references")
        }
        let parser = Parser(bytes: bytes, objectCount: Int(count), referenceSize: referenceSize, end: Int(table))
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let offset = bigEndian(bytes[(Int(table) + index * offsetSize)..<(Int(table) + (index + 1) * offsetSize)])
            guard offset >= 8, offset < table else {
                throw KeyedArchiveError("the property list's object \(index) starts at \(offset), outside its objects (8..<\(table))")
            }
            offsets.append(Int(offset))
        }
        // In the order of their offsets, so that entries naming one offset share what is read
        // there once (a million entries naming one large array hold that array once).
        var objects = [BinaryPropertyList.Object](repeating: .null, count: Int(count))
        var previous: (offset: Int, object: BinaryPropertyList.Object)?
        for index in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            if let previous, previous.offset == offsets[index] {
                objects[index] = previous.object
                continue
            }
            let object = try parser.parse(at: offsets[index], index: index)
            objects[index] = object
            previous = (offsets[index], object)
        }
        return BinaryPropertyList(objects: objects, top: Int(top))
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private struct Parser {
        let bytes: [UInt8]
        let objectCount: Int
        let referenceSize: Int
        /// Where the objects end (the offset table starts).
        let end: Int
        private func fail(_ index: Int, _ problem: String) -> KeyedArchiveError {
            KeyedArchiveError("the property list's object \(index) \(problem)")
        }

        /// `size` bytes at `position` as a big-endian number, when they lie before the offset table.
        private func number(at position: Int, size: Int, of index: Int) throws -> UInt64 {
            guard size <= 8, position <= end - size else { throw fail(index, "ends past the objects") }
            return BinaryPropertyListReader.bigEndian(bytes[position..<(position + size)])
        }

        /// The element count from the marker's low nibble, or from the integer after it when the
        /// nibble is 0xF, and where the elements start; `elementSize` bytes each must fit before
        /// the offset table (so a count of billions in a short list is refused before anything
        /// is allocated).
        private func length(_ low: Int, at start: Int, elementSize: Int, of index: Int) throws -> (count: Int, body: Int) {
            var count = low
            var body = start + 1
            if low == 0xF {
                guard body < end, bytes[body] >> 4 == 0x1, bytes[body] & 0x0F <= 3 else {
                    throw fail(index, "has a damaged length")
                }
                let size = 1 << Int(bytes[body] & 0x0F)
                let claimed = try number(at: body + 1, size: size, of: index)
                body += 1 + size
                guard claimed <= UInt64(max(0, end - body) / elementSize) else {
                    throw fail(index, "claims \(claimed) elements, more than its \(max(0, end - body)) bytes hold")
                }
                count = Int(claimed)
            }
            guard count <= max(0, end - body) / elementSize else {
                throw fail(index, "claims \(count) elements, more than its \(max(0, end - body)) bytes hold")
            }
            return (count, body)
        }

        private func references(_ count: Int, at body: Int, of index: Int) throws -> [Int] {
            var result: [Int] = []
            result.reserveCapacity(count)
            for element in 0..<count {
                let reference = try number(at: body + element * referenceSize, size: referenceSize, of: index)
                guard reference < UInt64(objectCount) else {
                    throw fail(index, "refers to object \(reference) of \(objectCount)")
                }
                result.append(Int(reference))
            }
            return result
        }

        func parse(at start: Int, index: Int) throws -> BinaryPropertyList.Object {
            let marker = bytes[start]
            let low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .boolean(false)
                case 0x09: return .boolean(true)
                default: throw fail(index, "has the unknown marker 0x\(String(marker, radix: 16))")
                }
            case 0x1:
                switch low {
                case 0...2: return .integer(Int64(try number(at: start + 1, size: 1 << low, of: index)))
                case 3: return .integer(Int64(bitPattern: try number(at: start + 1, size: 8, of: index)))
                case 4:
                    // 16 bytes: Core Foundation writes an unsigned integer above Int64.max so.
                    let high = try number(at: start + 1, size: 8, of: index)
                    let value = try number(at: start + 9, size: 8, of: index)
                    guard high == 0 else { throw fail(index, "is a 16-byte integer outside 0...UInt64.max") }
                    return value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
                default: throw fail(index, "is an integer of \(1 << low) bytes")
                }
            case 0x2:
                switch low {
                case 2: return .real32(Float(bitPattern: UInt32(try number(at: start + 1, size: 4, of: index))))
                case 3: return .real(Double(bitPattern: try number(at: start + 1, size: 8, of: index)))
                default: throw fail(index, "is a real of \(1 << low) bytes")
                }
            case 0x3:
                guard marker == 0x33 else { throw fail(index, "has the unknown marker 0x\(String(marker, radix: 16))") }
                return .date(Double(bitPattern: try number(at: start + 1, size: 8, of: index)))
            case 0x4:
                let (count, body) = try length(low, at: start, elementSize: 1, of: index)
                return .data(Data(bytes[body..<(body + count)]))
            case 0x5:
                let (count, body) = try length(low, at: start, elementSize: 1, of: index)
                let characters = bytes[body..<(body + count)]
                guard characters.allSatisfy({ $0 < 0x80 }) else { throw fail(index, "is an ASCII string with a byte above 0x7F") }
                return .string(String(decoding: characters, as: UTF8.self))
            case 0x6:
                let (count, body) = try length(low, at: start, elementSize: 2, of: index)
                let units = (0..<count).map { UInt16(bytes[body + 2 * $0]) << 8 | UInt16(bytes[body + 2 * $0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                return .uid(try number(at: start + 1, size: low + 1, of: index))
            case 0xA:
                let (count, body) = try length(low, at: start, elementSize: referenceSize, of: index)
                return .array(try references(count, at: body, of: index))
            case 0xC:
                let (count, body) = try length(low, at: start, elementSize: referenceSize, of: index)
                return .set(try references(count, at: body, of: index))
            case 0xD:
                let (count, body) = try length(low, at: start, elementSize: 2 * referenceSize, of: index)
                return .dictionary(keys: try references(count, at: body, of: index),
                                   values: try references(count, at: body + count * referenceSize, of: index))
            default:
                throw fail(index, "has the unknown marker 0x\(String(marker, radix: 16))")
            }
        }
    }
}
