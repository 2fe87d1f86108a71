import Foundation

/// Writes a value made of Foundation's plist types as an `NSKeyedArchiver` archive, through
/// Foundation's archiver, after checking every part is of an allowed class: the archiver on
/// Linux stops the program on a value it cannot encode, and an archive of a class the reader
/// would refuse must fail at save, not on the next read.
enum KeyedArchiveWriter {
    static func archive(_ value: Any, allowedClassNames: Set<String>) throws -> Data {
        try check(value, allowedClassNames: allowedClassNames, depth: 0)
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
        } catch {
            throw KeyedArchiveError("NSKeyedArchiver could not archive \(type(of: value)): \(error)")
        }
    }

    /// The archive class of a value the archiver can write, `nil` for any other.
    private static func className(of value: Any) -> String? {
        switch value {
        case is String, is NSString: "NSString"
        case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt8, is UInt16, is UInt32, is UInt64, is UInt,
             is Double, is Float, is NSNumber: "NSNumber"
        case is Date, is NSDate: "NSDate"
        case is Data, is NSData: "NSData"
        case is UUID, is NSUUID: "NSUUID"
        case is URL, is NSURL: "NSURL"
        case is NSNull: "NSNull"
        case is NSOrderedSet: "NSOrderedSet"
        case is [Any], is NSArray: "NSArray"
        case is [AnyHashable: Any], is NSDictionary: "NSDictionary"
        case is Set<AnyHashable>, is NSSet: "NSSet"
        default: nil
        }
    }

    private static func check(_ value: Any, allowedClassNames: Set<String>, depth: Int) throws {
        guard depth < KeyedArchiveReader.maximumDepth else {
            throw KeyedArchiveError("the value nests deeper than \(KeyedArchiveReader.maximumDepth)")
        }
        guard let name = className(of: value) else {
            throw KeyedArchiveError("a \(type(of: value)) is not one of Foundation's plist types, which the transformer archives")
        }
        guard allowedClassNames.contains(name) else {
            throw KeyedArchiveError("a \(type(of: value)) archives as \(name), which the transformer does not allow")
        }
        let members: [Any] = switch value {
        case let set as NSOrderedSet: set.array
        case let array as [Any]: array
        case let dictionary as [AnyHashable: Any]: dictionary.keys.map(\.base) + Array(dictionary.values)
        case let set as Set<AnyHashable>: set.map(\.base)
        default: []
        }
        for member in members { try check(member, allowedClassNames: allowedClassNames, depth: depth + 1) }
    }
}
