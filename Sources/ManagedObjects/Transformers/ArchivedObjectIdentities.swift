import Foundation

/// Which objects of a keyed archive are equal as Apple's Foundation objects are (`isEqual:`),
/// for the reader to keep one of equal members of a set or an ordered set, and one of equal
/// dictionary keys, as `NSSet`, `NSOrderedSet` and `NSDictionary` do when Apple's unarchiver
/// makes them.
///
/// Each decoded object gets a number, the same for equal objects: a value's key (its kind and
/// contents, a collection's by its members' numbers) is interned once, so deciding equality
/// costs the size of the object's own fields, never the size of what it nests (an archive can
/// share one object many times: comparing nested values deeply could take exponential time).
///
/// Apple's equality, not Swift's: numbers (and Booleans) by value, so `true`, `1` and `1.0` are
/// one number and NaN equals NaN (Core Foundation has one NaN number); strings literally, by
/// their Unicode scalars (`NSString`'s `isEqual:` applies no normalisation, where Swift's `==`
/// calls canonically equivalent strings equal); dates by time (a NaN time equals nothing else);
/// URLs by relative string and base; arrays and ordered sets by members in order; sets by
/// members; dictionaries by keys and values.
struct ArchivedObjectIdentities {
    private enum Key: Hashable {
        case number(NumberKey)
        case string([UInt8])
        case data(Data)
        case date(UInt64)
        /// Equal only to itself (a date whose time is NaN), by object number.
        case unique(Int)
        case uuid(UUID)
        case url(relative: [UInt8], base: Int)
        case null
        case array([Int])
        case orderedSet([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// A number by its mathematical value: integral values (whatever their type) as integers,
    /// others as the bits of their `Double`.
    private enum NumberKey: Hashable {
        case integer(Int64)
        case unsigned(UInt64)
        case real(UInt64)
        case notANumber
    }

    private var interned: [Key: Int] = [:]

    /// The identity of a value read from an archive (`number` is its object number, for values
    /// equal only to themselves). Collections' members must have had theirs given first: the
    /// caller passes their identities.
    mutating func identity(of value: Any, objectNumber number: Int, members: [Int] = [], values: [Int] = []) -> Int {
        let key: Key
        // An `NSNumber` first: cast to `Bool`, Foundation would bridge it.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber { return intern(.number(Self.numberKey(number))) }
        switch value {
        case let string as String: key = .string(Array(string.utf8))
        case let boolean as Bool: key = .number(.integer(boolean ? 1 : 0))
        case let data as Data: key = .data(data)
        case let date as Date:
            let time = date.timeIntervalSinceReferenceDate
            key = time.isNaN ? .unique(number) : .date((time == 0 ? 0 : time).bitPattern)
        case let uuid as UUID: key = .uuid(uuid)
        case let url as URL: key = .url(relative: Array(url.relativeString.utf8), base: members.first ?? 0)
        case is NSNull: key = .null
        case is NSOrderedSet: key = .orderedSet(members)
        case is [Any]: key = .array(members)
        case is Set<AnyHashable>: key = .set(members.sorted())
        case is [AnyHashable: Any]:
            let pairs = zip(members, values).sorted { $0.0 < $1.0 }
            key = .dictionary(keys: pairs.map(\.0), values: pairs.map(\.1))
        default: key = .unique(number)
        }
        return intern(key)
    }

    private mutating func intern(_ key: Key) -> Int {
        if let identity = interned[key] { return identity }
        let identity = interned.count + 1
        interned[key] = identity
        return identity
    }

    private static func numberKey(_ number: NSNumber) -> NumberKey {
        switch String(cString: number.objCType) {
        case "f", "d":
            let real = number.doubleValue
            if real.isNaN { return .notANumber }
            if real == real.rounded(.towardZero) {
                if let integer = Int64(exactly: real) { return .integer(integer) }
                if let unsigned = UInt64(exactly: real) { return .unsigned(unsigned) }
            }
            return .real(real.bitPattern)
        case "Q", "L", "I", "S", "C":
            let unsigned = number.uint64Value
            return unsigned <= UInt64(Int64.max) ? .integer(Int64(unsigned)) : .unsigned(unsigned)
        default:
            return .integer(number.int64Value)
        }
    }
}
