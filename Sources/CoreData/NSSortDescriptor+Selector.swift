import Foundation
import ManagedObjects

// Core Data's sort descriptors that compare strings by a selector or by a comparator block, on
// Foundation's own `NSSortDescriptor` (Foundation on Linux has neither initializer).
extension NSSortDescriptor {
    /// `NSSortDescriptor(key:ascending:selector:)`: the selectors a Core Data store sorts by
    /// (`compare:`, `caseInsensitiveCompare:`, `localizedCompare:`,
    /// `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:`); `nil` is `compare:`.
    /// Another selector stops the program, as Core Data's SQLite store raises for it.
    public convenience init(key: String?, ascending: Bool, selector: Selector?) {
        let name = selector?.description ?? "compare:"
        guard let comparison = NSSortDescriptor.comparisons[name] else {
            preconditionFailure("NSSortDescriptor(key: \(key ?? "nil")): unsupported selector '\(name)'; a store sorts by \(NSSortDescriptor.comparisons.keys.sorted().joined(separator: ", "))")
        }
        self.init(keyPath: FoundationBridge.placeholderKeyPath, ascending: ascending)
        FoundationBridge.sortDescriptors.set(
            ObjectSortDescriptor(key: key ?? "", ascending: ascending, comparison: comparison), for: self)
    }

    /// `NSSortDescriptor(key:ascending:comparator:)`. As Core Data's SQLite store, a fetch
    /// request does not sort by a block: giving it one stops the program.
    public convenience init(key: String?, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.init(keyPath: FoundationBridge.placeholderKeyPath, ascending: ascending, comparator: cmptr)
        FoundationBridge.comparatorKeys.set(key ?? "", for: self)
    }

    private static let comparisons: [String: ObjectSortDescriptor.Comparison] = [
        "compare:": .compare,
        "caseInsensitiveCompare:": .caseInsensitive,
        "localizedCompare:": .localized,
        "localizedCaseInsensitiveCompare:": .localizedCaseInsensitive,
        "localizedStandardCompare:": .localizedStandard,
    ]
}
