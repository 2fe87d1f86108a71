/// A binary property list (`bplist00`) read into values, with the UIDs keyed archives use (which
/// Foundation's `PropertyListSerialization` gives only as a private type). Every offset, count
/// and reference is checked: a damaged list is an error, never a trap.
enum BinaryPropertyList {
    indirect enum Value: Equatable {
        case string(String)
        case integer(Int)
        case real(Double)
        case boolean(Bool)
        case null
        case data([UInt8])
        /// A keyed archive's reference to one of its `$objects`.
        case uid(Int)
        case array([Value])
        case dictionary([String: Value])
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static let magic = Array("bplist00".utf8)

    static func read(_ bytes: [UInt8]) throws(ReadError) -> Value {
        let reader = try Reader(bytes)
        return try reader.object(reader.topObject, depth: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let topObject: Int
        let offsetTable: Int
        /// Lists nest far less in keyed archives; deeper means a cycle or a hostile file.
        static let maxDepth = 64

        init(_ bytes: [UInt8]) throws(ReadError) {
            guard bytes.count >= BinaryPropertyList.magic.count + 32, bytes.starts(with: BinaryPropertyList.magic) else {
                throw ReadError(description: "not a binary property list (no bplist00 header and trailer)")
            }
            self.bytes = bytes
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
                throw ReadError(description: "the property list's trailer gives offset size \(offsetSize) and reference size \(referenceSize)")
            }
            let count = Self.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
            let top = Self.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
            let table = Self.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
            guard count > 0, count <= UInt64(bytes.count), top < count, table >= 8, table <= UInt64(trailer),
                  UInt64(trailer) - table >= count * UInt64(offsetSize) else {
                throw ReadError(description: "the property list's trailer is damaged (\(count) objects, top \(top), offset table at \(table))")
            }
            objectCount = Int(count)
            topObject = Int(top)
            offsetTable = Int(table)
        }

        private static func bigEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
            slice.reduce(0) { $0 << 8 | UInt64($1) }
        }

        private func unsigned(at position: Int, size: Int) throws(ReadError) -> Int {
            let value = try bits(at: position, size: size)
            guard value <= UInt64(Int.max) else { throw ReadError(description: "a value at offset \(position) is out of range") }
            return Int(value)
        }

        private func bits(at position: Int, size: Int) throws(ReadError) -> UInt64 {
            guard position >= 0, size <= 8, position + size <= bytes.count else {
                throw ReadError(description: "the property list ends inside a value at offset \(position)")
            }
            return Self.bigEndian(bytes[position..<(position + size)])
        }

        func object(_ index: Int, depth: Int) throws(ReadError) -> Value {
            guard index >= 0, index < objectCount else {
                throw ReadError(description: "an object reference (\(index)) points past the \(objectCount) objects")
            }
            guard depth < Self.maxDepth else { throw ReadError(description: "the property list nests more than \(Self.maxDepth) deep") }
            let start = try unsigned(at: offsetTable + index * offsetSize, size: offsetSize)
            guard start >= 8, start < offsetTable else { throw ReadError(description: "object \(index) starts outside the object area") }
            let marker = bytes[start]
            let low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .boolean(false)
                case 0x09: return .boolean(true)
                default: throw ReadError(description: "object \(index) has an unknown marker 0x\(String(marker, radix: 16))")
                }
            case 0x1:
                guard low <= 3 else { throw ReadError(description: "object \(index) is an integer of \(1 << low) bytes") }
                let size = 1 << low
                let raw = try bits(at: start + 1, size: size)
                // 8-byte integers are signed (Xcode archives -1 as one, for instance); shorter ones are not.
                return .integer(size == 8 ? Int(Int64(bitPattern: raw)) : Int(raw))
            case 0x2:
                switch low {
                case 2: return .real(Double(Float(bitPattern: UInt32(try unsigned(at: start + 1, size: 4)))))
                case 3:
                    guard start + 9 <= bytes.count else { throw ReadError(description: "object \(index) ends past the list") }
                    return .real(Double(bitPattern: Self.bigEndian(bytes[(start + 1)..<(start + 9)])))
                default: throw ReadError(description: "object \(index) is a real of \(1 << low) bytes")
                }
            case 0x4:
                let (count, body) = try length(low, at: start, of: index)
                guard body + count <= offsetTable else { throw ReadError(description: "data object \(index) runs past the object area") }
                return .data(Array(bytes[body..<(body + count)]))
            case 0x5:
                let (count, body) = try length(low, at: start, of: index)
                guard body + count <= offsetTable else { throw ReadError(description: "string object \(index) runs past the object area") }
                return .string(String(decoding: bytes[body..<(body + count)], as: UTF8.self))
            case 0x6:
                let (count, body) = try length(low, at: start, of: index)
                guard count <= (offsetTable - body) / 2 else { throw ReadError(description: "string object \(index) runs past the object area") }
                let units = (0..<count).map { UInt16(bytes[body + 2 * $0]) << 8 | UInt16(bytes[body + 2 * $0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                return .uid(try unsigned(at: start + 1, size: low + 1))
            case 0xA:
                let (count, body) = try length(low, at: start, of: index)
                var elements: [Value] = []
                for position in try references(count, at: body, of: index) {
                    elements.append(try object(position, depth: depth + 1))
                }
                return .array(elements)
            case 0xD:
                let (count, body) = try length(low, at: start, of: index)
                let keys = try references(count, at: body, of: index)
                let values = try references(count, at: body + count * referenceSize, of: index)
                var dictionary: [String: Value] = [:]
                for (key, value) in zip(keys, values) {
                    guard case .string(let name) = try object(key, depth: depth + 1) else {
                        throw ReadError(description: "dictionary object \(index) has a key that is not a string")
                    }
                    dictionary[name] = try object(value, depth: depth + 1)
                }
                return .dictionary(dictionary)
            default:
                throw ReadError(description: "object \(index) has a marker 0x\(String(marker, radix: 16)) a keyed archive does not use")
            }
        }

        /// A count from the marker's low nibble, or from the integer after it when that is 0xF;
        /// and where the body starts.
        private func length(_ low: Int, at start: Int, of index: Int) throws(ReadError) -> (count: Int, body: Int) {
            guard low == 0xF else { return (low, start + 1) }
            guard start + 1 < bytes.count, bytes[start + 1] >> 4 == 0x1, bytes[start + 1] & 0x0F <= 3 else {
                throw ReadError(description: "object \(index) has a damaged length")
            }
            let size = 1 << Int(bytes[start + 1] & 0x0F)
            let count = try unsigned(at: start + 2, size: size)
            guard count <= bytes.count else { throw ReadError(description: "object \(index) claims \(count) elements") }
            return (count, start + 2 + size)
        }

        private func references(_ count: Int, at position: Int, of index: Int) throws(ReadError) -> [Int] {
            guard count <= (offsetTable - min(position, offsetTable)) / referenceSize else {
                throw ReadError(description: "object \(index) has references past the object area")
            }
            var result: [Int] = []
            result.reserveCapacity(count)
            for element in 0..<count {
                result.append(try unsigned(at: position + element * referenceSize, size: referenceSize))
            }
            return result
        }
    }
}
