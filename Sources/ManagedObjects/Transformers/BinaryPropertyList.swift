import Foundation

/// A binary property list (`bplist00`) as its object table: objects refer to each other by
/// index, as in the file. An object several others refer to is held once, which is what
/// decides the bytes Core Foundation writes (it writes a shared object once and refers to it),
/// and a hostile list that refers to itself or shares one object a million times costs no more
/// than its size.
struct BinaryPropertyList: Equatable {
    enum Object: Equatable {
        case null
        case boolean(Bool)
        case integer(Int64)
        /// An integer above `Int64.max`: Core Foundation writes it in 16 bytes.
        case unsignedInteger(UInt64)
        case real(Double)
        /// A 4-byte real (an `NSNumber` of a `Float`).
        case real32(Float)
        /// Seconds since 2001-01-01 00:00:00 UTC.
        case date(Double)
        case data(Data)
        case string(String)
        /// A keyed archive's reference to one of its `$objects`.
        case uid(UInt64)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    var objects: [Object]
    var top: Int

    init(objects: [Object] = [], top: Int = 0) {
        self.objects = objects
        self.top = top
    }

    /// Adds `object` to the table and gives its index.
    mutating func append(_ object: Object) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    /// The object a dictionary holds under the string `key`, as an index.
    func value(in dictionary: Int, forKey key: String) -> Int? {
        guard case .dictionary(let keys, let values) = objects[dictionary] else { return nil }
        for (position, keyIndex) in keys.enumerated() where objects[keyIndex] == .string(key) {
            return values[position]
        }
        return nil
    }
}
