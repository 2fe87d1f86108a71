import Foundation
import OrderedCollections

extension FetchableManagedObject {
    /// No key path names: classes written by hand add them to use typed queries.
    public static var propertyNamesByKeyPath: [AnyKeyPath: String] { [:] }

    /// The table generated `propertyNamesByKeyPath` builds: a class's own entries (key paths
    /// from `Self`, so in a class tree from the subclass asked) and, for the root of a tree, the
    /// tables of the subclasses `Self` is or descends from (`nil` for the others). The entries
    /// are `PartialKeyPath<Self>` so that generated code writes `\.text`, not `\Tweet.text`:
    /// the root taken from this parameter is cheaper to typecheck than a class named in each.
    static func propertyNames(
        _ own: [PartialKeyPath<Self>: String], subclasses: [[AnyKeyPath: String]?]
    ) -> [AnyKeyPath: String] {
        var names = [AnyKeyPath: String](minimumCapacity: own.count)
        for (keyPath, name) in own { names[keyPath] = name }
        return subclasses.reduce(names) { names, subclass in names.merging(subclass ?? [:]) { kept, _ in kept } }
    }
}

/// Reads the Core Data key a Swift key path stands for: a generated class's stored property or
/// wrapper (from ``FetchableManagedObject/propertyNamesByKeyPath``), or a collection's `count`
/// and `isEmpty`.
enum KeyPathNames {
    /// What a key path reads, in the predicate language.
    enum Name: Equatable {
        /// A property: `text`, `origin_`.
        case property(String)
        /// A collection's `count` (`@count`).
        case count
        /// A collection's `isEmpty` (`@count == 0`).
        case isEmpty
        /// A string's `isEmpty` (`== ""`).
        case isEmptyString
    }

    /// Tables by class: a non-final class builds its table for each subclass it is asked for.
    private static let tables = LockedValue<[ObjectIdentifier: [AnyKeyPath: String]]>([:])

    /// What `keyPath` (from a `Root`) reads, or `nil` when it is not a stored property, wrapper
    /// or collection count.
    static func name<Root>(of keyPath: AnyKeyPath, from root: Root.Type) -> Name? {
        if let objectClass = root as? any FetchableManagedObject.Type {
            let table = tables.withLock { cached in
                if let table = cached[ObjectIdentifier(root)] { return table }
                let table = objectClass.propertyNamesByKeyPath
                cached[ObjectIdentifier(root)] = table
                return table
            }
            return table[keyPath].map(Name.property)
        }
        if root == String.self, keyPath == \String.isEmpty { return .isEmptyString }
        if let collection = root as? any CountedCollection.Type {
            return collection.countKeyPaths[keyPath]
        }
        return nil
    }
}

/// Collections whose `count` and `isEmpty` a typed predicate reads as `@count`: to-many
/// relationships (`Set`, `OrderedSet`) and arrays (what `filter` returns). Each names its own
/// members: `\Self.isEmpty` in a `Collection` extension would be `Collection`'s, a key path
/// unequal to `\Set<Tweet>.isEmpty`.
protocol CountedCollection {
    static var countKeyPaths: [AnyKeyPath: KeyPathNames.Name] { get }
}

extension Set: CountedCollection {
    static var countKeyPaths: [AnyKeyPath: KeyPathNames.Name] { [\Set.count: .count, \Set.isEmpty: .isEmpty] }
}

extension Array: CountedCollection {
    static var countKeyPaths: [AnyKeyPath: KeyPathNames.Name] { [\Array.count: .count, \Array.isEmpty: .isEmpty] }
}

extension OrderedSet: CountedCollection {
    static var countKeyPaths: [AnyKeyPath: KeyPathNames.Name] { [\OrderedSet.count: .count, \OrderedSet.isEmpty: .isEmpty] }
}
