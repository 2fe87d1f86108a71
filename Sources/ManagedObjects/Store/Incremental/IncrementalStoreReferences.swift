import Foundation

/// The reference objects of an ``IncrementalStore``'s object IDs: the key a store keeps for
/// each object (a string, a number) and the number its permanent ID carries. Object IDs here
/// are a store identifier and a number (32 bytes in every object, snapshot and table that holds
/// one), so each new reference of an entity takes the next number, for the life of the store.
final class IncrementalStoreReferences: @unchecked Sendable {
    // Unchecked: the tables are used only while holding `lock`; references are immutable
    // values (strings, numbers) the store gave.
    private let lock = NSLock()
    private var numbers: [String: [AnyHashable: Int64]] = [:]
    private var references: [String: [Int64: Any]] = [:]
    private var nextNumber: Int64 = 1

    /// The number of `reference` among the objects of `entityName`, given the first time it is asked.
    func number(for reference: Any, entityName: String) -> Int64 {
        let key = Self.key(reference)
        return lock.withLock {
            if let number = numbers[entityName]?[key] { return number }
            let number = nextNumber
            nextNumber += 1
            numbers[entityName, default: [:]][key] = number
            references[entityName, default: [:]][number] = reference
            return number
        }
    }

    /// The reference behind `number` of `entityName`, if this table gave it.
    func reference(for number: Int64, entityName: String) -> Any? {
        lock.withLock { references[entityName]?[number] }
    }

    /// `reference` as a dictionary key: strings and numbers compare by value whether they come
    /// as Swift or Foundation values (`"a"` and `NSString("a")`, `1` and `NSNumber(1)`).
    static func key(_ reference: Any) -> AnyHashable {
        switch reference {
        case let string as String: return AnyHashable(string)
        case let string as NSString: return AnyHashable(String(string))
        case let integer as any BinaryInteger:
            return Int64(exactly: integer).map { AnyHashable($0) } ?? AnyHashable(String(describing: integer))
        case let number as NSNumber:
            if let integer = Int64(exactly: number.doubleValue), !(reference is Double || reference is Float) {
                return AnyHashable(integer)
            }
            return AnyHashable(number.doubleValue)
        case let hashable as AnyHashable: return hashable
        default: return AnyHashable(String(describing: reference))
        }
    }
}
