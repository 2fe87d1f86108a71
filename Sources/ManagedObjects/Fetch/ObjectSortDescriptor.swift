import Foundation

/// How a fetch orders its results: a key path, a direction and a way to compare. Core Data's
/// `NSSortDescriptor`, renamed because Foundation on Linux already has that name.
///
/// Values compare the way Core Data's SQLite store orders them: `nil` before everything
/// (ascending), numbers of any type by value, strings, dates, UUIDs, URLs and data by content.
public struct ObjectSortDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// How two strings compare. Other values always compare by value.
    public enum Comparison: String, Hashable, Sendable {
        /// `compare(_:)`: by Unicode scalar value.
        case compare
        /// `caseInsensitiveCompare(_:)`.
        case caseInsensitive
        /// `localizedCompare(_:)`.
        case localized
        /// `localizedCaseInsensitiveCompare(_:)`.
        case localizedCaseInsensitive
        /// `localizedStandardCompare(_:)`: as the Finder sorts names: case-insensitive, digits
        /// compared as numbers ("File 2" before "File 10").
        case localizedStandard
    }

    public var key: String
    public var ascending: Bool
    public var comparison: Comparison

    public init(key: String, ascending: Bool = true, comparison: Comparison = .compare) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The descriptor with the opposite direction.
    public var reversed: ObjectSortDescriptor {
        ObjectSortDescriptor(key: key, ascending: !ascending, comparison: comparison)
    }

    /// How `lhs` and `rhs` compare by this descriptor's key path.
    public func compare(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        let left = (lhs as? KeyValueCoding).map { KeyPathReader.value(of: $0, at: keyPath) } ?? nil
        let right = (rhs as? KeyValueCoding).map { KeyPathReader.value(of: $0, at: keyPath) } ?? nil
        let result = ValueComparison.compare(left, right, comparison)
        return ascending ? result : result.reversed
    }

    private var keyPath: [String] { key.split(separator: ".").map(String.init) }

    public var description: String {
        "(\(key), \(ascending ? "ascending" : "descending"), \(comparison.rawValue))"
    }
}

extension Array where Element == ObjectSortDescriptor {
    /// `objects` in the descriptors' order: the first descriptor that tells two objects apart
    /// decides; ties keep their order (the sort is stable). Each key path is read once per
    /// object.
    func sorted<Object: KeyValueCoding>(_ objects: [Object]) -> [Object] {
        let keyPaths = map { $0.key.split(separator: ".").map(String.init) }
        let keys: [[Any?]] = objects.map { object in keyPaths.map { KeyPathReader.value(of: object, at: $0) } }
        let order = objects.indices.sorted { lhs, rhs in
            for (position, descriptor) in enumerated() {
                var result = ValueComparison.compare(keys[lhs][position], keys[rhs][position], descriptor.comparison)
                if !descriptor.ascending { result = result.reversed }
                if result != .orderedSame { return result == .orderedAscending }
            }
            return lhs < rhs
        }
        return order.map { objects[$0] }
    }
}

extension ComparisonResult {
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}

/// Orders single values of the attribute storage types.
enum ValueComparison {
    static func compare(
        _ lhs: Any?, _ rhs: Any?, _ comparison: ObjectSortDescriptor.Comparison = .compare
    ) -> ComparisonResult {
        switch (lhs, rhs) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case let (left?, right?): return compareValues(left, right, comparison)
        }
    }

    private static func compareValues(
        _ lhs: Any, _ rhs: Any, _ comparison: ObjectSortDescriptor.Comparison
    ) -> ComparisonResult {
        if let left = lhs as? String, let right = rhs as? String {
            return compareStrings(left, right, comparison)
        }
        if let left = AttributeValues.integerValue(lhs), let right = AttributeValues.integerValue(rhs),
           !(lhs is Double || lhs is Float || rhs is Double || rhs is Float) {
            return order(left, right)
        }
        if let left = lhs as? Decimal, let right = rhs as? Decimal { return order(left, right) }
        if let left = AttributeValues.doubleValue(lhs), let right = AttributeValues.doubleValue(rhs) {
            return order(left, right)
        }
        if let left = lhs as? Date, let right = rhs as? Date { return order(left, right) }
        if let left = lhs as? UUID, let right = rhs as? UUID { return order(left.uuidString, right.uuidString) }
        if let left = lhs as? URL, let right = rhs as? URL { return order(left.absoluteString, right.absoluteString) }
        if let left = lhs as? Data, let right = rhs as? Data {
            return left.lexicographicallyPrecedes(right) ? .orderedAscending
                : right.lexicographicallyPrecedes(left) ? .orderedDescending : .orderedSame
        }
        if let left = lhs as? ManagedObjectID, let right = rhs as? ManagedObjectID {
            return order(left.description, right.description)
        }
        return .orderedSame
    }

    private static func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame
    }

    static func compareStrings(
        _ lhs: String, _ rhs: String, _ comparison: ObjectSortDescriptor.Comparison
    ) -> ComparisonResult {
        switch comparison {
        case .compare:
            // NSString order: UTF-16 code units.
            if lhs.utf16.elementsEqual(rhs.utf16) { return .orderedSame }
            return lhs.utf16.lexicographicallyPrecedes(rhs.utf16) ? .orderedAscending : .orderedDescending
        case .caseInsensitive:
            return lhs.compare(rhs, options: [.caseInsensitive])
        case .localized:
            return lhs.compare(rhs, options: [], range: nil, locale: Locale.current)
        case .localizedCaseInsensitive:
            return lhs.compare(rhs, options: [.caseInsensitive], range: nil, locale: Locale.current)
        case .localizedStandard:
            return standardCompare(lhs, rhs)
        }
    }

    /// Finder order: case-insensitive, runs of digits compared as numbers, then by the
    /// exact text so that different strings never compare the same.
    static func standardCompare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        var left = Substring(lhs.lowercased())[...]
        var right = Substring(rhs.lowercased())[...]
        while let l = left.first, let r = right.first {
            if l.isASCII && l.isNumber && r.isASCII && r.isNumber {
                let leftDigits = left.prefix { $0.isASCII && $0.isNumber }
                let rightDigits = right.prefix { $0.isASCII && $0.isNumber }
                let leftNumber = leftDigits.drop { $0 == "0" }
                let rightNumber = rightDigits.drop { $0 == "0" }
                if leftNumber.count != rightNumber.count {
                    return leftNumber.count < rightNumber.count ? .orderedAscending : .orderedDescending
                }
                if leftNumber != rightNumber {
                    return leftNumber < rightNumber ? .orderedAscending : .orderedDescending
                }
                left = left.dropFirst(leftDigits.count)
                right = right.dropFirst(rightDigits.count)
                continue
            }
            if l != r {
                return String(l) < String(r) ? .orderedAscending : .orderedDescending
            }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty ? .orderedAscending : .orderedDescending }
        return compareStrings(lhs, rhs, .compare)
    }
}
