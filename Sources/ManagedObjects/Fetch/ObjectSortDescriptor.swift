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
        let order = SortOrder([self])
        func keys(_ object: Any?) -> [SortKey] { (object as? KeyValueCoding).map(order.keys(of:)) ?? [.none] }
        return order.compare(keys(lhs), keys(rhs))
    }

    public var description: String {
        "(\(key), \(ascending ? "ascending" : "descending"), \(comparison.rawValue))"
    }
}

extension Array where Element == ObjectSortDescriptor {
    /// `objects` in the descriptors' order: the first descriptor that tells two objects apart
    /// decides; ties keep their order (the sort is stable). Each key path is compiled once and
    /// read once per object, into a typed ``SortKey``.
    func sorted<Object: KeyValueCoding>(_ objects: [Object]) -> [Object] {
        let order = SortOrder(self)
        let keys = objects.map(order.keys(of:))
        let positions = objects.indices.sorted { lhs, rhs in
            let result = order.compare(keys[lhs], keys[rhs])
            return result == .orderedSame ? lhs < rhs : result == .orderedAscending
        }
        return positions.map { objects[$0] }
    }
}

/// Sort descriptors compiled once: their key paths, directions and string comparisons.
struct SortOrder {
    private let keyPaths: [CompiledKeyPath]
    private let ascending: [Bool]
    private let comparisons: [ObjectSortDescriptor.Comparison]

    init(_ descriptors: [ObjectSortDescriptor]) {
        keyPaths = descriptors.map { CompiledKeyPath(keyValuePath: $0.key) }
        ascending = descriptors.map(\.ascending)
        comparisons = descriptors.map(\.comparison)
    }

    /// An object's sort keys, one per descriptor.
    func keys(of object: KeyValueCoding) -> [SortKey] {
        keyPaths.map { SortKey($0.keyValue(of: object)) }
    }

    /// How two objects' sort keys compare: by the first descriptor that tells them apart.
    func compare(_ lhs: [SortKey], _ rhs: [SortKey]) -> ComparisonResult {
        for position in keyPaths.indices {
            let result = SortKey.compare(lhs[position], rhs[position], comparisons[position])
            if result != .orderedSame { return ascending[position] ? result : result.reversed }
        }
        return .orderedSame
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

/// One object's value for a sort key path, converted once to the form comparisons need.
enum SortKey {
    case none
    case scalar(ScalarValue)
    /// A value that is not a scalar (an object, a collection): it sorts with its equals.
    case unordered

    init(_ value: Any?) {
        let value = PredicateValues.normalized(value)
        if value == nil {
            self = .none
        } else if let scalar = ScalarValue.from(value) {
            self = .scalar(scalar)
        } else if let objectID = value as? ManagedObjectID {
            // Object IDs order by their text, so sorting by one is stable across runs.
            self = .scalar(.string(objectID.description))
        } else {
            self = .unordered
        }
    }

    /// `nil` first, then values by ``ValueComparison``; values it cannot order sort together.
    static func compare(_ lhs: SortKey, _ rhs: SortKey, _ strings: ObjectSortDescriptor.Comparison) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.none, .none): .orderedSame
        case (.none, _): .orderedAscending
        case (_, .none): .orderedDescending
        case (.scalar(let left), .scalar(let right)): ValueComparison.compare(left, right, strings) ?? .orderedSame
        default: .orderedSame
        }
    }
}

extension ObjectSortDescriptor.Comparison: StringOrdering {
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        switch self {
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
            return Self.standardCompare(lhs, rhs)
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
        let exact: Self = .compare
        return exact.compare(lhs, rhs)
    }
}
