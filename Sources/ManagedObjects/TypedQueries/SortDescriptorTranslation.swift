import Foundation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObjectSortDescriptor {
    /// The sort descriptor a Foundation `SortDescriptor` with a key path stands for
    /// (`SortDescriptor(\Tweet.created, order: .reverse)` is `created`, descending), so stores
    /// sort by it as by a key-path sort descriptor.
    ///
    /// String comparators: `.localizedStandard` and `.localized` (Apple platforms; Foundation on
    /// Linux offers only `.lexical`) become ``Comparison/localizedStandard`` and
    /// ``Comparison/localized``; `.lexical` and values compared as `Comparable` become
    /// ``Comparison/compare``.
    ///
    /// - Throws: ``ManagedObjectError`` (`invalidFetchRequest`) for a descriptor without a key
    ///   path (made from a comparator) or whose key path is not a stored property of a generated
    ///   class (through a relationship, say: sort by a format key path for that).
    public init<Compared>(_ descriptor: SortDescriptor<Compared>) throws {
        guard let keyPath = descriptor.keyPath else {
            throw ManagedObjectError(
                .invalidFetchRequest, "SortDescriptor<\(Compared.self)>: it has no key path to sort by in a store",
                entityName: "\(Compared.self)")
        }
        guard case .property(let name)? = KeyPathNames.name(of: keyPath, from: Compared.self) else {
            throw ManagedObjectError(
                .invalidFetchRequest,
                "SortDescriptor<\(Compared.self)>: \(keyPath) is not a stored property of a generated class",
                entityName: "\(Compared.self)")
        }
        self.init(key: name, ascending: descriptor.order == .forward, comparison: Self.comparison(of: descriptor))
    }

    private static func comparison<Compared>(of descriptor: SortDescriptor<Compared>) -> Comparison {
        #if canImport(Darwin)
        switch descriptor.stringComparator {
        case .some(.localizedStandard): return .localizedStandard
        case .some(.localized): return .localized
        default: return .compare
        }
        #else
        return .compare
        #endif
    }
}
