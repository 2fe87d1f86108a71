import Foundation
import Testing
@testable import ManagedObjects

/// A table view's model driven by a `FetchedResultsController`'s delegate calls: each batch of
/// changes is applied with UITableView's batch-update rules (deletes at old index paths, then
/// section inserts, then inserts and move targets at new index paths, in ascending order).
/// After each batch the table must equal the controller's sections, or the reports were wrong.
final class FetchedResultsTable: FetchedResultsControllerDelegate {
    struct Section: Equatable {
        var name: String
        var rows: [ObjectIdentifier]
    }

    private(set) var sections: [Section] = []
    /// Every change reported, as text (`insert`, `move 0.1>0.2`, `section delete B 1`, …), per batch.
    private(set) var batches: [[String]] = []
    /// Objects reported as moved or updated since `takeEvents()`.
    private(set) var movedOrUpdated: [ManagedObject] = []
    /// Problems found since `takeEvents()` (say, an old index path that does not hold the object).
    private(set) var problems: [String] = []

    private var deletedSections: Set<Int> = []
    private var insertedSections: [(index: Int, name: String)] = []
    private var removedRows: Set<IndexPath> = []
    private var placedRows: [(path: IndexPath, object: ObjectIdentifier)] = []
    private var events: [String] = []
    private let describe: (ManagedObject) -> String

    init(describe: @escaping (ManagedObject) -> String) {
        self.describe = describe
    }

    /// Starts from the controller's current sections.
    func load<Result>(_ sections: [FetchedResultsSection<Result>]) {
        self.sections = sections.map { Section(name: $0.name, rows: $0.objects.map(ObjectIdentifier.init)) }
    }

    func controllerWillChangeContent(_ controller: AnyObject) {
        deletedSections = []
        insertedSections = []
        removedRows = []
        placedRows = []
        events = []
    }

    func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType) {
        events.append("section \(type) \(name) \(sectionIndex)")
        switch type {
        case .delete: deletedSections.insert(sectionIndex)
        case .insert: insertedSections.append((sectionIndex, name))
        case .move, .update: problems.append("section change \(type)")
        }
    }

    func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let from = indexPath.map { "\($0.section).\($0.item)" } ?? "-"
        let to = newIndexPath.map { "\($0.section).\($0.item)" } ?? "-"
        events.append("\(type) \(describe(object)) \(from)>\(to)")
        if let indexPath, row(at: indexPath) != ObjectIdentifier(object) {
            problems.append("\(type) \(describe(object)): \(from) does not hold it")
        }
        switch type {
        case .delete:
            if let indexPath { removedRows.insert(indexPath) } else { problems.append("delete without a path") }
        case .insert:
            if let newIndexPath { placedRows.append((newIndexPath, ObjectIdentifier(object))) } else { problems.append("insert without a path") }
        case .move:
            guard let indexPath, let newIndexPath else { problems.append("move without paths"); return }
            removedRows.insert(indexPath)
            placedRows.append((newIndexPath, ObjectIdentifier(object)))
            movedOrUpdated.append(object)
        case .update:
            if indexPath == nil { problems.append("update without a path") }
            movedOrUpdated.append(object)
        }
    }

    func controllerDidChangeContent(_ controller: AnyObject) {
        var result: [Section] = []
        for (sectionIndex, section) in sections.enumerated() where !deletedSections.contains(sectionIndex) {
            let rows = section.rows.enumerated()
                .filter { !removedRows.contains(IndexPath(item: $0.offset, section: sectionIndex)) }.map(\.element)
            result.append(Section(name: section.name, rows: rows))
        }
        for inserted in insertedSections.sorted(by: { $0.index < $1.index }) {
            guard inserted.index <= result.count else { problems.append("section insert past the end"); continue }
            result.insert(Section(name: inserted.name, rows: []), at: inserted.index)
        }
        for placed in placedRows.sorted(by: { ($0.path.section, $0.path.item) < ($1.path.section, $1.path.item) }) {
            guard result.indices.contains(placed.path.section),
                  placed.path.item <= result[placed.path.section].rows.count else {
                problems.append("insert at \(placed.path) past the end")
                continue
            }
            result[placed.path.section].rows.insert(placed.object, at: placed.path.item)
        }
        sections = result
        batches.append(events)
    }

    private func row(at indexPath: IndexPath) -> ObjectIdentifier? {
        guard sections.indices.contains(indexPath.section),
              sections[indexPath.section].rows.indices.contains(indexPath.item) else { return nil }
        return sections[indexPath.section].rows[indexPath.item]
    }

    /// Whether the table shows what the controller holds.
    func matches<Result>(_ sections: [FetchedResultsSection<Result>]?) -> Bool {
        self.sections == (sections ?? []).map { Section(name: $0.name, rows: $0.objects.map(ObjectIdentifier.init)) }
    }

    /// The events since the last call, and forgets them, the moves, updates and problems.
    func takeEvents() -> [String] {
        defer {
            batches.removeAll()
            movedOrUpdated.removeAll()
            problems.removeAll()
        }
        return batches.flatMap { $0 }
    }
}

/// A small deterministic random source (SplitMix64), so that a failing sequence repeats.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
