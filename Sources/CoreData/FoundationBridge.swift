// Core Data code names Foundation's own `NSPredicate` and `NSSortDescriptor` (a module of ours
// declaring classes or typealiases of those names makes them ambiguous in every file that
// also imports Foundation). Foundation on Linux cannot parse formats or sort by key, so this
// module builds them (`NSPredicate(format:)`, `NSSortDescriptor(key:ascending:)`) and keeps,
// beside each one, the runtime's `ObjectPredicate` or `ObjectSortDescriptor` it stands for;
// the runtime is given those.

import Foundation
@_spi(CoreData) import ManagedObjects

/// What each Foundation predicate or sort descriptor this module made stands for.
enum FoundationBridge {
    static let predicates = IdentityTable<ObjectPredicate>()
    static let sortDescriptors = IdentityTable<ObjectSortDescriptor>()
    /// The keys of `NSSortDescriptor(key:ascending:comparator:)`, which the runtime cannot sort by.
    static let comparatorKeys = IdentityTable<String>()

    /// A Foundation predicate standing for `predicate`: evaluated by it, and recovered as it.
    static func nsPredicate(_ predicate: ObjectPredicate) -> NSPredicate {
        let made = NSPredicate { object, variables in predicate.evaluate(with: object, substitutionVariables: variables) }
        predicates.set(predicate, for: made)
        return made
    }

    /// The runtime predicate behind any Foundation predicate: the one this module made it
    /// from; a compound's subpredicates combined; `NSPredicate(value:)` as a constant; any
    /// other (`NSPredicate(block:)`) evaluated through Foundation, in memory.
    static func objectPredicate(_ predicate: NSPredicate) -> ObjectPredicate {
        if let known = predicates.value(for: predicate) { return known }
        if let compound = predicate as? NSCompoundPredicate {
            let operands = compound.subpredicates.map(objectPredicate)
            switch compound.compoundPredicateType {
            case .and: return .and(operands)
            case .or: return .or(operands)
            case .not: return .not(operands.count == 1 ? operands[0] : .and(operands))
            @unknown default: break
            }
        }
        switch predicate.foundationPredicateFormat {
        case "TRUEPREDICATE": return ObjectPredicate(value: true)
        case "FALSEPREDICATE": return ObjectPredicate(value: false)
        default:
            return ObjectPredicate { object, variables in predicate.evaluate(with: object, substitutionVariables: variables) }
        }
    }

    /// A Foundation sort descriptor standing for `descriptor`.
    static func nsSortDescriptor(_ descriptor: ObjectSortDescriptor) -> NSSortDescriptor {
        let made = NSSortDescriptor(keyPath: placeholderKeyPath, ascending: descriptor.ascending)
        sortDescriptors.set(descriptor, for: made)
        return made
    }

    /// The runtime sort descriptor behind a Foundation one: the one this module made it from,
    /// or for `NSSortDescriptor(keyPath: \Tweet.created, ascending:)` the property a generated
    /// class names for that key path (Swift gives no key path's name on Linux); `nil` otherwise.
    static func objectSortDescriptor(_ descriptor: NSSortDescriptor) -> ObjectSortDescriptor? {
        if let known = sortDescriptors.value(for: descriptor) { return known }
        let keyPath = descriptor.keyPath
        guard let root = type(of: keyPath).rootType as? any FetchableManagedObject.Type,
              let name = root.propertyNamesByKeyPath[keyPath]
        else { return nil }
        return ObjectSortDescriptor(key: name, ascending: descriptor.ascending)
    }

    /// The Core Data key a Swift key path stands for: the name a generated class gives it, else
    /// the key path's text after its root type (Swift writes `\Person.name`).
    static func propertyName(of keyPath: AnyKeyPath) -> String {
        if let root = type(of: keyPath).rootType as? any FetchableManagedObject.Type,
           let name = root.propertyNamesByKeyPath[keyPath] {
            return name
        }
        let text = String(describing: keyPath)
        guard text.hasPrefix("\\"), let dot = text.firstIndex(of: ".") else { return text }
        return String(text[text.index(after: dot)...])
    }

    /// The key path of the Foundation sort descriptors made here: Foundation on Linux makes them
    /// from Swift key paths only; they are never used to compare, the runtime reads the key kept
    /// beside them.
    static let placeholderKeyPath = \SortKeyPlaceholder.order

    struct SortKeyPlaceholder { var order = 0 }
}

/// Values kept beside objects by identity, for as long as each object lives.
final class IdentityTable<Value>: @unchecked Sendable {
    // Unchecked: `entries` is used only while holding `lock`; values are immutable.
    private struct Entry {
        weak var object: AnyObject?
        var value: Value
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// When the table next drops the entries of objects that are gone.
    private var sweepAt = 64

    func set(_ value: Value, for object: AnyObject) {
        lock.withLock {
            entries[ObjectIdentifier(object)] = Entry(object: object, value: value)
            if entries.count >= sweepAt {
                entries = entries.filter { $0.value.object != nil }
                sweepAt = max(64, entries.count * 2)
            }
        }
    }

    /// The value kept for `object`; an entry left by a dead object at the same address is not it.
    func value(for object: AnyObject) -> Value? {
        lock.withLock {
            guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return nil }
            return entry.value
        }
    }
}
