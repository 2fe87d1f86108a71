import Foundation

/// One section of a `FetchedResultsController`'s results. Core Data's
/// `NSFetchedResultsSectionInfo`.
public struct FetchedResultsSection<Result: ManagedObject> {
    /// The section key path's value as text (`""` for nil).
    public let name: String
    /// The delegate's title for the name; by default its first letter, capitalized (`nil` for
    /// an empty name).
    public let indexTitle: String?
    public let objects: [Result]
    public var numberOfObjects: Int { objects.count }

    /// The name's first letter, capitalized, as Core Data titles sections by default.
    public static func defaultIndexTitle(for name: String) -> String? {
        name.first.map { String($0).uppercased() }
    }
}
