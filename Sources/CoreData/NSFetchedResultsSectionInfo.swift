/// One section of a fetched-results controller's results, as Core Data gives it.
public protocol NSFetchedResultsSectionInfo {
    /// The section key path's value as text.
    var name: String { get }
    var indexTitle: String? { get }
    var numberOfObjects: Int { get }
    var objects: [Any]? { get }
}
