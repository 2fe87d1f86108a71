import Foundation

/// What happened to an object or a section between two states of a
/// `FetchedResultsController`'s results. Core Data's `NSFetchedResultsChangeType`, with its
/// raw values.
public enum FetchedResultsChangeType: UInt, Sendable, Hashable {
    case insert = 1, delete, move, update
}
