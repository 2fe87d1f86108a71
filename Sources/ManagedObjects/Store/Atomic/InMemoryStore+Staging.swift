import Foundation

/// What an atomic store (``AtomicStore``) needs of the in-memory store that holds its object
/// graph: a copy to apply a save to before the file is written, taking that copy's state once
/// the file is, and the graph to load from and write to a file.
extension InMemoryStore {
    /// An independent copy with the same identifier. The tables are copied on write, so the
    /// copy costs nothing until a change is applied to it.
    func stagingCopy() -> InMemoryStore {
        lock.withLock {
            let copy = InMemoryStore(identifier: identifier)
            copy.tables = tables
            copy.uniqueness = uniqueness
            return copy
        }
    }

    /// Takes the state of `staged` (a ``stagingCopy()`` a change was applied to).
    func adopt(_ staged: InMemoryStore) {
        let (tables, uniqueness) = staged.lock.withLock { (staged.tables, staged.uniqueness) }
        lock.withLock {
            self.tables = tables
            self.uniqueness = uniqueness
        }
    }

    /// Every stored object, and the last number given out in each root entity's sequence.
    func storedContents() -> (objects: [StoredObject], lastNumbers: [ObjectIdentifier: Int64]) {
        lock.withLock {
            (tables.values.flatMap { $0.rows.compactMap { $0 } }, tables.mapValues(\.lastNumber))
        }
    }

    /// Puts objects read from a file, with the last number of each root entity's sequence
    /// (numbers the file's objects use count as given out too).
    func load(_ objects: [StoredObject], lastNumbers: [ObjectIdentifier: Int64]) {
        lock.withLock {
            for object in objects { put(object) }
            for (root, number) in lastNumbers {
                tables[root, default: Table()].lastNumber = max(tables[root]?.lastNumber ?? 0, number)
            }
            for (root, table) in tables {
                tables[root]?.lastNumber = max(table.lastNumber, Int64(table.rows.count))
            }
            uniqueness.add(objects)
        }
    }
}
